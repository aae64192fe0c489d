// lib/rate-limit.ts against a real Redis: RedisRateLimiter (INCR + PEXPIRE in one MULTI) and
// RedisUsageCounter (HINCRBY, RENAME-then-read drain). Unique keys per run; skipped with a
// message when no Redis answers at REDIS_URL (default redis://127.0.0.1:6379).
import { createClient, type RedisClientType } from 'redis';
import { RedisRateLimiter, RedisUsageCounter } from '../../lib/rate-limit.js';
import { REDIS_URL, describeWithRedis, uniquePrefix } from './redis.helpers.js';

const describeRedis = await describeWithRedis('redis.rate-limit.test.ts');

const MINUTE = 60_000;
const T0 = 1_700_000_040_000; // a minute boundary

describeRedis('Redis rate limiting and usage counters', () => {
  let client: RedisClientType;
  const prefix = uniquePrefix('rl');

  beforeAll(async () => {
    client = createClient({ url: REDIS_URL }) as RedisClientType;
    client.on('error', () => undefined);
    await client.connect();
  });

  afterAll(async () => {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `*${prefix}*`, COUNT: 1000 })) keys.push(...batch);
    if (keys.length) await client.del(keys);
    await client.close();
  });

  describe('RedisRateLimiter', () => {
    test('allows up to the limit, then refuses within the window', async () => {
      const rl = new RedisRateLimiter(client, () => T0 + 1000);
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await rl.hit(`${prefix}:a`, 3));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
      expect(results[0]).toEqual({ allowed: true, limit: 3, remaining: 2, resetMs: MINUTE - 1000 });
    });

    test('spend keeps units within the limit; over it they are given back in the same step, so a smaller spend still fits', async () => {
      const rl = new RedisRateLimiter(client, () => T0 + 1000);
      const key = `${prefix}:spend`;
      expect(await rl.spend(key, 100, 60)).toEqual({ allowed: true, limit: 100, remaining: 40, resetMs: MINUTE - 1000 });
      expect(await rl.spend(key, 100, 50)).toMatchObject({ allowed: false, remaining: 40 });
      expect(await rl.spend(key, 100, 40)).toMatchObject({ allowed: true, remaining: 0 });
      // the counter carries an expiry (the window plus a second), set in the same step
      const ttl = await client.pTTL(`rl:${key}:${T0}`);
      expect(ttl).toBeGreaterThan(MINUTE - 5000);
      expect(ttl).toBeLessThanOrEqual(MINUTE + 1000);
    });

    test('a Redis that lost its scripts (restart, SCRIPT FLUSH) loads them again on the next call', async () => {
      const rl = new RedisRateLimiter(client, () => T0 + 1000);
      await rl.hit(`${prefix}:flush`, 5);
      await client.scriptFlush();
      expect(await rl.hit(`${prefix}:flush`, 5)).toMatchObject({ allowed: true, remaining: 3 });
      await client.scriptFlush();
      expect(await rl.spend(`${prefix}:flush-spend`, 5, 2)).toMatchObject({ allowed: true, remaining: 3 });
    });

    test('hitAll counts several counters in one step, each against its own limit', async () => {
      const rl = new RedisRateLimiter(client, () => T0 + 1000);
      const hits = [{ key: `${prefix}:all-app`, limit: 3 }, { key: `${prefix}:all-key`, limit: 1 }];
      const first = await rl.hitAll(hits);
      expect(first).toEqual([
        { allowed: true, limit: 3, remaining: 2, resetMs: MINUTE - 1000 },
        { allowed: true, limit: 1, remaining: 0, resetMs: MINUTE - 1000 },
      ]);
      expect((await rl.hitAll(hits)).map((r) => r.allowed)).toEqual([true, false]);
      // the same counters as hit() reads
      expect((await rl.hit(`${prefix}:all-app`, 3)).allowed).toBe(true);
      expect((await rl.hit(`${prefix}:all-app`, 3)).allowed).toBe(false);
    });

    test('a new window resets the count', async () => {
      let t = T0;
      const rl = new RedisRateLimiter(client, () => t);
      expect((await rl.hit(`${prefix}:b`, 1)).allowed).toBe(true);
      t = T0 + MINUTE - 1;
      expect((await rl.hit(`${prefix}:b`, 1)).allowed).toBe(false);
      t = T0 + MINUTE;
      expect(await rl.hit(`${prefix}:b`, 1)).toEqual({ allowed: true, limit: 1, remaining: 0, resetMs: MINUTE });
    });

    test('the window key carries a TTL of about one window', async () => {
      const rl = new RedisRateLimiter(client, () => T0);
      await rl.hit(`${prefix}:ttl`, 5);
      const ttl = await client.pTTL(`rl:${prefix}:ttl:${T0}`);
      expect(ttl).toBeGreaterThan(MINUTE - 5000);
      expect(ttl).toBeLessThanOrEqual(MINUTE + 1000);
    });

    test('two limiters (two processes) share one budget', async () => {
      const other = createClient({ url: REDIS_URL }) as RedisClientType;
      other.on('error', () => undefined);
      await other.connect();
      try {
        const a = new RedisRateLimiter(client, () => T0);
        const b = new RedisRateLimiter(other, () => T0);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit(`${prefix}:shared`, 7)));
        expect(results.filter((r) => r.allowed)).toHaveLength(7);
        expect(results.map((r) => r.remaining).sort((x, y) => x - y).slice(-7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      } finally {
        await other.close();
      }
    });

    test('keys are independent', async () => {
      const rl = new RedisRateLimiter(client, () => T0);
      expect((await rl.hit(`${prefix}:x`, 1)).allowed).toBe(true);
      expect((await rl.hit(`${prefix}:x`, 1)).allowed).toBe(false);
      expect((await rl.hit(`${prefix}:y`, 1)).allowed).toBe(true);
    });
  });

  describe('RedisUsageCounter', () => {
    test('incr accumulates; drain returns numbers and clears', async () => {
      const c = new RedisUsageCounter(client, `${prefix}:usage1`);
      await c.incr('key_1');
      await c.incr('key_1');
      await c.incr('key_2', 5);
      expect(await c.drain()).toEqual(new Map([['key_1', 2], ['key_2', 5]]));
      expect(await client.exists(`${prefix}:usage1`)).toBe(0);
      expect((await c.drain()).size).toBe(0);
    });

    test('drain with nothing pending is an empty map', async () => {
      expect(await new RedisUsageCounter(client, `${prefix}:never`).drain()).toEqual(new Map());
    });

    test('two counters on one hash: increments from both are drained once', async () => {
      const a = new RedisUsageCounter(client, `${prefix}:usage2`);
      const b = new RedisUsageCounter(client, `${prefix}:usage2`);
      await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).incr('key_1')));
      const [first, second] = await Promise.all([a.drain(), b.drain()]);
      const total = (first.get('key_1') ?? 0) + (second.get('key_1') ?? 0);
      expect(total).toBe(30);
      expect(first.size + second.size).toBe(1);
    });

    test('increments after a drain go to the next drain', async () => {
      const c = new RedisUsageCounter(client, `${prefix}:usage3`);
      await c.incr('k', 2);
      expect(await c.drain()).toEqual(new Map([['k', 2]]));
      await c.incr('k', 4);
      expect(await c.drain()).toEqual(new Map([['k', 4]]));
    });
  });
});
