import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { toPlatform, type Platform } from './platform.type.js';

export const platformReference = {
  Platform: {
    /** Operators (platform:admin) resolve any platform; everyone else only the platform they are scoped to. */
    async __resolveReference(ref: { id: string }, ctx: PlatformContext): Promise<Platform | null> {
      const t = ctx.tenant;
      if (t.kind === 'anonymous') return null;
      if (!t.scopes.includes('platform:admin')) {
        const own = await ctx.loaders.scope.platformId().catch((e: unknown) => {
          if (e instanceof DomainError) return null; // no or unknown X-Platform: nothing is reachable
          throw e;
        });
        if (own !== ref.id) return null;
      }
      const row = await ctx.loaders.platformById.load(ref.id);
      return row ? toPlatform(row) : null;
    },
  },
};
