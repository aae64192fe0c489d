import type { PlatformContext } from '../context.js';
import { toBlock, type Block } from './block.type.js';

export const blockReference = {
  Block: {
    /** The catalog is public to every authenticated caller: other subgraphs may point at a Block by id. */
    async __resolveReference(ref: { id: string }, ctx: PlatformContext): Promise<Block | null> {
      if (ctx.tenant.kind === 'anonymous') return null;
      const row = await ctx.loaders.blockById.load(ref.id);
      return row ? toBlock(row) : null;
    },
  },
};
