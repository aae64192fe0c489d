// The resumable event streams (lib/event-stream.ts, lib/pubsub.ts): the cost of a publish to a
// streamed Subscription topic beside a plain one, and of a resume that replays a full window of
// missed events. In process always; over Redis when REDIS_URL is set (its own key prefix).
// Run: node --import @swc-node/register/esm-register bench/event-stream.bench.ts [events=1000]
import { randomUUID } from 'node:crypto';
import { createLogger } from '../lib/logger.js';
import { tenantStreamOf } from '../lib/event-stream.js';
import { createMemoryPubSub, createRedisPubSub, type PubSub } from '../lib/pubsub.js';

const N = Number(process.argv[2] ?? 1000);
const streams = { retainEvents: N, retainMs: 300_000, streamOf: tenantStreamOf(['product.events']) };
const payload = { event: 'product.updated', productId: 'prod_0123456789abcdefghij', occurredAt: new Date().toISOString() };

async function measure(name: string, ps: PubSub): Promise<void> {
  const topic = `product.events:app_${randomUUID().slice(0, 8)}:live`;
  const first = ps.subscribeFrom(topic);
  const got = first.next();
  let t = performance.now();
  for (let i = 0; i < N; i++) await ps.publish(topic, { ...payload, i });
  const streamedMs = performance.now() - t;
  const from = ((await got).value as { id: string }).id;
  await first.return!();
  t = performance.now();
  for (let i = 0; i < N; i++) await ps.publish(`plain.topic:${topic}`, { ...payload, i });
  const plainMs = performance.now() - t;
  t = performance.now();
  const resumed = ps.subscribeFrom(topic, from);
  for (let i = 1; i < N; i++) await resumed.next();
  const replayMs = performance.now() - t;
  await resumed.return!();
  console.log(
    `${name}: publish ${(streamedMs / N).toFixed(3)} ms/event streamed vs ${(plainMs / N).toFixed(3)} plain (${N} sequential); ` +
      `resume replaying ${N - 1} missed events: ${replayMs.toFixed(0)} ms`,
  );
}

await measure('in process', createMemoryPubSub(streams));
if (process.env.REDIS_URL) {
  const ps = await createRedisPubSub({ redisUrl: process.env.REDIS_URL }, createLogger({}, 'silent'), `bench:${randomUUID().slice(0, 8)}:`, streams);
  await measure('redis', ps);
  await ps.close();
}
