// lib/event-stream.ts with the in-process pub/sub: ids per tenant stream, the retention window by
// count and age, resume after an id (missed events once, then live), the gone signal.
import { EventRing, compareEventIds, isGone, nothingAfter, type StreamItem } from '../../lib/event-stream.js';
import { tenantStreamOf } from '../../lib/event-stream.js';
import { createMemoryPubSub } from '../../lib/pubsub.js';

const streams = (retainEvents = 1000, retainMs = 300_000) => ({ retainEvents, retainMs, streamOf: tenantStreamOf(['product.events', 'inventory.events']) });

async function take(it: AsyncIterator<StreamItem>, n: number): Promise<StreamItem[]> {
  const out: StreamItem[] = [];
  for (let i = 0; i < n; i++) out.push((await it.next()).value as StreamItem);
  return out;
}

describe('tenantStreamOf', () => {
  test("a Subscription topic's stream is its tenant; other topics are not streamed", () => {
    const of = tenantStreamOf(['product.events']);
    expect(of('product.events:app_1:live')).toBe('app_1:live');
    expect(of('platform.keys.invalidated')).toBeUndefined();
    expect(of('search.events:app_1:live')).toBeUndefined();
  });
});

describe('EventRing', () => {
  test('ids increase within the same millisecond; count and age trim the ring', async () => {
    let now = 1_000;
    const ring = new EventRing({ retainEvents: 3, retainMs: 100 }, () => now);
    const ids = [1, 2, 3, 4].map((n) => ring.append('s', 't', { n }));
    expect(ids).toEqual(['1000-0', '1000-1', '1000-2', '1000-3']);
    // '1000-0' was trimmed by count: gone; '1000-1' is retained
    expect((await ring.history('s')('1000-0')).gone).toBe(true);
    expect((await ring.history('s')('1000-1')).events.map((e) => e.id)).toEqual(['1000-2', '1000-3']);
    now = 1_200;
    // every event aged out; the newest id missed nothing, an older one did
    expect(await ring.history('s')('1000-3')).toEqual({ gone: false, events: [] });
    expect((await ring.history('s')('1000-2')).gone).toBe(true);
  });

  test('compareEventIds and nothingAfter', () => {
    expect(compareEventIds('10-2', '9-5')).toBeGreaterThan(0);
    expect(compareEventIds('10-2', '10-10')).toBeLessThan(0);
    expect(nothingAfter('5-0', '5-0')).toBe(true);
    expect(nothingAfter('4-9', '5-0')).toBe(false);
    expect(nothingAfter('5-0', undefined)).toBe(false);
  });
});

describe('subscribeFrom (in process)', () => {
  test('replays the events after the resume point of that topic only, then live ones, each once', async () => {
    const ps = createMemoryPubSub(streams());
    const topic = 'product.events:app_1:live';
    const live = ps.subscribeFrom(topic);
    const first = live.next();
    await ps.publish(topic, { n: 1 });
    const one = (await first).value as { id: string };
    await live.return!();
    await ps.publish(topic, { n: 2 });
    await ps.publish('inventory.events:app_1:live', { other: true });
    await ps.publish('product.events:app_2:live', { foreign: true });
    await ps.publish(topic, { n: 3 });
    const resumed = ps.subscribeFrom(topic, one.id);
    const replayed = await take(resumed, 2);
    expect(replayed.map((e) => (e as { payload: unknown }).payload)).toEqual([{ n: 2 }, { n: 3 }]);
    const next = resumed.next();
    await ps.publish(topic, { n: 4 });
    expect(((await next).value as { payload: unknown }).payload).toEqual({ n: 4 });
    await resumed.return!();
  });

  test('a resume point no longer retained is gone, then live events follow', async () => {
    const ps = createMemoryPubSub(streams(2));
    const topic = 'product.events:app_1:live';
    const it = ps.subscribeFrom(topic);
    const first = it.next();
    for (let n = 1; n <= 4; n++) await ps.publish(topic, { n });
    const oldest = ((await first).value as { id: string }).id;
    await it.return!();
    const resumed = ps.subscribeFrom(topic, oldest);
    const gone = (await resumed.next()).value as StreamItem;
    expect(isGone(gone)).toBe(true);
    const next = resumed.next();
    await ps.publish(topic, { n: 5 });
    expect(((await next).value as { payload: unknown }).payload).toEqual({ n: 5 });
    await resumed.return!();
  });

  test('subscribe() on a streamed topic still yields the bare payload', async () => {
    const ps = createMemoryPubSub(streams());
    const it = ps.subscribe('product.events:app_1:live');
    const next = it.next();
    await ps.publish('product.events:app_1:live', { n: 1 });
    expect((await next).value).toEqual({ n: 1 });
    await it.return!();
  });
});
