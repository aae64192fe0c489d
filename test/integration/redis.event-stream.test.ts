// The resumable streams over Redis (lib/pubsub.ts): ids from XADD, the window trimmed by count in
// the same step as the publish, resume after an id on another connection (what another gateway
// does), and the gone signal only when events after the resume point were trimmed.
import { tenantStreamOf } from '../../lib/event-stream.js';
import { isGone, type StreamItem } from '../../lib/event-stream.js';
import { createLogger } from '../../lib/logger.js';
import { createRedisPubSub, type PubSub } from '../../lib/pubsub.js';
import { REDIS_URL, describeWithRedis, uniquePrefix } from './redis.helpers.js';

const describeRedis = await describeWithRedis('redis.event-stream.test.ts');

describeRedis('resumable event streams over Redis', () => {
  const streams = { retainEvents: 3, retainMs: 300_000, streamOf: tenantStreamOf(['product.events']) };
  let publisher: PubSub;
  let gateway: PubSub;
  beforeAll(async () => {
    const prefix = uniquePrefix('event-stream');
    publisher = await createRedisPubSub({ redisUrl: REDIS_URL! }, createLogger({}, 'silent'), prefix, streams);
    gateway = await createRedisPubSub({ redisUrl: REDIS_URL! }, createLogger({}, 'silent'), prefix, streams);
  });
  afterAll(async () => {
    await publisher.close();
    await gateway.close();
  });

  const payloadOf = (i: StreamItem) => (i as { payload: unknown }).payload;

  test('live events carry XADD ids; a resume on another connection replays the missed ones once, then live', async () => {
    const topic = 'product.events:app_r1:live';
    const live = gateway.subscribeFrom(topic);
    const first = live.next();
    await new Promise((r) => setTimeout(r, 100));
    await publisher.publish(topic, { n: 1 });
    const one = (await first).value as { id: string; payload: unknown };
    expect(one.id).toMatch(/^\d+-\d+$/);
    expect(one.payload).toEqual({ n: 1 });
    await live.return!();
    await publisher.publish(topic, { n: 2 });
    await publisher.publish('product.events:app_r2:live', { foreign: true });
    await publisher.publish(topic, { n: 3 });
    const resumed = gateway.subscribeFrom(topic, one.id);
    expect(payloadOf((await resumed.next()).value)).toEqual({ n: 2 });
    expect(payloadOf((await resumed.next()).value)).toEqual({ n: 3 });
    const next = resumed.next();
    await publisher.publish(topic, { n: 4 });
    expect(payloadOf((await next).value)).toEqual({ n: 4 });
    await resumed.return!();
  });

  test('a resume point trimmed out of the window (count) is gone; the newest id is not', async () => {
    const topic = 'product.events:app_r3:live';
    const live = gateway.subscribeFrom(topic);
    const got: StreamItem[] = [];
    const reading = (async () => {
      for (let i = 0; i < 5; i++) got.push((await live.next()).value);
    })();
    await new Promise((r) => setTimeout(r, 100));
    for (let n = 1; n <= 5; n++) await publisher.publish(topic, { n });
    await reading;
    await live.return!();
    const ids = got.map((e) => (e as { id: string }).id);
    const gone = gateway.subscribeFrom(topic, ids[0]);
    expect(isGone((await gone.next()).value)).toBe(true);
    await gone.return!();
    const atNewest = gateway.subscribeFrom(topic, ids[4]);
    const next = atNewest.next();
    await publisher.publish(topic, { n: 6 });
    const six = (await next).value;
    expect(isGone(six)).toBe(false);
    expect(payloadOf(six)).toEqual({ n: 6 });
    await atNewest.return!();
  });
  test('a Redis that lost its script cache (SCRIPT FLUSH, a restart) still takes the publish: NOSCRIPT, then EVAL', async () => {
    const { createClient } = await import('redis');
    const admin = createClient({ url: REDIS_URL! });
    await admin.connect();
    await admin.scriptFlush();
    await admin.quit();
    const topic = 'product.events:app_r4:live';
    const live = gateway.subscribeFrom(topic);
    const first = live.next();
    await new Promise((r) => setTimeout(r, 100));
    await publisher.publish(topic, { n: 1 });
    expect(payloadOf((await first).value)).toEqual({ n: 1 });
    const second = live.next();
    await publisher.publish(topic, { n: 2 });
    expect(payloadOf((await second).value)).toEqual({ n: 2 });
    await live.return!();
  });
});
