import { createClient, type RedisClientType } from 'redis';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';

/** Connect to REDIS_URL or stop start-up with one line naming the variable. */
export async function connectRedis(url: string, log: Logger): Promise<RedisClientType> {
  const client = createClient({ url, socket: { connectTimeout: 5000, reconnectStrategy: (n) => Math.min(n * 200, 2000) } }) as RedisClientType;
  let firstError: Error | undefined;
  client.on('error', (e) => {
    firstError ??= e;
    log.error('redis error', { err: e });
  });
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
