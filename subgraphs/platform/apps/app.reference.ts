import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { toApp, type App } from './app.type.js';

export const appReference = {
  App: {
    /**
     * Other subgraphs (catalog's Product.app, ...) point here. An API-key caller resolves only its own
     * app; a user (or service) caller only apps of its X-Platform platform (the platform filter);
     * anything else resolves to null.
     */
    async __resolveReference(ref: { id: string }, ctx: PlatformContext): Promise<App | null> {
      const t = ctx.tenant;
      if (t.kind === 'key' ? ref.id !== t.appId : t.kind !== 'user' && t.kind !== 'service') return null;
      try {
        const row = await ctx.loaders.appById.load(ref.id);
        return row ? toApp(row) : null;
      } catch (e) {
        if (e instanceof DomainError) return null; // no or unknown X-Platform
        throw e;
      }
    },
  },
};
