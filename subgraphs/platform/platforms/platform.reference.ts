import type { PlatformContext } from '../context.js';
import { platformAccess } from './platform-access.js';
import { toPlatform, type Platform } from './platform.type.js';

export const platformReference = {
  Platform: {
    /** Only a platform the caller reaches (platforms/platform-access.ts); any other resolves to null. */
    async __resolveReference(ref: { id: string }, ctx: PlatformContext): Promise<Platform | null> {
      if (ctx.tenant.kind === 'anonymous') return null;
      const row = await ctx.loaders.platformById.load(ref.id);
      if (!row || !(await platformAccess(ctx.em, ctx.tenant, row))) return null;
      return toPlatform(row);
    },
  },
};
