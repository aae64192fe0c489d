import { createClient, type RedisClientType } from 'redis';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';

/** Connect to REDIS_URL or stop start-up with one line naming the variable. */
export async function connectRedis(url: string, log: Logger): Promise<RedisClientType> {
  const client = createClient({ url, socket: { connectTimeout: 5000, reconnectStrategy: (n) => Math.min(n * 200, 2000) } }) as RedisClientType;
  let firstError: Error | undefined;
  client.on('error', (e) => {
    firstError ??= e;
  });
  logErrorsOnce(client, log);
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, rej) => setTimeout(() => rej(firstError ?? new Error('timed out')), 5000)),
    ]);
    await client.ping();
  } catch (e) {
    await client.disconnect().catch(() => undefined);
    throw new ConfigError('REDIS_URL', `cannot connect to Redis: ${(e as Error).message}`);
  }
  return client;
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
