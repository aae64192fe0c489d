// Plan limits of the search service (document 3 part B, "Limits"): ONE table. The plan comes from
// the tenant context (`tenant.plan`, set by the gateway from the key's account); a context without
// a plan gets SEARCH_DEFAULT_PLAN (free unless configured). `null` means no limit.
export const PLAN_CODES = ['free', 'starter', 'growth', 'enterprise'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];

export interface PlanLimits {
  searchesPerSecond: number | null;
  documentsPerIndex: number | null;
  indexes: number | null;
}

export const PLAN_LIMITS: Record<PlanCode, PlanLimits> = {
  free: { searchesPerSecond: 10, documentsPerIndex: 10_000, indexes: 3 },
  starter: { searchesPerSecond: 50, documentsPerIndex: 100_000, indexes: 10 },
  growth: { searchesPerSecond: 200, documentsPerIndex: 1_000_000, indexes: 50 },
  // "custom": negotiated per contract; without a configured figure, nothing is enforced.
  enterprise: { searchesPerSecond: null, documentsPerIndex: null, indexes: null },
};

/** Documents one request may carry, whatever the plan (the spec recommends batches of 100 to 1,000). */
export const MAX_DOCUMENTS_PER_BATCH = 10_000;

export function isPlanCode(v: string): v is PlanCode {
  return (PLAN_CODES as readonly string[]).includes(v);
}

/** The plan code of a tenant: its own when it names a known plan, else the default. */
export function planOf(plan: string | undefined, fallback: PlanCode): PlanCode {
  const p = plan?.trim().toLowerCase();
  return p && isPlanCode(p) ? p : fallback;
}
