// reporting/reporting.rules.ts and reporting.cache.ts: periods, rates, buckets, the report cache.
import { DomainError } from '../../lib/errors.js';
import { cachedReport, MemoryReportCache } from '../../subgraphs/platform/reporting/reporting.cache.js';
import { bucketStart, cents, fillSeries, mrrOf, parsePeriod, rate, windowOf } from '../../subgraphs/platform/reporting/reporting.rules.js';

describe('periods', () => {
  test('the four documented values; 30d by default; anything else is 400 naming period', () => {
    expect(['7d', '30d', '90d', 'all_time'].map(parsePeriod)).toEqual(['7d', '30d', '90d', 'all_time']);
    expect(parsePeriod(undefined)).toBe('30d');
    expect(parsePeriod('')).toBe('30d');
    for (const bad of ['1y', '30', 'ALL_TIME', '7D']) {
      try {
        parsePeriod(bad);
        throw new Error('accepted');
      } catch (e) {
        expect(e).toBeInstanceOf(DomainError);
        expect((e as DomainError).code).toBe('BAD_REQUEST');
        expect((e as DomainError).opts.parameter).toBe('period');
      }
    }
  });

  test('windows and bucket units', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(windowOf('7d', now)).toEqual({ period: '7d', start: new Date('2026-11-15T12:00:00Z'), now, unit: 'day' });
    expect(windowOf('30d', now).start).toEqual(new Date('2026-10-23T12:00:00Z'));
    expect(windowOf('90d', now).unit).toBe('week');
    expect(windowOf('all_time', now)).toEqual({ period: 'all_time', start: null, now, unit: 'month' });
  });
});

describe('numbers', () => {
  test('rate: 4 decimals, null over nothing', () => {
    expect(rate(1, 3)).toBe(0.3333);
    expect(rate(2, 8)).toBe(0.25);
    expect(rate(0, 5)).toBe(0);
    expect(rate(5, 0)).toBeNull();
  });

  test('MRR from ARR cents; whole cents', () => {
    expect(mrrOf(58800)).toBe(4900);
    expect(mrrOf('49000')).toBeCloseTo(4083.333, 3);
    expect(mrrOf(null)).toBe(0);
    expect(cents(4083.3333)).toBe(4083);
    expect(cents('19900.5')).toBe(19901);
  });
});

describe('series buckets (UTC, weeks from Monday, as date_trunc)', () => {
  test('bucketStart', () => {
    const d = new Date('2026-11-22T15:30:00Z'); // a Sunday
    expect(bucketStart(d, 'day').toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(bucketStart(d, 'week').toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(bucketStart(d, 'month').toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  test('fillSeries lists every bucket, the found ones in place, zeros elsewhere', () => {
    const from = new Date('2026-11-01T10:00:00Z');
    const to = new Date('2026-11-05T08:00:00Z');
    const rows = [{ bucket: new Date('2026-11-03T00:00:00Z'), v: 7 }];
    const out = fillSeries(rows, from, to, 'day', (bucket) => ({ bucket, v: 0 }));
    expect(out.map((r) => [r.bucket.toISOString().slice(0, 10), r.v])).toEqual([
      ['2026-11-01', 0],
      ['2026-11-02', 0],
      ['2026-11-03', 7],
      ['2026-11-04', 0],
      ['2026-11-05', 0],
    ]);
  });
});

describe('report cache', () => {
  test('entries expire after their TTL', async () => {
    let t = 1000;
    const c = new MemoryReportCache(() => t);
    await c.set('k', { a: 1 }, 500);
    expect(await c.get('k')).toEqual({ a: 1 });
    t = 1499;
    expect(await c.get('k')).toEqual({ a: 1 });
    t = 1500;
    expect(await c.get('k')).toBeUndefined();
  });

  test('a hit says cached; force recomputes; identical requests in flight share one computation', async () => {
    let runs = 0;
    const compute = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      return { n: runs };
    };
    const key = `unit-${Date.now()}`;
    const [a, b] = await Promise.all([cachedReport(key, false, compute), cachedReport(key, false, compute)]);
    expect(runs).toBe(1);
    expect(a).toEqual({ n: 1, cached: false });
    expect(b).toEqual({ n: 1, cached: false });
    expect(await cachedReport(key, false, compute)).toEqual({ n: 1, cached: true });
    expect(await cachedReport(key, true, compute)).toEqual({ n: 2, cached: false });
    expect(await cachedReport(key, false, compute)).toEqual({ n: 2, cached: true });
  });
});
