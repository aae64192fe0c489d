// lib/pubsub.ts over Redis: two createRedisPubSub instances, each with its own connections as two
// processes would have. A message published on one reaches a subscriber on the other; other
// topics do not leak. Skipped with a message when no Redis answers at REDIS_URL.
import { createClient, type RedisClientType } from 'redis';
import type { Logger } from '../../lib/logger.js';
import { createRedisPubSub, type PubSub } from '../../lib/pubsub.js';
import { REDIS_URL, describeWithRedis, uniquePrefix } from './redis.helpers.js';

const describeRedis = await describeWithRedis('redis.pubsub.test.ts');

/** A Logger that keeps error lines, so a test can assert nothing went wrong. */
function errorLogger(errors: string[]): Logger {
  const noop = () => undefined;
  const log: Logger = { debug: noop, info: noop, warn: noop, error: (msg) => void errors.push(msg), child: () => log };
  return log;
}

/** Next value of an iterator, or 'timeout' after `ms`. */
async function nextOrTimeout(it: AsyncIterator<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([it.next().then((r) => r.value), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describeRedis('Redis pub/sub across two instances', () => {
  const errors: string[] = [];
  let publisher: PubSub;
  let subscriber: PubSub;
  let admin: RedisClientType;
  const prefix = uniquePrefix('pubsub');

  /** Wait until `n` Redis connections are subscribed to the channel (SUBSCRIBE is asynchronous). */
  async function subscribed(channel: string, n = 1): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const counts = (await admin.pubSubNumSub(channel)) as Record<string, number>;
      if ((counts[channel] ?? 0) >= n) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no subscriber on ${channel} after 2s`);
  }

  beforeAll(async () => {
    publisher = await createRedisPubSub({ redisUrl: REDIS_URL }, errorLogger(errors));
    subscriber = await createRedisPubSub({ redisUrl: REDIS_URL }, errorLogger(errors));
    admin = createClient({ url: REDIS_URL }) as RedisClientType;
    admin.on('error', () => undefined);
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all([publisher?.close(), subscriber?.close(), admin?.close()]);
  });

  test('kind is redis', () => {
    expect(publisher.kind).toBe('redis');
  });

  test('a message published on one instance reaches a subscriber on the other', async () => {
    const topic = `${prefix}:inventory.low_stock:app_1:live`;
    const it = subscriber.subscribe(topic);
    const first = nextOrTimeout(it, 3000);
    await subscribed(topic);
    const payload = { productId: 'prod_1', sku: 'A-1', available: 2, threshold: 5, at: '2025-01-15T12:00:00.000Z' };
    await publisher.publish(topic, payload);
    expect(await first).toEqual(payload);
    await it.return?.();
    expect(errors).toEqual([]);
  });

  test('other topics do not leak to a subscriber', async () => {
    const mine = `${prefix}:leak:inventory.low_stock:app_1:live`;
    const it = subscriber.subscribe(mine);
    const pending = nextOrTimeout(it, 3000);
    await subscribed(mine);
    await publisher.publish(`${prefix}:leak:inventory.low_stock:app_2:live`, { leak: 'other app' });
    await publisher.publish(`${prefix}:leak:inventory.low_stock:app_1:test`, { leak: 'other environment' });
    await publisher.publish(`${prefix}:leak:inventory.low_stock:app_1:*`, { leak: 'glob-looking topic' });
    await publisher.publish(`${prefix}:leak:inventory.low_stock:app_1`, { leak: 'prefix of the topic' });
    await publisher.publish(mine, { mine: 1 });
    // Redis keeps order on one connection: had any other topic been delivered, it would come first.
    expect(await pending).toEqual({ mine: 1 });
    expect(await nextOrTimeout(it, 200)).toBe('timeout');
    await it.return?.();
  });

  test('several subscribers on the same topic each receive every message, in order', async () => {
    const topic = `${prefix}:fanout`;
    const a = subscriber.subscribe(topic);
    const b = subscriber.subscribe(topic);
    const aFirst = nextOrTimeout(a, 3000);
    const bFirst = nextOrTimeout(b, 3000);
    await subscribed(topic);
    await publisher.publish(topic, { n: 1 });
    await publisher.publish(topic, { n: 2 });
    expect(await aFirst).toEqual({ n: 1 });
    expect(await bFirst).toEqual({ n: 1 });
    expect(await nextOrTimeout(a, 3000)).toEqual({ n: 2 });
    expect(await nextOrTimeout(b, 3000)).toEqual({ n: 2 });
    await a.return?.();
    await b.return?.();
  });

  test('a subscriber on the publishing instance receives too', async () => {
    const topic = `${prefix}:self`;
    const it = publisher.subscribe(topic);
    const first = nextOrTimeout(it, 3000);
    await subscribed(topic);
    await publisher.publish(topic, ['a', 1, null]);
    expect(await first).toEqual(['a', 1, null]);
    await it.return?.();
  });

  test('the last subscriber leaving unsubscribes the Redis channel', async () => {
    const topic = `${prefix}:leave`;
    const it = subscriber.subscribe(topic);
    const first = nextOrTimeout(it, 3000);
    await subscribed(topic);
    await publisher.publish(topic, 'hello');
    expect(await first).toBe('hello');
    await it.return?.();
    let count = 1;
    for (let i = 0; i < 100 && count > 0; i++) {
      count = ((await admin.pubSubNumSub(topic)) as Record<string, number>)[topic] ?? 0;
      if (count > 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(count).toBe(0);
  });

  // BUG (lib/pubsub.ts RedisEventTarget.removeEventListener): `this.sub.unsubscribe(type)` is called without the
  // listener, so node-redis does not mark the channel as unsubscribing; a subscribe arriving before the UNSUBSCRIBE
  // reply only adds a listener to the existing entry (no SUBSCRIBE is sent), and the reply then deletes the entry.
  // The topic stays silent on that process until all its subscribers leave again (e.g. a client reconnecting).
  test('subscribing again right after the last subscriber left still receives messages', async () => {
    const topic = `${prefix}:resubscribe`;
    const first = subscriber.subscribe(topic);
    const firstValue = nextOrTimeout(first, 3000);
    await subscribed(topic);
    await publisher.publish(topic, 1);
    expect(await firstValue).toBe(1);
    await first.return?.();
    const again = subscriber.subscribe(topic);
    const againValue = nextOrTimeout(again, 2000);
    await new Promise((r) => setTimeout(r, 100)); // let UNSUBSCRIBE and SUBSCRIBE settle
    await publisher.publish(topic, 2);
    expect(await againValue).toBe(2);
    await again.return?.();
  });
});
