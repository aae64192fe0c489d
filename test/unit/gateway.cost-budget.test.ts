// gateway/cost/budget.ts and lib/rate-limit's spend: the per-key cost budget by plan
// (COST_BUDGET_PER_MINUTE) and how a spend is kept or given back.
import { ConfigError } from '../../lib/config.js';
import { MemoryRateLimiter } from '../../lib/rate-limit.js';
import { budgetOf, costBudgets, DEFAULT_COST_BUDGETS } from '../../gateway/cost/budget.js';
import type { TenantContext } from '../../lib/tenant.js';

const key = (plan?: string): TenantContext => ({ kind: 'key', scopes: [], requestId: 'r', keyId: 'key_1', appId: 'app_1', ...(plan ? { plan } : {}) }) as TenantContext;

describe('COST_BUDGET_PER_MINUTE', () => {
  test('unset: the plans’ defaults', () => {
    expect(costBudgets({})).toBe(DEFAULT_COST_BUDGETS);
    expect(DEFAULT_COST_BUDGETS).toMatchObject({ free: 100_000, starter: 500_000, growth: 2_000_000, enterprise: 10_000_000 });
  });

  test('one integer: every plan', () => {
    expect(costBudgets({ COST_BUDGET_PER_MINUTE: '50' })).toEqual({ free: 50, starter: 50, growth: 50, enterprise: 50, default: 50 });
  });

  test('plan=units pairs: the plans named, the others at their default', () => {
    const b = costBudgets({ COST_BUDGET_PER_MINUTE: 'free=10, growth=99' });
    expect(b).toMatchObject({ free: 10, growth: 99, starter: 500_000, enterprise: 10_000_000 });
  });

  test.each(['0', '-1', '1.5', 'many', 'free=', 'free=x', 'free=1=2', '=5'])('%j stops start-up naming the variable', (raw) => {
    expect(() => costBudgets({ COST_BUDGET_PER_MINUTE: raw })).toThrow(ConfigError);
    expect(() => costBudgets({ COST_BUDGET_PER_MINUTE: raw })).toThrow(/^COST_BUDGET_PER_MINUTE: /);
  });

  test('the budget of a caller: keys by plan (free when none, the default for an unknown plan); no budget without a key', () => {
    const b = costBudgets({ COST_BUDGET_PER_MINUTE: 'free=10,growth=30' });
    expect(budgetOf(key('growth'), b)).toEqual({ key: 'cost:key:key_1', limit: 30 });
    expect(budgetOf(key(), b)).toEqual({ key: 'cost:key:key_1', limit: DEFAULT_COST_BUDGETS.default });
    expect(budgetOf(key('free'), b)?.limit).toBe(10);
    expect(budgetOf(key('platinum'), b)?.limit).toBe(DEFAULT_COST_BUDGETS.default);
    expect(budgetOf({ kind: 'user', scopes: [], requestId: 'r', userId: 'u' } as TenantContext, b)).toBeUndefined();
    expect(budgetOf({ kind: 'anonymous', scopes: [], requestId: 'r' } as TenantContext, b)).toBeUndefined();
  });
});

describe('RateLimiter.spend (in process)', () => {
  test('kept while it fits; a spend that does not fit is refused and given back; the window resets', async () => {
    let now = 120_000;
    const l = new MemoryRateLimiter(() => now);
    expect(await l.spend('k', 50, 21)).toEqual({ allowed: true, limit: 50, remaining: 29, resetMs: 60_000 });
    expect(await l.spend('k', 50, 21)).toMatchObject({ allowed: true, remaining: 8 });
    expect(await l.spend('k', 50, 21)).toMatchObject({ allowed: false, remaining: 8 });
    expect(await l.spend('k', 50, 8)).toMatchObject({ allowed: true, remaining: 0 });
    // a zero spend reads the budget
    now += 1_000;
    expect(await l.spend('k', 50, 0)).toEqual({ allowed: true, limit: 50, remaining: 0, resetMs: 59_000 });
    // another key is its own budget
    expect(await l.spend('other', 50, 50)).toMatchObject({ allowed: true, remaining: 0 });
    now = 180_000;
    expect(await l.spend('k', 50, 21)).toMatchObject({ allowed: true, remaining: 29 });
  });
});
