// The caller's app partition and plan, from the verified tenant context.
import { DomainError } from '../../lib/errors.js';
import type { Environment } from '../../lib/tenant.js';
import type { SearchContext } from './context.js';
import { PLAN_LIMITS, planOf, type PlanCode, type PlanLimits } from './plans.js';

export interface AppPartition {
  appId: string;
  environment: Environment;
}

export function requireApp(ctx: SearchContext): AppPartition {
  const { appId, environment } = ctx.tenant;
  if (!appId || !environment) throw new DomainError('UNAUTHENTICATED', 'An API key (X-App-Id + X-Api-Key) is required');
  return { appId, environment };
}

export function planCode(ctx: SearchContext): PlanCode {
  return planOf(ctx.tenant.plan, ctx.runtime.cfg.defaultPlan);
}

export function planLimits(ctx: SearchContext): PlanLimits & { plan: PlanCode } {
  const plan = planCode(ctx);
  return { plan, ...PLAN_LIMITS[plan] };
}
