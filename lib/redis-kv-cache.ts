// A string key-value cache in Redis with the shape Apollo Server's caches take (KeyValueCache:
// get, set with a TTL in seconds, delete). Redis lost or failing is a miss, never a wait or an
// error: what is cached here can always be recomputed (or, for persisted queries, sent again).
import type { RedisClientType } from 'redis';

export interface StringCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, options?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

export class RedisStringCache implements StringCache {
  /** `prefix`: REDIS_KEY_PREFIX plus the cache's own name; `defaultTtlSec`: for entries set without a TTL */
  constructor(private redis: RedisClientType, private prefix: string, private defaultTtlSec: number) {}

  async get(key: string): Promise<string | undefined> {
    if (!this.redis.isReady) return undefined;
    try {
      return (await this.redis.get(this.prefix + key)) ?? undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: string, options?: { ttl?: number | null }): Promise<void> {
    if (!this.redis.isReady) return;
    const ttl = options?.ttl ?? this.defaultTtlSec;
    await this.redis.set(this.prefix + key, value, { EX: Math.max(1, Math.ceil(ttl)) }).catch(() => undefined);
  }

  async delete(key: string): Promise<boolean> {
    if (!this.redis.isReady) return false;
    return (await this.redis.del(this.prefix + key).catch(() => 0)) > 0;
  }
}
