// The infrastructure one process needs, chosen once from the config: Redis-backed when REDIS_URL
// (or REDIS_SENTINELS) is set, in-process otherwise. Plain constructors, no container.
import type { RedisClientType } from 'redis';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { contractStreams } from './event-stream.js';
import { createMemoryPubSub, createRedisPubSub, type PubSub } from './pubsub.js';
import { MemoryUsageCounter, type RateLimiter, type UsageCounter } from './rate-limit.js';
import { closeRedis, connectRedis, redisConfigured } from './redis.js';
import { sharedRateLimiter, sharedUsageCounter } from './redis-fallback.js';

export interface Infra {
  pubsub: PubSub;
  rateLimiter: RateLimiter;
  usage: UsageCounter;
  redis?: RedisClientType;
  close(): Promise<void>;
}

export async function createInfra(cfg: Config, log: Logger, shared?: Partial<Infra>): Promise<Infra> {
  if (redisConfigured(cfg)) {
    const redis = await connectRedis(cfg, log);
    const pubsub = await createRedisPubSub(cfg, log, cfg.redisKeyPrefix, contractStreams(cfg.subscriptionRetention));
    return {
      pubsub,
      // without Redis, counted in memory until it returns (lib/redis-fallback.ts)
      rateLimiter: sharedRateLimiter(redis, cfg.redisKeyPrefix, log, 'rate limits'),
      usage: sharedUsageCounter(redis, `${cfg.redisKeyPrefix}usage:pending`, log),
      redis,
      async close() {
        await pubsub.close();
        await closeRedis(redis);
      },
    };
  }
  const pubsub = shared?.pubsub ?? createMemoryPubSub(contractStreams(cfg.subscriptionRetention));
  return {
    pubsub,
    rateLimiter: shared?.rateLimiter ?? sharedRateLimiter(undefined, '', log, 'rate limits'),
    usage: shared?.usage ?? new MemoryUsageCounter(),
    async close() {
      await pubsub.close();
    },
  };
}
