// The caller's plan, from the verified tenant context. (The caller's app partition comes from
// lib/tenant-entity.ts: appPartition(ctx), the values the `tenant` filter compares.)
import type { SearchContext } from './context.js';
import { PLAN_LIMITS, planOf, type PlanCode, type PlanLimits } from './plans.js';

export function planCode(ctx: SearchContext): PlanCode {
  return planOf(ctx.tenant.plan, ctx.runtime.cfg.defaultPlan);
}

export function planLimits(ctx: SearchContext): PlanLimits & { plan: PlanCode } {
  const plan = planCode(ctx);
  return { plan, ...PLAN_LIMITS[plan] };
}
