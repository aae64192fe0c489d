// Plan limits of every AI call other than registration (ai.md, Limits): the caller must be a
// registered user, the app's requests per minute (fixed one-minute window, shared by replicas
// through Redis) and the characters of one request are capped by the tenant's plan.
import { DomainError } from '../../../lib/errors.js';
import type { AiContext } from '../context.js';
import type { IdentityEntity } from '../identities/identity.entity.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import { AI_PLAN_LIMITS, isAiPlan, type AiPlan, type AiPlanLimits } from './plans.js';

/** Analysis computes and stores nothing: reading is enough (docs/ai.md, Scopes). */
export const AI_READ = 'ai:read';
/** Creating what the app keeps (classifiers, prompts, agent context, recommendation events) needs ai:write. */
export const AI_WRITE = 'ai:write';

export function planLimits(ctx: AiContext): AiPlanLimits & { plan: AiPlan } {
  const p = (ctx.tenant.plan ?? '').toLowerCase();
  const plan = isAiPlan(p) ? p : ctx.runtime.cfg.defaultPlan;
  return { plan, ...AI_PLAN_LIMITS[plan] };
}

/**
 * Admits one text call: key, ai:read and a registered caller (requireRegisteredUser), then the request rate
 * (rate_limit_exceeded with the wait in meta.retryAfterMs), then the total characters of `texts`
 * (text_too_long naming `parameter` and the limit).
 */
export async function admitTextCall(ctx: AiContext, texts: readonly string[], parameter: string, scope: string = AI_READ): Promise<IdentityEntity> {
  const identity = await requireRegisteredUser(ctx, scope);
  const limits = planLimits(ctx);
  await hitRate(ctx, 'requests', limits.requestsPerMinute, limits.plan);
  const chars = texts.reduce((s, t) => s + [...t].length, 0);
  if (limits.charactersPerRequest !== null && chars > limits.charactersPerRequest) {
    throw new DomainError('text_too_long', `${parameter} has ${chars} characters; the ${limits.plan} plan allows ${limits.charactersPerRequest} per request`, {
      parameter,
      meta: { limit: limits.charactersPerRequest, length: chars },
    });
  }
  return identity;
}

/** One image against the plan's images per minute (for the image endpoints). */
export async function admitImageCall(ctx: AiContext): Promise<IdentityEntity> {
  const identity = await requireRegisteredUser(ctx, AI_READ);
  const limits = planLimits(ctx);
  await hitRate(ctx, 'requests', limits.requestsPerMinute, limits.plan);
  await hitRate(ctx, 'images', limits.imagesPerMinute, limits.plan);
  return identity;
}

async function hitRate(ctx: AiContext, what: 'requests' | 'images', limit: number | null, plan: AiPlan): Promise<void> {
  if (limit === null) return;
  const r = await ctx.runtime.limiter.hit(`ai:${what}:${ctx.tenant.appId}:${ctx.tenant.environment}`, limit);
  if (!r.allowed) {
    throw new DomainError('RATE_LIMITED', `The ${plan} plan allows ${limit} AI ${what} per minute; retry in ${Math.ceil(r.resetMs / 1000)} s`, {
      meta: { limit, retryAfterMs: r.resetMs },
    });
  }
}
