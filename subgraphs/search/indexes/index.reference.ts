import type { SearchContext } from '../context.js';
import { toIndex, type Index } from './index.type.js';

export const indexReference = {
  Index: {
    async __resolveReference(ref: { id: string }, ctx: SearchContext): Promise<Index | null> {
      const row = await ctx.loaders.indexById.load(ref.id);
      return row ? toIndex(row) : null;
    },
  },
};
