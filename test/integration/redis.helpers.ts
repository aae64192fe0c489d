// Shared by the redis.*.test.ts files: the Redis URL to use and whether anything answers there.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** true when a Redis server answers PING at REDIS_URL within `ms`. */
export async function redisAvailable(ms = 1500): Promise<boolean> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: ms, reconnectStrategy: false } });
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), ms))),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}

/** describe, or describe.skip with a message saying why, depending on Redis being reachable. */
export async function describeWithRedis(file: string): Promise<jest.Describe> {
  if (await redisAvailable()) return describe;
  console.warn(`${file}: skipped, no Redis answers at ${REDIS_URL} (set REDIS_URL or start redis-server)`);
  return describe.skip;
}

/** A key prefix no other test run uses. */
export function uniquePrefix(name: string): string {
  return `test:${name}:${process.pid}:${Date.now()}:${randomUUID().slice(0, 8)}`;
}
