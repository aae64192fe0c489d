// lib/rate-limit.ts, in-process implementations: fixed windows aligned to the window size,
// driven by an injected clock; usage counters that accumulate and drain.
import { MemoryRateLimiter, MemoryUsageCounter } from '../../lib/rate-limit.js';

/** A clock the test moves by hand. */
function manualClock(start: number) {
  let t = start;
  return { now: () => t, set: (v: number) => void (t = v), advance: (ms: number) => void (t += ms) };
}

const MINUTE = 60_000;
const T0 = 1_700_000_040_000; // a minute boundary (divisible by 60,000)

describe('MemoryRateLimiter', () => {
  test('allows up to the limit, then refuses within the window', async () => {
    const clock = manualClock(T0 + 1000);
    const rl = new MemoryRateLimiter(clock.now);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await rl.hit('k', 3));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results.every((r) => r.limit === 3)).toBe(true);
    expect(results[0].resetMs).toBe(MINUTE - 1000);
  });

  test('a new window resets the count', async () => {
    const clock = manualClock(T0);
    const rl = new MemoryRateLimiter(clock.now);
    await rl.hit('k', 2);
    await rl.hit('k', 2);
    expect((await rl.hit('k', 2)).allowed).toBe(false);
    clock.set(T0 + MINUTE - 1); // still the same window
    const last = await rl.hit('k', 2);
    expect(last.allowed).toBe(false);
    expect(last.resetMs).toBe(1);
    clock.set(T0 + MINUTE); // next window
    const fresh = await rl.hit('k', 2);
    expect(fresh).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: MINUTE });
  });

  test('windows are aligned to wall-clock multiples, not to the first hit', async () => {
    const clock = manualClock(T0 + 59_000);
    const rl = new MemoryRateLimiter(clock.now);
    expect((await rl.hit('k', 1)).allowed).toBe(true);
    expect((await rl.hit('k', 1)).allowed).toBe(false);
    clock.advance(1000); // two seconds after the first hit, but a new minute
    expect((await rl.hit('k', 1)).allowed).toBe(true);
  });

  test('keys are independent', async () => {
    const rl = new MemoryRateLimiter(manualClock(T0).now);
    expect((await rl.hit('a', 1)).allowed).toBe(true);
    expect((await rl.hit('a', 1)).allowed).toBe(false);
    expect((await rl.hit('b', 1)).allowed).toBe(true);
  });

  test('a custom window size', async () => {
    const clock = manualClock(T0);
    const rl = new MemoryRateLimiter(clock.now);
    expect((await rl.hit('k', 1, 1000)).allowed).toBe(true);
    expect((await rl.hit('k', 1, 1000)).allowed).toBe(false);
    clock.advance(1000);
    const r = await rl.hit('k', 1, 1000);
    expect(r.allowed).toBe(true);
    expect(r.resetMs).toBe(1000);
  });

  test('concurrent hits are all counted', async () => {
    const rl = new MemoryRateLimiter(manualClock(T0).now);
    const results = await Promise.all(Array.from({ length: 50 }, () => rl.hit('k', 10)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  test('a limit of zero refuses everything', async () => {
    const rl = new MemoryRateLimiter(manualClock(T0).now);
    expect(await rl.hit('k', 0)).toMatchObject({ allowed: false, remaining: 0 });
  });
});

describe('MemoryUsageCounter', () => {
  test('incr accumulates per key; drain returns and clears', async () => {
    const c = new MemoryUsageCounter();
    await c.incr('key_1');
    await c.incr('key_1');
    await c.incr('key_2', 5);
    expect(await c.drain()).toEqual(new Map([['key_1', 2], ['key_2', 5]]));
    expect((await c.drain()).size).toBe(0);
    await c.incr('key_1', 3);
    expect(await c.drain()).toEqual(new Map([['key_1', 3]]));
  });

  test('increments during a drain are kept for the next drain', async () => {
    const c = new MemoryUsageCounter();
    await c.incr('k');
    const drained = c.drain();
    await c.incr('k');
    expect(await drained).toEqual(new Map([['k', 1]]));
    expect(await c.drain()).toEqual(new Map([['k', 1]]));
  });
});
