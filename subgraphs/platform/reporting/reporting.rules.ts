// Pure pieces of reporting: the period vocabulary, window arithmetic, rates and rounding.
import { DomainError } from '../../../lib/errors.js';

export const PERIODS = ['7d', '30d', '90d', 'all_time'] as const;
export type Period = (typeof PERIODS)[number];
export type BucketUnit = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;
const DAYS: Record<Exclude<Period, 'all_time'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

export interface ReportWindow {
  period: Period;
  /** exclusive lower bound of "in the period"; null for all_time */
  start: Date | null;
  now: Date;
  /** bucket size of time series: day for 7d and 30d, week for 90d, month for all_time */
  unit: BucketUnit;
}

/** 400 BAD_REQUEST naming `period` unless it is one of the four documented values (default 30d). */
export function parsePeriod(value: string | null | undefined): Period {
  if (value == null || value === '') return '30d';
  if (!(PERIODS as readonly string[]).includes(value)) {
    throw new DomainError('BAD_REQUEST', `period must be one of ${PERIODS.join(', ')}`, { parameter: 'period' });
  }
  return value as Period;
}

export function windowOf(period: Period, now: Date): ReportWindow {
  if (period === 'all_time') return { period, start: null, now, unit: 'month' };
  return { period, start: new Date(now.getTime() - DAYS[period] * DAY_MS), now, unit: period === '90d' ? 'week' : 'day' };
}

/** a / b rounded to 4 decimals; null when b is 0 (a rate over nothing is not 0%). */
export function rate(a: number, b: number): number | null {
  if (!b) return null;
  return Math.round((a / b) * 10_000) / 10_000;
}

/** MRR in (fractional) cents from an ARR sum in cents, as the repository returns them. */
export function mrrOf(arrCents: number | string | null | undefined): number {
  return Number(arrCents ?? 0) / 12;
}

/** Whole cents. */
export function cents(x: number | string | null | undefined): number {
  return Math.round(Number(x ?? 0));
}

/** Start of the UTC bucket containing `d` (weeks start on Monday, like PostgreSQL's date_trunc). */
export function bucketStart(d: Date, unit: BucketUnit): Date {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), unit === 'month' ? 1 : d.getUTCDate()));
  if (unit === 'week') t.setUTCDate(t.getUTCDate() - ((t.getUTCDay() + 6) % 7));
  return t;
}

export function nextBucket(d: Date, unit: BucketUnit): Date {
  const t = new Date(d);
  if (unit === 'day') t.setUTCDate(t.getUTCDate() + 1);
  else if (unit === 'week') t.setUTCDate(t.getUTCDate() + 7);
  else t.setUTCMonth(t.getUTCMonth() + 1);
  return t;
}

/** Every bucket from `from` to `to` (inclusive), with the values found, zeros elsewhere. */
export function fillSeries<T extends { bucket: Date }>(rows: T[], from: Date, to: Date, unit: BucketUnit, empty: (bucket: Date) => T): T[] {
  const byTime = new Map(rows.map((r) => [bucketStart(r.bucket, unit).getTime(), r]));
  const out: T[] = [];
  for (let b = bucketStart(from, unit); b.getTime() <= to.getTime(); b = nextBucket(b, unit)) {
    out.push(byTime.get(b.getTime()) ?? empty(new Date(b)));
  }
  return out;
}
