// The one way a process reaches Redis (rate limits, usage counts, pub/sub and the key-revocation
// channel, the report cache, search's and AI's limiters): REDIS_URL names one server, or
// REDIS_SENTINELS + REDIS_SENTINEL_NAME a primary that Redis Sentinel watches (docs/deploy.md,
// "Redis Sentinel"). Through Sentinel, node-redis's sentinel client asks the sentinels for the
// primary, and after a failover finds the new one and sends the commands (and re-subscribes) there.
import { createHash } from 'node:crypto';
import { createClient, createSentinel, type RedisClientType } from 'redis';
import { ConfigError, type Config } from './config.js';
import type { Logger } from './logger.js';

/** The Redis of a deployment: one server (`redisUrl`), or a primary found through Sentinel. */
export type RedisSettings = Pick<Config, 'redisUrl' | 'redisSentinel'>;

/** Whether the process shares state through Redis (REDIS_URL or REDIS_SENTINELS set). */
export function redisConfigured(cfg: RedisSettings): boolean {
  return Boolean(cfg.redisSentinel || cfg.redisUrl);
}

/** The variable that names this process's Redis, for messages. */
export function redisVariable(cfg: RedisSettings): string {
  return cfg.redisSentinel ? 'REDIS_SENTINELS' : 'REDIS_URL';
}

const reconnectStrategy = (n: number) => Math.min(n * 200, 2000);

/**
 * A client not yet connected. Through Sentinel it is node-redis's sentinel client, typed as the
 * plain client: every command, `multi`, `subscribe`, `isReady`, the `ready`/`error` events and
 * `close` that this project uses have the same form on both (test/integration/redis.sentinel.test.ts).
 */
export function newRedisClient(cfg: RedisSettings): RedisClientType {
  const s = cfg.redisSentinel;
  if (s) {
    return createSentinel({
      name: s.name,
      sentinelRootNodes: s.nodes,
      nodeClientOptions: { password: s.password, socket: { connectTimeout: 5000, reconnectStrategy } },
      sentinelClientOptions: { password: s.sentinelPassword, socket: { connectTimeout: 5000, reconnectStrategy } },
      // a command sent during a failover waits for the new primary instead of failing at once
      maxCommandRediscovers: 32,
      masterPoolSize: 1,
    }) as unknown as RedisClientType;
  }
  if (!cfg.redisUrl) throw new ConfigError('REDIS_URL', 'is not set');
  return createClient({ url: cfg.redisUrl, socket: { connectTimeout: 5000, reconnectStrategy } }) as RedisClientType;
}

/** Connect `client` (from newRedisClient) or stop start-up with one line naming the variable. */
export async function connectClient(client: RedisClientType, cfg: RedisSettings): Promise<RedisClientType> {
  // through Sentinel two hops: a sentinel names the primary, then the primary's connection
  const boundMs = cfg.redisSentinel ? 15_000 : 5000;
  let firstError: Error | undefined;
  client.on('error', (e) => {
    firstError ??= e;
  });
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, rej) => setTimeout(() => rej(firstError ?? new Error('timed out')), boundMs)),
    ]);
    await client.ping();
  } catch (e) {
    await Promise.resolve(client.destroy()).catch(() => undefined);
    throw new ConfigError(redisVariable(cfg), `cannot connect to Redis: ${(e as Error).message}`);
  }
  return client;
}

/** Connect to the configured Redis or stop start-up with one line naming the variable. */
export async function connectRedis(cfg: RedisSettings, log: Logger): Promise<RedisClientType> {
  const client = newRedisClient(cfg);
  logErrorsOnce(client, log);
  return connectClient(client, cfg);
}

/** End a client's connection(s) after its commands in flight; never throws. */
export async function closeRedis(client: RedisClientType | undefined): Promise<void> {
  await client?.close().catch(() => undefined);
}

/**
 * Log a client's errors once per outage: node-redis emits one per reconnect attempt (every ~2 s
 * while Redis is down); the first is logged, the rest are not until the client is ready again.
 */
export function logErrorsOnce(client: RedisClientType, log: Logger): void {
  let quiet = false;
  client.on('error', (e) => {
    if (quiet) return;
    quiet = true;
    log.error('redis error (further errors are not logged until it reconnects)', { err: e });
  });
  client.on('ready', () => {
    if (quiet) log.info('redis connection ready again');
    quiet = false;
  });
}

/** A Lua script run by its SHA-1 (the text is not sent per call): `redisScript` once, `runScript` per call. */
export interface RedisScript {
  text: string;
  sha: string;
}

export function redisScript(text: string): RedisScript {
  return { text, sha: createHash('sha1').update(text).digest('hex') };
}

/** EVALSHA; a Redis that has not seen the script yet (restarted, flushed) answers NOSCRIPT once, and EVAL loads it. */
export function runScript(client: RedisClientType, script: RedisScript, opts: { keys: string[]; arguments: string[] }): Promise<unknown> {
  return client.evalSha(script.sha, opts).catch((e: Error) => (/^NOSCRIPT/.test(e.message) ? client.eval(script.text, opts) : Promise.reject(e)));
}
