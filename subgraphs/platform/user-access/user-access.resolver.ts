import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { Account, toAccount } from '../accounts/account.type.js';
import { App, toApp } from '../apps/app.type.js';
import { GrantUserAccessInput } from './user-access.inputs.js';
import { GrantUserAccessResult, toUserAccess, UserAccess, UserAccount, UserApp } from './user-access.type.js';
import * as access from './user-access.service.js';

@Resolver(() => UserAccess)
export class UserAccessResolver {
  @Authorized('platform:read')
  @Query(() => [UserAccess], { description: "All access records of a user in the X-Platform platform, whatever their status (optionally one status)" })
  async userAccesses(
    @Ctx() ctx: PlatformContext,
    @Arg('userId') userId: string,
    @Arg('status', () => String, { nullable: true, description: 'active, suspended or revoked' }) status?: string | null,
  ): Promise<UserAccess[]> {
    return (await access.listAccesses(ctx, userId, status)).map(toUserAccess);
  }

  @Authorized('platform:read')
  @Query(() => UserAccess, { description: 'One access record' })
  async userAccess(@Ctx() ctx: PlatformContext, @Arg('id', () => ID) id: string): Promise<UserAccess> {
    return toUserAccess(await access.getAccess(ctx, id));
  }

  @Authorized('platform:read')
  @Query(() => [UserApp], { description: 'Apps the user can reach through ACTIVE grants (an account grant reaches all its apps)' })
  async userApps(@Ctx() ctx: PlatformContext, @Arg('userId') userId: string): Promise<UserApp[]> {
    return (await access.userApps(ctx, userId)).map((r) => Object.assign(new UserApp(), { app: toApp(r.app), role: r.role, via: r.via, accessId: r.accessId }));
  }

  @Authorized('platform:read')
  @Query(() => [UserAccount], { description: 'Accounts the user belongs to through ACTIVE account grants' })
  async userAccounts(@Ctx() ctx: PlatformContext, @Arg('userId') userId: string): Promise<UserAccount[]> {
    return (await access.userAccounts(ctx, userId)).map((r) => Object.assign(new UserAccount(), { account: toAccount(r.account), role: r.role, via: r.via, accessId: r.accessId }));
  }

  @Authorized('platform:manage')
  @Mutation(() => GrantUserAccessResult, { description: 'Grant access (idempotent for the same active grant; ACCESS_ALREADY_EXISTS for another role)' })
  async grantUserAccess(@Ctx() ctx: PlatformContext, @Arg('input', () => GrantUserAccessInput) input: GrantUserAccessInput): Promise<GrantUserAccessResult> {
    const r = await access.grantAccess(ctx, input);
    return Object.assign(new GrantUserAccessResult(), { access: toUserAccess(r.access), created: r.created });
  }

  @Authorized('platform:manage')
  @Mutation(() => UserAccess, { description: 'active or suspended → revoked (terminal)' })
  async revokeUserAccess(@Ctx() ctx: PlatformContext, @Arg('id', () => ID) id: string): Promise<UserAccess> {
    return toUserAccess(await access.changeAccess(ctx, id, 'revoke'));
  }

  @Authorized('platform:manage')
  @Mutation(() => UserAccess, { description: 'active → suspended' })
  async suspendUserAccess(@Ctx() ctx: PlatformContext, @Arg('id', () => ID) id: string): Promise<UserAccess> {
    return toUserAccess(await access.changeAccess(ctx, id, 'suspend'));
  }

  @Authorized('platform:manage')
  @Mutation(() => UserAccess, { description: 'suspended → active' })
  async reactivateUserAccess(@Ctx() ctx: PlatformContext, @Arg('id', () => ID) id: string): Promise<UserAccess> {
    return toUserAccess(await access.changeAccess(ctx, id, 'reactivate'));
  }

  @FieldResolver(() => Account, { nullable: true, description: 'null once the account is deleted' })
  async account(@Root() a: UserAccess, @Ctx() ctx: PlatformContext): Promise<Account | null> {
    const row = await ctx.loaders.accountById.load(a.accountId);
    return row && !row.deletedAt ? toAccount(row) : null;
  }

  @FieldResolver(() => App, { nullable: true, description: 'the app of an app grant' })
  async app(@Root() a: UserAccess, @Ctx() ctx: PlatformContext): Promise<App | null> {
    if (!a.appId) return null;
    const row = await ctx.loaders.appById.load(a.appId);
    return row ? toApp(row) : null;
  }
}
