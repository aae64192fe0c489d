// Fixed one-minute windows per key. In-process by default; Redis (INCR + PEXPIRE in one Lua step)
// when REDIS_URL is set, so replicas share one budget. Counters only ever change in one atomic step.
import type { RedisClientType } from 'redis';
import { redisScript, runScript } from './redis.js';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetMs: number;
}

export interface RateLimitHit {
  key: string;
  limit: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, windowMs?: number): Promise<RateLimitResult>;
  /** several counters at once (an app's budget and its key's): one round trip where the backend has them (Redis: one MULTI) */
  hitAll?(hits: readonly RateLimitHit[], windowMs?: number): Promise<RateLimitResult[]>;
  /**
   * Spend `amount` units of a budget of `limit` per window (a cost budget): kept when the window's
   * total stays within `limit`, else given back and refused (a smaller spend may still fit).
   */
  spend(key: string, limit: number, amount: number, windowMs?: number): Promise<RateLimitResult>;
}

/** Every counter of `hits` counted once, in one step when the limiter can (RateLimiter.hitAll), else one after another. */
export async function hitAll(limiter: RateLimiter, hits: readonly RateLimitHit[], windowMs?: number): Promise<RateLimitResult[]> {
  if (limiter.hitAll) return limiter.hitAll(hits, windowMs);
  const out: RateLimitResult[] = [];
  for (const h of hits) out.push(await limiter.hit(h.key, h.limit, windowMs));
  return out;
}

/** Counters that accumulate and are drained (e.g. API key usage, flushed to the database). */
export interface UsageCounter {
  incr(key: string, by?: number): Promise<void>;
  drain(): Promise<Map<string, number>>;
}

export class MemoryRateLimiter implements RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(private now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs = 60_000): Promise<RateLimitResult> {
    return this.count(key, limit, windowMs);
  }

  /** every counter in one call (one promise, not one a counter) */
  async hitAll(hits: readonly RateLimitHit[], windowMs = 60_000): Promise<RateLimitResult[]> {
    return hits.map((h) => this.count(h.key, h.limit, windowMs));
  }

  private count(key: string, limit: number, windowMs: number): RateLimitResult {
    const { w, resetMs } = this.window(key, windowMs);
    w.count++;
    return { allowed: w.count <= limit, limit, remaining: Math.max(0, limit - w.count), resetMs };
  }

  async spend(key: string, limit: number, amount: number, windowMs = 60_000): Promise<RateLimitResult> {
    const { w, resetMs } = this.window(key, windowMs);
    const allowed = w.count + amount <= limit;
    if (allowed) w.count += amount;
    return { allowed, limit, remaining: Math.max(0, limit - w.count), resetMs };
  }

  /** The key's counter in the current window (a new one when the window moved on), and the ms until it ends. */
  private window(key: string, windowMs: number): { w: { start: number; count: number }; resetMs: number } {
    const t = this.now();
    const start = t - (t % windowMs);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.sweep(start);
    }
    return { w, resetMs: start + windowMs - t };
  }

  private sweep(current: number) {
    for (const [k, w] of this.windows) if (w.start < current) this.windows.delete(k);
  }
}

/**
 * INCR + PEXPIRE of every key (KEYS), in one step: the counts, in order. ARGV[1]: the expiry (ms).
 * One EVALSHA instead of a MULTI of 2n + 2 commands: each command costs the client a promise,
 * its encoding and its reply's decoding, on every request of a key caller.
 */
const HIT = redisScript(`local out = {}
for i, k in ipairs(KEYS) do
  out[i] = redis.call('INCR', k)
  redis.call('PEXPIRE', k, ARGV[1])
end
return out`);

/**
 * Spend ARGV[1] units of KEYS[1] with a limit of ARGV[3]: INCRBY + PEXPIRE (ARGV[2] ms), and over
 * the limit the units given back in the same step. Returns { 1 kept | 0 refused, the total }.
 */
const SPEND = redisScript(`local c = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if c > tonumber(ARGV[3]) then
  return { 0, redis.call('DECRBY', KEYS[1], ARGV[1]) }
end
return { 1, c }`);

export class RedisRateLimiter implements RateLimiter {
  /** `prefix`: REDIS_KEY_PREFIX, so deployments sharing one Redis keep separate budgets */
  constructor(private client: RedisClientType, private now: () => number = Date.now, private prefix = '') {}

  async hit(key: string, limit: number, windowMs = 60_000): Promise<RateLimitResult> {
    const [r] = await this.hitAll([{ key, limit }], windowMs);
    return r!;
  }

  async hitAll(hits: readonly RateLimitHit[], windowMs = 60_000): Promise<RateLimitResult[]> {
    const t = this.now();
    const start = t - (t % windowMs);
    const keys = hits.map((h) => `${this.prefix}rl:${h.key}:${start}`);
    const counts = (await runScript(this.client, HIT, { keys, arguments: [String(windowMs + 1000)] })) as number[];
    return hits.map((h, i) => {
      const count = counts[i]!;
      return { allowed: count <= h.limit, limit: h.limit, remaining: Math.max(0, h.limit - count), resetMs: start + windowMs - t };
    });
  }

  async spend(key: string, limit: number, amount: number, windowMs = 60_000): Promise<RateLimitResult> {
    const t = this.now();
    const start = t - (t % windowMs);
    const k = `${this.prefix}rl:${key}:${start}`;
    // over the limit the amount is given back in the same step: a concurrent spend sees the total without it
    const [kept, count] = (await runScript(this.client, SPEND, { keys: [k], arguments: [String(amount), String(windowMs + 1000), String(limit)] })) as [number, number];
    return { allowed: kept === 1, limit, remaining: Math.max(0, limit - count), resetMs: start + windowMs - t };
  }
}

export class MemoryUsageCounter implements UsageCounter {
  private counts = new Map<string, number>();
  async incr(key: string, by = 1) {
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
  }
  async drain() {
    const out = this.counts;
    this.counts = new Map();
    return out;
  }
}

/** Redis hash of pending increments; drain takes and deletes it atomically (RENAME then read). */
export class RedisUsageCounter implements UsageCounter {
  constructor(private client: RedisClientType, private hashKey = 'usage:pending') {}
  async incr(key: string, by = 1) {
    await this.client.hIncrBy(this.hashKey, key, by);
  }
  async drain() {
    const tmp = `${this.hashKey}:draining:${process.pid}:${Date.now()}`;
    try {
      await this.client.rename(this.hashKey, tmp);
    } catch {
      return new Map<string, number>(); // nothing pending
    }
    const all = await this.client.hGetAll(tmp);
    await this.client.del(tmp);
    return new Map(Object.entries(all).map(([k, v]) => [k, Number(v)]));
  }
}
