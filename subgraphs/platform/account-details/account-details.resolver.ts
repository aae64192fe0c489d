import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { AccountDetailsInput } from './account-details.inputs.js';
import { AccountDetails, toAccountDetails } from './account-details.type.js';
import * as details from './account-details.service.js';

@Resolver(() => AccountDetails)
export class AccountDetailsResolver {
  @Authorized('platform:read')
  @Query(() => AccountDetails, { description: 'Empty details (null fields) until they are first saved' })
  async accountDetails(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<AccountDetails> {
    const r = await details.getDetails(ctx, accountUrlId);
    return toAccountDetails(r.account.id, r.details);
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountDetails, { description: 'DETAILS_ALREADY_EXIST (409) when the account has details: use updateAccountDetails' })
  async createAccountDetails(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => AccountDetailsInput) input: AccountDetailsInput,
  ): Promise<AccountDetails> {
    const r = await details.createDetails(ctx, accountUrlId, input);
    return toAccountDetails(r.accountId, r.row);
  }

  @Authorized('platform:manage')
  @Mutation(() => AccountDetails, { description: 'Updates the fields given (creating the details when there are none)' })
  async updateAccountDetails(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => AccountDetailsInput) input: AccountDetailsInput,
  ): Promise<AccountDetails> {
    const r = await details.updateDetails(ctx, accountUrlId, input);
    return toAccountDetails(r.accountId, r.row);
  }
}
