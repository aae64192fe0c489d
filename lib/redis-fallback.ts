// Redis lost, requests still served in their normal time (docs/operations.md, "Faults"): the
// counters that live in Redis fall back to this process's memory while Redis is unreachable, so no
// request waits on a dead connection. A Redis call is tried only while the client is connected,
// and is abandoned after REDIS_CALL_TIMEOUT_MS. The outage is logged once when it starts and once
// when Redis answers again, never per request.
//  - rate limits: counted per process during the outage (each replica allows the full limit);
//  - usage counts: kept in memory and drained with the Redis ones, so none is lost;
//  - pub/sub: see lib/pubsub.ts (publishes during the outage are dropped, logged once).
import type { RedisClientType } from 'redis';
import type { Logger } from './logger.js';
import { hitAll, MemoryRateLimiter, MemoryUsageCounter, RedisRateLimiter, RedisUsageCounter, type RateLimiter, type RateLimitHit, type RateLimitResult, type UsageCounter } from './rate-limit.js';
import { closeRedis, connectRedis, redisConfigured, type RedisSettings } from './redis.js';

/** How a counter of this process counts now: shared in Redis, in this process because Redis is unreachable, or in this process by configuration. */
export type CountingMode = 'redis' | 'in-process: redis unreachable' | 'in-process';

const counters = new Map<string, () => CountingMode>();

/** Every counter (rate limits, usage counts) of this process and how it counts now: shown in /health/detailed. */
export function countingModes(): Record<string, CountingMode> {
  return Object.fromEntries([...counters].map(([what, mode]) => [what, mode()]));
}

/** `status` of a health component for the counters: degraded while one falls back to the process's memory. */
export function countersComponent(): { status: 'ok' | 'degraded'; counters: Record<string, CountingMode> } | undefined {
  const modes = countingModes();
  if (!Object.keys(modes).length) return undefined;
  return { status: Object.values(modes).includes('in-process: redis unreachable') ? 'degraded' : 'ok', counters: modes };
}

/**
 * The rate limiter of one mechanism (`what`: "search limits", "AI limits"…): shared by replicas in
 * Redis when `redis` is given, counting in memory while Redis is unreachable; in memory without it.
 */
export function sharedRateLimiter(redis: RedisClientType | undefined, prefix: string, log: Logger, what: string): RateLimiter {
  if (!redis) {
    counters.set(what, () => 'in-process');
    return new MemoryRateLimiter();
  }
  const health = new RedisHealth(redis, log, what);
  return new FallbackRateLimiter(new RedisRateLimiter(health.bounded, Date.now, prefix), health);
}

/** Usage counts kept in Redis under `key`, in memory while Redis is unreachable (drained with the Redis ones). */
export function sharedUsageCounter(redis: RedisClientType, key: string, log: Logger): UsageCounter {
  const health = new RedisHealth(redis, log, 'usage counts');
  return new FallbackUsageCounter(new RedisUsageCounter(health.bounded, key), health);
}

/**
 * A process's own limiter when it does not get one from lib/infra (a subgraph's runtime): see
 * sharedRateLimiter. close() ends its Redis connection.
 */
export async function openRateLimiter(cfg: RedisSettings & { redisKeyPrefix: string }, log: Logger, what: string): Promise<{ limiter: RateLimiter; close(): Promise<void> }> {
  const redis = redisConfigured(cfg) ? await connectRedis(cfg, log) : undefined;
  return { limiter: sharedRateLimiter(redis, cfg.redisKeyPrefix, log, what), close: () => closeRedis(redis) };
}

export const REDIS_CALL_TIMEOUT_MS = 1000;

/** The part of a Redis client the health needs: whether it is connected, and (optionally) its reconnect event. */
type HealthClient = Pick<RedisClientType, 'isReady'> & { on?(event: 'ready', listener: () => void): unknown };

/**
 * Whether Redis is usable now, with the outage logged once per transition; `bounded` is the client to
 * make the calls that attempt() bounds with (one mechanism, one health, one client).
 */
export class RedisHealth<C extends HealthClient = HealthClient> {
  private down = false;
  /** the deadlines of this mechanism's pending calls (attempt), one sweeping timer for all of them */
  private readonly deadlines = new Deadlines();
  /** the client without node-redis's own per-command timeout: attempt() bounds every call made with it */
  readonly bounded: C;
  constructor(
    private client: C,
    private log: Logger,
    private what: string,
  ) {
    this.bounded = boundByAttempt(client);
    counters.set(what, () => (this.down || !this.client.isReady ? 'in-process: redis unreachable' : 'redis'));
    // a reconnect ends the outage even when no call of this mechanism comes to say so (a publisher
    // with nothing to publish would otherwise keep readiness degraded)
    client.on?.('ready', () => this.succeeded());
  }

