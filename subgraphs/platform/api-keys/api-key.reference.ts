import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { toApiKey, type ApiKey } from './api-key.type.js';

export const apiKeyReference = {
  ApiKey: {
    /** Keys are visible to platform:read callers (and the gateway) of the key's platform only; masked. */
    async __resolveReference(ref: { id: string }, ctx: PlatformContext): Promise<ApiKey | null> {
      const t = ctx.tenant;
      if (t.kind !== 'service' && !(t.kind === 'user' && t.scopes.includes('platform:read'))) return null;
      try {
        const row = await ctx.loaders.apiKeyById.load(ref.id);
        return row ? toApiKey(row) : null;
      } catch (e) {
        if (e instanceof DomainError) return null; // no or unknown X-Platform
        throw e;
      }
    },
  },
};
