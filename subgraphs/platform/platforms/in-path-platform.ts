// A platform named in the path (/platforms/:pid/accounts...): the caller's context, re-scoped to it.
import { DomainError } from '../../../lib/errors.js';
import { createPlatformLoaders, type PlatformContext } from '../context.js';
import { scopeToFixedPlatform } from '../tenancy.js';
import { getPlatform } from './platform.service.js';

/**
 * The context for a platform named in the path (/platforms/:pid/accounts...): an operator (an
 * unbound platform:admin token) may name any platform; everyone else only their X-Platform one.
 * Anything else is PLATFORM_NOT_FOUND (404), never a hint that the platform exists. The returned
 * context has its own EntityManager fork whose platform filter is fixed to that platform, so the
 * account services run unchanged.
 */
export async function inPathPlatform(ctx: PlatformContext, pid: string): Promise<PlatformContext> {
  const target = await getPlatform(ctx, pid); // a bound token only ever finds its own platform
  const t = ctx.tenant;
  const operator = t.scopes.includes('platform:admin') && !t.boundPlatform;
  if (!operator) {
    const own = await ctx.loaders.scope.currentPlatform().catch((e: unknown) => {
      if (e instanceof DomainError) return null;
      throw e;
    });
    if (!own || own.id !== target.id) throw new DomainError('PLATFORM_NOT_FOUND', `Platform ${pid} not found`, { parameter: 'pid' });
  }
  const em = ctx.em.fork();
  scopeToFixedPlatform(em, t, target);
  const base = { tenant: t, em, log: ctx.log, pubsub: ctx.pubsub, requestId: ctx.requestId, runtime: ctx.runtime };
  return { ...base, loaders: createPlatformLoaders(base) };
}
