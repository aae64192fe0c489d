// issue 12 item 10: REDIS_KEY_PREFIX applies to every key and channel, so two deployments can share
// one Redis: rate-limit counters, pub/sub channels (events, key invalidations), usage counters.
import { createClient, type RedisClientType } from 'redis';
import { createInfra } from '../../lib/infra.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { REDIS_URL, describeWithRedis, uniquePrefix } from './redis.helpers.js';

const describeRedis = await describeWithRedis('redis.key-prefix.test.ts');

describeRedis('two deployments on one Redis', () => {
  const log = createLogger({ test: 'prefix' }, 'silent');
  const prefixA = `${uniquePrefix('depA')}:`;
  const prefixB = `${uniquePrefix('depB')}:`;
  let admin: RedisClientType;
  let a: Awaited<ReturnType<typeof createInfra>>;
  let b: Awaited<ReturnType<typeof createInfra>>;

  beforeAll(async () => {
    a = await createInfra(loadConfig({ REDIS_URL, REDIS_KEY_PREFIX: prefixA }), log);
    b = await createInfra(loadConfig({ REDIS_URL, REDIS_KEY_PREFIX: prefixB }), log);
    admin = createClient({ url: REDIS_URL }) as RedisClientType;
    admin.on('error', () => undefined);
    await admin.connect();
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await admin?.close();
  });

  test('rate-limit counters live under the prefix and budgets are separate', async () => {
    for (let i = 0; i < 3; i++) await a.rateLimiter.hit('key:k1', 3);
    expect((await a.rateLimiter.hit('key:k1', 3)).allowed).toBe(false);
    expect((await b.rateLimiter.hit('key:k1', 3)).allowed).toBe(true);
    expect((await admin.keys(`${prefixA}rl:key:k1:*`)).length).toBe(1);
    expect(await admin.keys('rl:key:k1:*')).toEqual([]);
  });

  test('pub/sub channels carry the prefix: the other deployment hears nothing', async () => {
    const topic = 'platform.keys.invalidated';
    const itB = b.pubsub.subscribe(topic);
    const itA = a.pubsub.subscribe(topic);
    const nextA = itA.next();
    let heardB = false;
    void itB.next().then((r) => (heardB = !r.done));
    for (let i = 0; i < 200; i++) {
      const n = (await admin.pubSubNumSub([`${prefixA}${topic}`, `${prefixB}${topic}`])) as Record<string, number>;
      if (n[`${prefixA}${topic}`] && n[`${prefixB}${topic}`]) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await a.pubsub.publish(topic, { reason: 'test' });
    expect((await nextA).value).toEqual({ reason: 'test' });
    await new Promise((r) => setTimeout(r, 200));
    expect(heardB).toBe(false);
    await itA.return?.();
    await itB.return?.();
  });
});
