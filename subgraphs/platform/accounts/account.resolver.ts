// Accounts on both path families: the X-Platform platform (/accounts...), or a platform named in
// the path (/platforms/:pid/accounts...) when `platformId` is given (see inPathPlatform).
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Directive } from 'type-graphql';
import { DomainError } from '../../../lib/errors.js';
import { OPERATOR } from '../../../lib/tenant.js';
import type { PlatformContext } from '../context.js';
import { Platform, toPlatform } from '../platforms/platform.type.js';
import { CreateAccountInput, UpdateAccountInput } from './account.inputs.js';
import { Account, AccountPage, toAccount, toAccountPage } from './account.type.js';
import * as accounts from './account.service.js';
import { out, PID, scoped } from './account.scope.js';

function outPage(sctx: PlatformContext, p: AccountPage): AccountPage {
  p.items.forEach((a) => out(sctx, a));
  return p;
}

@Resolver(() => Account)
export class AccountResolver {
  @Authorized('platform:read')
  @Directive('@listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => AccountPage, { description: 'Live accounts of the platform (soft-deleted ones left out), oldest first' })
  async accounts(
    @Ctx() ctx: PlatformContext,
    @Arg('platformId', () => ID, PID) platformId?: string,
    @Arg('page', () => Int, { defaultValue: 1 }) page?: number,
    @Arg('pageSize', () => Int, { defaultValue: accounts.ACCOUNT_PAGE.defaultSize, description: `at most ${accounts.ACCOUNT_PAGE.maxSize}` }) pageSize?: number,
  ): Promise<AccountPage> {
    const sctx = await scoped(ctx, platformId, 'platform:read');
    return outPage(sctx, toAccountPage(await accounts.listAccounts(sctx, page, pageSize)));
  }

  @Authorized('platform:admin')
  @Directive('@listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => AccountPage, { description: 'Accounts of the platforms the caller administers (every platform with platform:superadmin), newest first' })
  async globalAccounts(
    @Ctx() ctx: PlatformContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page?: number,
    @Arg('pageSize', () => Int, { defaultValue: accounts.ACCOUNT_PAGE.defaultSize }) pageSize?: number,
    @Arg('includeDeleted', { defaultValue: false, description: 'also soft-deleted accounts (to find what to restore)' }) includeDeleted?: boolean,
  ): Promise<AccountPage> {
    return toAccountPage(await accounts.listGlobalAccounts(ctx, page, pageSize, includeDeleted));
  }

  @Authorized('platform:read')
  @Query(() => Account, { description: 'By url_id or unique id; ACCOUNT_NOT_FOUND unless it is a live account of the platform' })
  async account(@Ctx() ctx: PlatformContext, @Arg('urlId') urlId: string, @Arg('platformId', () => ID, PID) platformId?: string): Promise<Account> {
    const sctx = await scoped(ctx, platformId, 'platform:read');
    return out(sctx, toAccount(await accounts.getAccount(sctx, urlId)));
  }

  @Authorized('platform:manage')
  @Mutation(() => Account)
  async createAccount(
    @Ctx() ctx: PlatformContext,
    @Arg('input', () => CreateAccountInput) input: CreateAccountInput,
    @Arg('platformId', () => ID, PID) platformId?: string,
  ): Promise<Account> {
    const sctx = await scoped(ctx, platformId, 'platform:manage');
    return out(sctx, toAccount(await accounts.createAccount(sctx, input)));
  }

  @Authorized('platform:manage')
  @Mutation(() => Account, { description: 'Attributes left out keep their value; capabilities follow deploymentModel' })
  async updateAccount(
    @Ctx() ctx: PlatformContext,
    @Arg('urlId') urlId: string,
    @Arg('input', () => UpdateAccountInput) input: UpdateAccountInput,
    @Arg('platformId', () => ID, PID) platformId?: string,
  ): Promise<Account> {
    const sctx = await scoped(ctx, platformId, 'platform:manage');
    return out(sctx, toAccount(await accounts.updateAccount(sctx, urlId, input)));
  }

  @Authorized('platform:admin')
  @Mutation(() => Account, { description: 'Undo a soft delete' })
  async restoreAccount(@Ctx() ctx: PlatformContext, @Arg('urlId') urlId: string, @Arg('platformId', () => ID, PID) platformId?: string): Promise<Account> {
    const sctx = await scoped(ctx, platformId, 'platform:admin');
    return out(sctx, toAccount(await accounts.restoreAccount(sctx, urlId)));
  }

  /** Operator-only: a platform's record (contact, settings, metadata, schema) is never an API key's to read. */
  @Authorized(OPERATOR)
  @FieldResolver(() => Platform)
  async platform(@Root() account: Account, @Ctx() ctx: PlatformContext): Promise<Platform> {
    const row = await ctx.loaders.platformById.load(account.platformId);
    if (!row) throw new DomainError('PLATFORM_NOT_FOUND', `Platform ${account.platformId} not found`);
    return toPlatform(row);
  }
}
