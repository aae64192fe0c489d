// lib/redis-fallback.ts and gateway/unavailable.ts: Redis lost never makes a request wait, and an
// unreachable subgraph is a 503 SERVICE_UNAVAILABLE with a retry hint, not INTERNAL.
import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { createLogger } from '../../lib/logger.js';
import { countersComponent, countingModes, FallbackRateLimiter, FallbackUsageCounter, RedisHealth, REDIS_CALL_TIMEOUT_MS, sharedRateLimiter } from '../../lib/redis-fallback.js';
import type { RateLimiter, UsageCounter } from '../../lib/rate-limit.js';
import { subgraphUnavailable } from '../../gateway/unavailable.js';

const log = createLogger({ proc: 'test' }, 'error');
const never = () => new Promise<never>(() => undefined);

describe('Redis lost', () => {
  test('a disconnected client is not called: the limit is counted in memory at once', async () => {
    const primary: RateLimiter = { hit: jest.fn(never) as never, spend: jest.fn(never) as never };
    const limiter = new FallbackRateLimiter(primary, new RedisHealth({ isReady: false }, log, 'rate limits'));
    const t = performance.now();
    const r = await limiter.hit('k', 2);
    await limiter.hit('k', 2);
    expect(performance.now() - t).toBeLessThan(50);
    expect(primary.hit).not.toHaveBeenCalled();
    expect(r).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect((await limiter.hit('k', 2)).allowed).toBe(false);
  });

  test('a connected client that does not answer is abandoned after the call timeout', async () => {
    const limiter = new FallbackRateLimiter({ hit: never, spend: never }, new RedisHealth({ isReady: true }, log, 'rate limits'));
    const t = performance.now();
    expect((await limiter.hit('k', 5)).allowed).toBe(true);
    expect(performance.now() - t).toBeLessThan(REDIS_CALL_TIMEOUT_MS + 500);
  });

  test('usage counted during the outage is drained with the Redis counts afterwards', async () => {
    const client = { isReady: false };
    const redisCounts = new Map([['key_a', 3]]);
    const primary: UsageCounter = { incr: jest.fn(never) as never, drain: async () => new Map(redisCounts) };
    const usage = new FallbackUsageCounter(primary, new RedisHealth(client, log, 'usage counts'));
    await usage.incr('key_a');
    await usage.incr('key_b', 2);
    client.isReady = true;
    expect(Object.fromEntries(await usage.drain())).toEqual({ key_a: 4, key_b: 2 });
  });

  test('the outage is logged once, and its end once', async () => {
    const warn = jest.fn();
    const info = jest.fn();
    const client = { isReady: false };
    const health = new RedisHealth(client, { ...log, warn, info } as never, 'rate limits');
    for (let i = 0; i < 5; i++) await health.attempt(async () => 1);
    client.isReady = true;
    for (let i = 0; i < 5; i++) await health.attempt(async () => 1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledTimes(1);
  });

  test('a reconnect ends the outage without waiting for a call of that mechanism (a publisher with nothing to publish)', async () => {
    const client = Object.assign(new EventEmitter(), { isReady: false });
    const health = new RedisHealth(client, log, 'published events (test)');
    await health.attempt(async () => 1);
    expect(countingModes()['published events (test)']).toBe('in-process: redis unreachable');
    client.isReady = true;
    expect(countingModes()['published events (test)']).toBe('in-process: redis unreachable');
    client.emit('ready');
    expect(countingModes()['published events (test)']).toBe('redis');
  });
});

describe('unreachable subgraph', () => {
  test('connection refused, reset, timeouts and 5xx answers become SERVICE_UNAVAILABLE with a retry hint', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4004'), { code: 'ECONNREFUSED' });
    for (const err of [refused, { originalError: refused }, new Error('request to 127.0.0.1:4004 timed out after 30000 ms'), { extensions: { response: { status: 502 } } }]) {
      expect(subgraphUnavailable({ message: 'x', path: ['searchIndexes'] }, err)).toEqual({
        message: expect.stringMatching(/temporarily unavailable/),
        path: ['searchIndexes'],
        extensions: { code: 'SERVICE_UNAVAILABLE', status: 503, meta: { retryAfterMs: 1000 } },
      });
    }
  });

  test('other errors are left to the shared formatter', () => {
    expect(subgraphUnavailable({ message: 'x' }, new Error('boom'))).toBeUndefined();
    expect(subgraphUnavailable({ message: 'x' }, { extensions: { response: { status: 404 } } })).toBeUndefined();
  });
});

describe('every limiter says how it counts (/health/detailed)', () => {
  test('search, AI, data-transfer and endpoint limiters fall back to memory while Redis is unreachable, and say so', async () => {
    const client = { isReady: true };
    const limiter = sharedRateLimiter(client as never, '', log, 'search limits (test)');
    expect(countingModes()['search limits (test)']).toBe('redis');
    client.isReady = false;
    const t = performance.now();
    expect((await limiter.hit('s', 1)).allowed).toBe(true);
    expect((await limiter.hit('s', 1)).allowed).toBe(false);
    expect(performance.now() - t).toBeLessThan(50);
    expect(countingModes()['search limits (test)']).toBe('in-process: redis unreachable');
    expect(countersComponent()).toMatchObject({ status: 'degraded', counters: { 'search limits (test)': 'in-process: redis unreachable' } });
  });

  test('without REDIS_URL a limiter counts in process by configuration, which is not a degradation', () => {
    sharedRateLimiter(undefined, '', log, 'AI limits (test)');
    expect(countingModes()['AI limits (test)']).toBe('in-process');
  });
});
