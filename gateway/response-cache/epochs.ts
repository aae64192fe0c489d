// The write epoch of an app (and a global one for callers without an app): a counter every gateway reads before it fills
// or serves a cached answer, and the gateway that forwards a mutation increments before it answers.
// In Redis (REDIS_URL) it is one counter shared by every gateway; in process otherwise (one gateway).
//
// Why this makes a write acknowledged through one gateway never followed by a stale read through
// another (docs/response-cache.md has the argument in full): the increment completes (Redis has
// applied it) before the mutation's answer is sent, so any read that starts after the answer reads
// the new epoch; an answer filled from data read before the write's commit recorded an epoch read
// before the increment (it read the epoch before executing), so it no longer matches and is not served.
import type { RedisClientType } from 'redis';
import type { Logger } from '../../lib/logger.js';
import { RedisHealth } from '../../lib/redis-fallback.js';

export interface Epochs {
  /** the epochs of `scopes` now, as one string to compare; undefined when they cannot be known (Redis unreachable): then nothing is served from or stored in the cache */
  read(scopes: readonly string[]): Promise<string | undefined>;
  /** increment it; false when that failed (logged) */
  bump(scope: string): Promise<boolean>;
  readonly kind: 'memory' | 'redis';
}

export class MemoryEpochs implements Epochs {
  readonly kind = 'memory';
  private readonly epochs = new Map<string, number>();
  async read(scopes: readonly string[]): Promise<string> {
    return scopes.map((s) => this.epochs.get(s) ?? 0).join('.');
  }
  async bump(scope: string): Promise<boolean> {
    this.epochs.set(scope, (this.epochs.get(scope) ?? 0) + 1);
    return true;
  }
}

/** Epoch keys live as long as a cached answer could (a day past the longest maxAge is plenty): an expired key reads as 0, which every entry filled under a higher epoch fails. */
const EPOCH_TTL_SECONDS = 7 * 24 * 3600;

export class RedisEpochs implements Epochs {
  readonly kind = 'redis';
  private readonly health: RedisHealth<RedisClientType>;
  private readonly redis: RedisClientType;
  constructor(redis: RedisClientType, private readonly prefix: string, log: Logger) {
    this.health = new RedisHealth(redis, log, 'response cache (bypassed)');
    this.redis = this.health.bounded;
  }

  private key(scope: string): string {
    return `${this.prefix}rcache:epoch:${scope}`;
  }

  async read(scopes: readonly string[]): Promise<string | undefined> {
    const r = await this.health.attempt(() => this.redis.mGet(scopes.map((s) => this.key(s))));
    if (!r) return undefined;
    return r.value.map((v) => v ?? '0').join('.');
  }

  async bump(scope: string): Promise<boolean> {
    const key = this.key(scope);
    const r = await this.health.attempt(() => this.redis.multi().incr(key).expire(key, EPOCH_TTL_SECONDS).exec());
    return !!r;
  }
}
