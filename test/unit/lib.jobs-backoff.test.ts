import { retryDelayMs } from '../../lib/jobs/backoff.js';

describe('job retry backoff', () => {
  test('doubles from the base per attempt and stops at the cap', () => {
    const b = { baseMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(a, b, 0))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
  test('jitter stays within ±20% and never passes the cap', () => {
    const b = { baseMs: 1000, maxMs: 60_000 };
    expect(retryDelayMs(3, b, 1)).toBe(4800);
    expect(retryDelayMs(3, b, -1)).toBe(3200);
    expect(retryDelayMs(30, b, 1)).toBe(60_000);
    for (let i = 0; i < 50; i++) {
      const d = retryDelayMs(2, b);
      expect(d).toBeGreaterThanOrEqual(1600);
      expect(d).toBeLessThanOrEqual(2400);
    }
  });
});
