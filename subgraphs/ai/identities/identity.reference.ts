import type { AiContext } from '../context.js';
import { toIdentity, type Identity } from './identity.type.js';

export const identityReference = {
  Identity: {
    async __resolveReference(ref: { id: string }, ctx: AiContext): Promise<Identity | null> {
      const row = await ctx.loaders.identityById.load(ref.id);
      return row ? toIdentity(row) : null;
    },
  },
};
