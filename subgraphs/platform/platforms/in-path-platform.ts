// A platform named in the path (/platforms/:pid/accounts...): the caller's context, re-scoped to it.
import { loadersFor } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { scopeToFixedPlatform } from '../tenancy.js';
import { reachPlatform } from './platform.service.js';

/**
 * The context for a platform named in the path (/platforms/:pid/accounts...): the caller must reach
 * it (an operator record of its `sub`, a `platform` claim naming it, or the super-admin scope:
 * platforms/platform-access.ts) with `scope` granted there; anything else is PLATFORM_NOT_FOUND
 * (404), never a hint that the platform exists. The returned context has its own EntityManager fork
 * whose platform filter is fixed to that platform, and the caller's scopes capped to the record's,
 * so the account services run unchanged.
 */
export async function inPathPlatform(ctx: PlatformContext, pid: string, scope: string): Promise<PlatformContext> {
  const { platform: target, scopes } = await reachPlatform(ctx, pid, { scope, parameter: 'pid' });
  const t = { ...ctx.tenant, scopes, ...(ctx.tenant.kind === 'user' ? { operatorPlatformId: target.id } : {}) };
  const em = ctx.em.fork();
  scopeToFixedPlatform(em, t, target);
  const base = { tenant: t, em, log: ctx.log, pubsub: ctx.pubsub, requestId: ctx.requestId, runtime: ctx.runtime };
  return { ...base, loaders: loadersFor(ctx.loaders, base) };
}
