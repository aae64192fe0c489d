// Account.deleteAccount, which the subscription aggregate adds: deleting an account ends its live
// subscription in the same transaction (subscription.closure.ts), so the delete lives above accounts/.
import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { out, PID, scoped } from '../accounts/account.scope.js';
import { Account, toAccount } from '../accounts/account.type.js';
import { deleteAccount } from './subscription.closure.js';

@Resolver(() => Account)
export class AccountClosureResolver {
  @Authorized('platform:manage')
  @Mutation(() => Account, { description: 'Soft delete: gone from lists and lookups, its keys stop working; restoreAccount undoes it' })
  async deleteAccount(@Ctx() ctx: PlatformContext, @Arg('urlId') urlId: string, @Arg('platformId', () => ID, PID) platformId?: string): Promise<Account> {
    const sctx = await scoped(ctx, platformId, 'platform:manage');
    return out(sctx, toAccount(await deleteAccount(sctx, urlId)));
  }
}
