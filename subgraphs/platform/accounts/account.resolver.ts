import { Arg, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { Platform, toPlatform } from '../platforms/platform.type.js';
import { App, toApp } from '../apps/app.type.js';
import { CreateAccountInput } from './account.inputs.js';
import { Account, toAccount } from './account.type.js';
import * as accounts from './account.service.js';

@Resolver(() => Account)
export class AccountResolver {
  @Authorized('platform:read')
  @Query(() => [Account], { description: 'Accounts of the X-Platform platform (soft-deleted ones left out)' })
  async accounts(@Ctx() ctx: PlatformContext): Promise<Account[]> {
    return (await accounts.listAccounts(ctx)).map(toAccount);
  }

  @Authorized('platform:read')
  @Query(() => Account, { description: 'ACCOUNT_NOT_FOUND unless the account belongs to the X-Platform platform' })
  async account(@Ctx() ctx: PlatformContext, @Arg('urlId') urlId: string): Promise<Account> {
    return toAccount(await accounts.getAccount(ctx, urlId));
  }

  @Authorized('platform:manage')
  @Mutation(() => Account)
  async createAccount(@Ctx() ctx: PlatformContext, @Arg('input', () => CreateAccountInput) input: CreateAccountInput): Promise<Account> {
    return toAccount(await accounts.createAccount(ctx, input));
  }

  @FieldResolver(() => Platform)
  async platform(@Root() account: Account, @Ctx() ctx: PlatformContext): Promise<Platform> {
    const row = await ctx.loaders.platformById.load(account.platformId);
    if (!row) throw new DomainError('PLATFORM_NOT_FOUND', `Platform ${account.platformId} not found`);
    return toPlatform(row);
  }

  /** platform:read, so an API key reaching its account through App.account cannot list sibling apps */
  @Authorized('platform:read')
  @FieldResolver(() => [App])
  async apps(@Root() account: Account, @Ctx() ctx: PlatformContext): Promise<App[]> {
    return (await ctx.loaders.appsByAccount.load(account.id)).map(toApp);
  }
}
