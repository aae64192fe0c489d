// subscriptions/subscription.rules.ts: the state machine cell by cell, MRR, movements, periods.
import {
  addMonths,
  arrOf,
  movementOf,
  mrrOf,
  periodEndAfter,
  SUBSCRIPTION_STATUSES,
  transition,
  type Move,
  type SubscriptionStatus,
} from '../../subgraphs/platform/subscriptions/subscription.rules.js';
import { periodEndMove } from '../../subgraphs/platform/subscriptions/billing.job.js';

const MOVES: Move[] = ['cancel', 'cancel_now', 'reactivate', 'suspend', 'change_plan', 'convert_trial', 'renew', 'expire', 'become_past_due', 'settle', 'lapse'];

/** The documented table (docs/billing.md): [status after, flag after] or '409', for flag off and flag on. */
type Cell = [SubscriptionStatus, boolean] | '409';
const TABLE: Record<SubscriptionStatus, Record<Move, { off: Cell; on: Cell }>> = {
  trialing: {
    cancel: { off: ['trialing', true], on: '409' },
    cancel_now: { off: ['canceled', false], on: ['canceled', false] },
    reactivate: { off: '409', on: ['trialing', false] },
    suspend: { off: ['paused', false], on: ['paused', true] },
    change_plan: { off: ['trialing', false], on: ['trialing', true] },
    convert_trial: { off: ['active', false], on: ['active', true] },
    renew: { off: '409', on: '409' },
    expire: { off: ['canceled', false], on: ['canceled', false] },
    become_past_due: { off: '409', on: '409' },
    settle: { off: '409', on: '409' },
    lapse: { off: '409', on: '409' },
  },
  active: {
    cancel: { off: ['active', true], on: '409' },
    cancel_now: { off: ['canceled', false], on: ['canceled', false] },
    reactivate: { off: '409', on: ['active', false] },
    suspend: { off: ['paused', false], on: ['paused', true] },
    change_plan: { off: ['active', false], on: ['active', true] },
    convert_trial: { off: '409', on: '409' },
    renew: { off: ['active', false], on: ['active', true] },
    expire: { off: ['canceled', false], on: ['canceled', false] },
    become_past_due: { off: ['past_due', false], on: ['past_due', true] },
    settle: { off: '409', on: '409' },
    lapse: { off: '409', on: '409' },
  },
  past_due: {
    cancel: { off: ['past_due', true], on: '409' },
    cancel_now: { off: ['canceled', false], on: ['canceled', false] },
    reactivate: { off: '409', on: ['past_due', false] },
    suspend: { off: ['paused', false], on: ['paused', true] },
    change_plan: { off: ['past_due', false], on: ['past_due', true] },
    convert_trial: { off: '409', on: '409' },
    renew: { off: '409', on: '409' },
    expire: { off: ['canceled', false], on: ['canceled', false] },
    become_past_due: { off: '409', on: '409' },
    settle: { off: ['active', false], on: ['active', true] },
    lapse: { off: ['canceled', false], on: ['canceled', false] },
  },
  paused: {
    cancel: { off: ['canceled', false], on: ['canceled', false] },
    cancel_now: { off: ['canceled', false], on: ['canceled', false] },
    reactivate: { off: ['active', false], on: ['active', false] },
    suspend: { off: '409', on: '409' },
    change_plan: { off: '409', on: '409' },
    convert_trial: { off: '409', on: '409' },
    renew: { off: '409', on: '409' },
    expire: { off: '409', on: '409' },
    become_past_due: { off: '409', on: '409' },
    settle: { off: '409', on: '409' },
    lapse: { off: '409', on: '409' },
  },
  canceled: Object.fromEntries(MOVES.map((m) => [m, { off: '409', on: '409' }])) as Record<Move, { off: Cell; on: Cell }>,
};

describe('transition: every state × move × cancel flag', () => {
  const cases = SUBSCRIPTION_STATUSES.flatMap((s) => MOVES.flatMap((m) => [false, true].map((flag) => [s, m, flag] as const)));
  test.each(cases)('%s --%s--> (flag %s)', (status, move, flag) => {
    const want = TABLE[status][move][flag ? 'on' : 'off'];
    const r = transition({ status, cancelAtPeriodEnd: flag }, move);
    if (want === '409') {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason.length).toBeGreaterThan(10);
    } else {
      expect(r).toEqual({ ok: true, state: { status: want[0], cancelAtPeriodEnd: want[1] } });
    }
  });

  test('reactivating a paused subscription returns to trialing while the trial runs', () => {
    expect(transition({ status: 'paused', cancelAtPeriodEnd: false }, 'reactivate', { trialRunning: true })).toEqual({ ok: true, state: { status: 'trialing', cancelAtPeriodEnd: false } });
  });

  test('illegal moves say why', () => {
    const r = transition({ status: 'canceled', cancelAtPeriodEnd: false }, 'reactivate');
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/final/) });
    const p = transition({ status: 'past_due', cancelAtPeriodEnd: false }, 'reactivate');
    expect(p).toEqual({ ok: false, reason: expect.stringMatching(/pay the overdue invoice/) });
  });
});

