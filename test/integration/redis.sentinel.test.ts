// REDIS_SENTINELS (lib/redis.ts): every Redis use of the project through node-redis's sentinel
// client against a real primary + replica + 3 Sentinels (test/harness/redis-sentinel.ts, ports
// TEST_PORT_BASE+1500…1504): the commands the limiters, usage counts and report cache send, and
// pub/sub between two processes' clients; after SENTINEL FAILOVER the same clients write to the new
// primary and subscribers receive events again. Skipped with one line when redis-sentinel is not
// installed (CI installs it and fails without it).
import { createLogger } from '../../lib/logger.js';
import { loadConfig } from '../../lib/config.js';
import { createRedisPubSub, type PubSub } from '../../lib/pubsub.js';
import { RedisRateLimiter, RedisUsageCounter } from '../../lib/rate-limit.js';
import { closeRedis, connectRedis } from '../../lib/redis.js';
import { hasBinary, startSentinelSet, type SentinelSet } from '../harness/redis-sentinel.js';

const PORT = Number(process.env.TEST_PORT_BASE ?? 14000) + 1500;
const present = hasBinary('redis-sentinel') && hasBinary('redis-server');
if (!present && process.env.CI !== 'true') console.warn('redis.sentinel.test: redis-sentinel is not installed; skipped (apt-get install redis-sentinel)');
const maybe = present || process.env.CI === 'true' ? describe : describe.skip;
const log = createLogger({ test: 'sentinel' }, 'silent');

async function next(it: AsyncIterator<unknown>, ms: number): Promise<unknown> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([it.next().then((r) => r.value), new Promise((r) => (t = setTimeout(() => r('timeout'), ms)))]);
  } finally {
    clearTimeout(t);
  }
}

maybe('Redis through Sentinel', () => {
  let set: SentinelSet;
  beforeAll(async () => {
    if (!present) throw new Error('redis-sentinel is not installed (CI=true: it must be; .ci/run installs it)');
    set = await startSentinelSet(PORT);
  }, 60_000);
  afterAll(() => set?.stop(), 30_000);

  test('REDIS_SENTINELS is read into the config; a bad entry or a missing name is refused naming the variable', () => {
    const cfg = loadConfig({ ...set.env } as NodeJS.ProcessEnv);
    expect(cfg.redisSentinel).toEqual({ nodes: set.settings.nodes, name: set.settings.name });
    expect(() => loadConfig({ REDIS_SENTINELS: '127.0.0.1' } as NodeJS.ProcessEnv)).toThrow(/REDIS_SENTINELS: "127.0.0.1" is not host:port/);
    expect(() => loadConfig({ REDIS_SENTINELS: '127.0.0.1:1' } as NodeJS.ProcessEnv)).toThrow(/REDIS_SENTINEL_NAME: is required/);
  });

  test('commands, counters and pub/sub go to the primary, and again to the new one after a failover', async () => {
    const settings = { redisSentinel: set.settings };
    const redis = await connectRedis(settings, log);
    const pubA: PubSub = await createRedisPubSub(settings, log, 'sent:');
    const pubB: PubSub = await createRedisPubSub(settings, log, 'sent:');
    try {
      const limiter = new RedisRateLimiter(redis, Date.now, 'sent:');
      const usage = new RedisUsageCounter(redis, 'sent:usage');
      expect((await limiter.hit('k', 2)).allowed).toBe(true);
      await usage.incr('a', 2);
      await redis.set('sent:before', '1');

      const it = pubB.subscribe('topic');
      const first = next(it, 5000);
      // SUBSCRIBE is asynchronous: publish until the subscriber has it
      for (let i = 0; i < 50 && (await Promise.race([first, 'pending'])) === 'pending'; i++) {
        await pubA.publish('topic', { n: 1 });
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await first).toEqual({ n: 1 });

      const before = await set.primaryPort();
      const after = await set.failover();
      expect(after).not.toBe(before);

      // the same clients: writes reach the new primary (the sentinel client rediscovers it)
      const deadline = Date.now() + 15_000;
      for (;;) {
        try {
          await redis.set('sent:after', '2');
          break;
        } catch (e) {
          if (Date.now() > deadline) throw e;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      expect(await redis.get('sent:before')).toBe('1'); // replicated before the failover
      expect((await limiter.hit('k', 2)).allowed).toBe(true);
      await usage.incr('a', 3);
      expect(Object.fromEntries(await usage.drain())).toEqual({ a: 5 });

      // and the subscriber receives events again (re-subscribed on the new primary)
      let got: unknown = 'timeout';
      for (let i = 0; i < 100 && got === 'timeout'; i++) {
        await pubA.publish('topic', { n: 2 }).catch(() => undefined);
        got = await next(it, 150);
      }
      expect(got).toEqual({ n: 2 });
      await it.return?.();
    } finally {
      await Promise.all([pubA.close(), pubB.close(), closeRedis(redis)]);
    }
  }, 90_000);
});
