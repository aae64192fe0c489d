import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { toAccount, type Account } from './account.type.js';

export const accountReference = {
  Account: {
    /** Through the platform filter: an account of another platform resolves to null. */
    async __resolveReference(ref: { id: string }, ctx: PlatformContext): Promise<Account | null> {
      if (ctx.tenant.kind === 'anonymous') return null;
      try {
        const row = await ctx.loaders.accountById.load(ref.id);
        return row && !row.deletedAt ? toAccount(row) : null;
      } catch (e) {
        if (e instanceof DomainError) return null; // no or unknown X-Platform
        throw e;
      }
    },
  },
};