describe('what the job does at a period end', () => {
  test.each([
    [{ status: 'trialing', cancelAtPeriodEnd: false, autoRenew: true }, 'convert_trial'],
    [{ status: 'trialing', cancelAtPeriodEnd: true, autoRenew: true }, 'expire'],
    [{ status: 'trialing', cancelAtPeriodEnd: false, autoRenew: false }, 'expire'],
    [{ status: 'active', cancelAtPeriodEnd: false, autoRenew: true }, 'renew'],
    [{ status: 'active', cancelAtPeriodEnd: true, autoRenew: true }, 'expire'],
    [{ status: 'past_due', cancelAtPeriodEnd: false, autoRenew: true }, 'lapse'],
    [{ status: 'past_due', cancelAtPeriodEnd: true, autoRenew: true }, 'expire'],
  ] as const)('%j → %s', (sub, move) => {
    expect(periodEndMove(sub)).toBe(move);
  });
});

describe('MRR', () => {
  test('ARR in whole cents: annual price, or 12 × monthly; zero unless active or past_due', () => {
    expect(arrOf('active', 'monthly', 4900)).toBe(58800);
    expect(arrOf('past_due', 'annual', 49000)).toBe(49000);
    expect(arrOf('trialing', 'annual', 49000)).toBe(0);
  });

  test('monthly price as is, annual / 12, zero unless active or past_due', () => {
    expect(mrrOf('active', 'monthly', 4900)).toBe(4900);
    expect(mrrOf('past_due', 'monthly', 4900)).toBe(4900);
    expect(mrrOf('active', 'annual', 49000)).toBeCloseTo(4083.3333, 4);
    for (const s of ['trialing', 'paused', 'canceled'] as const) expect(mrrOf(s, 'monthly', 4900)).toBe(0);
  });

  test.each([
    [0, 4900, 'create', 'new'],
    [0, 4900, 'convert_trial', 'new'],
    [0, 4900, 'reactivate', 'reactivation'],
    [4900, 19900, 'change_plan', 'expansion'],
    [19900, 4900, 'change_plan', 'contraction'],
    [4900, 0, 'cancel_now', 'churn'],
    [4900, 0, 'suspend', 'churn'],
    [4900, 4900, 'renew', null],
    [0, 0, 'cancel', null],
  ] as const)('%d → %d by %s: %s', (before, after, move, want) => {
    expect(movementOf(before, after, move)).toBe(want);
  });
});

describe('periods', () => {
  const d = (s: string) => new Date(s);
  test('addMonths clamps to the end of shorter months', () => {
    expect(addMonths(d('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(d('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonths(d('2026-11-15T00:00:00Z'), 2).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(addMonths(d('2024-02-29T00:00:00Z'), 12).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });

  test('periods counted from the anchor keep the billing day (Jan 31 → Feb 28 → Mar 31 → Apr 30)', () => {
    const anchor = d('2026-01-31T09:00:00Z');
    const ends: string[] = [];
    let start = anchor;
    for (let i = 0; i < 4; i++) {
      start = periodEndAfter(anchor, 'monthly', start);
      ends.push(start.toISOString().slice(0, 10));
    }
    expect(ends).toEqual(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });

  test('annual periods from a leap day', () => {
    const anchor = d('2024-02-29T00:00:00Z');
    const first = periodEndAfter(anchor, 'annual', anchor);
    expect(first.toISOString().slice(0, 10)).toBe('2025-02-28');
    expect(periodEndAfter(anchor, 'annual', first).toISOString().slice(0, 10)).toBe('2026-02-28');
    expect(periodEndAfter(anchor, 'annual', d('2027-06-01T00:00:00Z')).toISOString().slice(0, 10)).toBe('2028-02-29');
  });

  test('a start inside a period gives that period’s end', () => {
    const anchor = d('2026-01-15T00:00:00Z');
    expect(periodEndAfter(anchor, 'monthly', d('2026-03-10T00:00:00Z')).toISOString().slice(0, 10)).toBe('2026-03-15');
    expect(periodEndAfter(anchor, 'monthly', d('2026-03-15T00:00:00Z')).toISOString().slice(0, 10)).toBe('2026-04-15');
  });
});
