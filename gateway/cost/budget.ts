// The per-key cost budget: query cost units a key may spend per minute, by its account's plan
// (COST_BUDGET_PER_MINUTE, docs/cost.md). API-key callers only: JWT users and operators have the
// per-user request limit instead. Counted by lib/rate-limit's `spend` (Redis when REDIS_URL is set,
// so every gateway draws on one budget; in process otherwise).
import { ConfigError } from '../../lib/config.js';
import type { TenantContext } from '../../lib/tenant.js';

/** Units per minute by plan code; `default` for a plan not listed (and a key without a plan). */
export type CostBudgets = Readonly<Record<string, number>> & { readonly default: number };

/** The plans' budgets when COST_BUDGET_PER_MINUTE is unset: 100 units a request at each plan's usual request rate. */
export const DEFAULT_COST_BUDGETS: CostBudgets = { free: 100_000, starter: 500_000, growth: 2_000_000, enterprise: 10_000_000, default: 100_000 };

/**
 * COST_BUDGET_PER_MINUTE: one integer for every plan (`1000000`), or `plan=units` pairs separated by
 * commas (`free=50000,growth=1000000`; plans not named keep their default). Anything else stops start-up.
 */
export function costBudgets(env: NodeJS.ProcessEnv = process.env): CostBudgets {
  const raw = env.COST_BUDGET_PER_MINUTE?.trim();
  if (!raw) return DEFAULT_COST_BUDGETS;
  const units = (s: string) => {
    const n = Number(s);
    if (!/^\d+$/.test(s.trim()) || !Number.isSafeInteger(n) || n < 1) throw new ConfigError('COST_BUDGET_PER_MINUTE', `"${s}" must be an integer >= 1`);
    return n;
  };
  if (!raw.includes('=')) {
    const n = units(raw);
    return { free: n, starter: n, growth: n, enterprise: n, default: n };
  }
  const out: Record<string, number> = { ...DEFAULT_COST_BUDGETS };
  for (const pair of raw.split(',')) {
    const [plan, value, ...rest] = pair.split('=').map((s) => s.trim());
    if (!plan || value === undefined || rest.length) throw new ConfigError('COST_BUDGET_PER_MINUTE', `"${pair}" must be plan=units`);
    out[plan] = units(value);
  }
  return out as CostBudgets;
}

/** The budget a caller draws on: its limiter key and units per minute; none for callers without a key. */
export function budgetOf(tenant: TenantContext, budgets: CostBudgets): { key: string; limit: number } | undefined {
  if (tenant.kind !== 'key' || !tenant.keyId) return undefined;
  return { key: `cost:key:${tenant.keyId}`, limit: budgets[tenant.plan ?? ''] ?? budgets.default };
}