  get ready(): boolean {
    return this.client.isReady;
  }

  failed(e?: unknown): void {
    if (this.down) return;
    this.down = true;
    this.log.warn(`redis unavailable: ${this.what} degrade until it returns`, { err: e });
  }

  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.log.info(`redis reachable again: ${this.what} back to normal`);
  }

  /** `call()` when Redis is ready, bounded by REDIS_CALL_TIMEOUT_MS; undefined (and the outage noted) otherwise. */
  async attempt<T>(call: () => Promise<T>, timeoutMs = REDIS_CALL_TIMEOUT_MS): Promise<{ value: T } | undefined> {
    if (!this.ready) {
      this.failed(new Error('not connected'));
      return undefined;
    }
    try {
      const value = await this.deadlines.bound(call(), timeoutMs);
      this.succeeded();
      return { value };
    } catch (e) {
      this.failed(e);
      return undefined;
    }
  }
}

/**
 * The calls one RedisHealth.attempt() bounds, each with the time it is abandoned at, swept by one timer (every
 * SWEEP_MS while any is pending) instead of a timer set and cleared per call: the rate limits, usage
 * counts and cache epochs of every request go through here. A call is abandoned between its
 * deadline and SWEEP_MS after it.
 */
const SWEEP_MS = 50;
class Deadlines {
  private readonly pending = new Set<{ at: number; ms: number; reject(e: Error): void }>();
  private timer: NodeJS.Timeout | undefined;

  bound<T>(p: Promise<T>, ms: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const d = { at: Date.now() + ms, ms, reject };
      this.pending.add(d);
      this.timer ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
      p.then(
        (v) => {
          this.pending.delete(d);
          resolve(v);
        },
        (e: unknown) => {
          this.pending.delete(d);
          reject(e);
        },
      );
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const d of this.pending) {
      if (d.at > now) continue;
      this.pending.delete(d);
      d.reject(new Error(`no answer within ${d.ms} ms`));
    }
    if (this.pending.size) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * `redis` for calls that attempt() bounds: without node-redis's own per-command timeout (5 s by
 * default, an AbortSignal.timeout per command that cannot be cancelled, so each one lives 5 s and
 * then fires), which attempt's shorter bound makes redundant. MULTI/EXEC never had one.
 */
function boundByAttempt<C extends HealthClient>(redis: C): C {
  // a client without the method (a test double, a Sentinel client of another shape) is used as given
  const r = redis as C & Partial<Pick<RedisClientType, 'withCommandOptions'>>;
  return typeof r.withCommandOptions === 'function' ? (r.withCommandOptions({ timeout: 0 }) as unknown as C) : redis;
}

export class FallbackRateLimiter implements RateLimiter {
  private memory = new MemoryRateLimiter();
  constructor(
    private primary: RateLimiter,
    private health: RedisHealth,
  ) {}

  async hit(key: string, limit: number, windowMs?: number): Promise<RateLimitResult> {
    const r = await this.health.attempt(() => this.primary.hit(key, limit, windowMs));
    return r ? r.value : this.memory.hit(key, limit, windowMs);
  }

  async hitAll(hits: readonly RateLimitHit[], windowMs?: number): Promise<RateLimitResult[]> {
    const r = await this.health.attempt(() => hitAll(this.primary, hits, windowMs));
    return r ? r.value : hitAll(this.memory, hits, windowMs);
  }

  async spend(key: string, limit: number, amount: number, windowMs?: number): Promise<RateLimitResult> {
    const r = await this.health.attempt(() => this.primary.spend(key, limit, amount, windowMs));
    return r ? r.value : this.memory.spend(key, limit, amount, windowMs);
  }
}

export class FallbackUsageCounter implements UsageCounter {
  private memory = new MemoryUsageCounter();
  constructor(
    private primary: UsageCounter,
    private health: RedisHealth,
  ) {}

  async incr(key: string, by = 1): Promise<void> {
    const r = await this.health.attempt(() => this.primary.incr(key, by));
    if (!r) await this.memory.incr(key, by);
  }

  async drain(): Promise<Map<string, number>> {
    const out = await this.memory.drain();
    // a drain is several commands (RENAME, HGETALL, DEL): given time to finish once started
    const r = await this.health.attempt(() => this.primary.drain(), 10_000);
    for (const [k, n] of r?.value ?? []) out.set(k, (out.get(k) ?? 0) + n);
    return out;
  }
}
