// lib/pubsub.ts, in-process: a message reaches the subscribers of its topic and nobody else.
import { createMemoryPubSub } from '../../lib/pubsub.js';

/** Whether `p` settles within `ms` (without abandoning it: the caller still awaits it). */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('createMemoryPubSub', () => {
  test('kind is memory', async () => {
    const ps = createMemoryPubSub();
    expect(ps.kind).toBe('memory');
    await ps.close();
  });

  test('delivers to every subscriber of the topic, in order', async () => {
    const ps = createMemoryPubSub();
    const a = ps.subscribe('inventory.low_stock:app_1:live');
    const b = ps.subscribe('inventory.low_stock:app_1:live');
    const firstA = a.next();
    const firstB = b.next();
    await ps.publish('inventory.low_stock:app_1:live', { productId: 'prod_1', available: 2 });
    await ps.publish('inventory.low_stock:app_1:live', { productId: 'prod_2', available: 0 });
    expect((await firstA).value).toEqual({ productId: 'prod_1', available: 2 });
    expect((await firstB).value).toEqual({ productId: 'prod_1', available: 2 });
    expect((await a.next()).value).toEqual({ productId: 'prod_2', available: 0 });
    expect((await b.next()).value).toEqual({ productId: 'prod_2', available: 0 });
    await a.return?.();
    await b.return?.();
  });

  test('does not deliver other topics (another tenant, another environment)', async () => {
    const ps = createMemoryPubSub();
    const mine = ps.subscribe('inventory.low_stock:app_1:live');
    const pending = mine.next();
    await ps.publish('inventory.low_stock:app_2:live', { leak: 'other app' });
    await ps.publish('inventory.low_stock:app_1:test', { leak: 'other environment' });
    await ps.publish('inventory.low_stock:app_1', { leak: 'prefix' });
    expect(await settledWithin(pending, 50)).toBe(false);
    await ps.publish('inventory.low_stock:app_1:live', { mine: true });
    expect((await pending).value).toEqual({ mine: true });
    await mine.return?.();
  });

  test('a returned iterator is done and receives nothing more', async () => {
    const ps = createMemoryPubSub();
    const it = ps.subscribe('t');
    const first = it.next();
    await ps.publish('t', 1);
    expect((await first).value).toBe(1);
    await it.return?.();
    await ps.publish('t', 2);
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  test('publishing with no subscriber is a no-op', async () => {
    const ps = createMemoryPubSub();
    await expect(ps.publish('nobody', { x: 1 })).resolves.toBeUndefined();
  });
});
