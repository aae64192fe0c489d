import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DomainError } from '../../../lib/errors.js';
import { OPERATOR } from '../../../lib/tenant.js';
import type { PlatformContext } from '../context.js';
import { Account, toAccount } from '../accounts/account.type.js';
import { CreateAppInput, UpdateAppInput } from './app.inputs.js';
import { App, toApp } from './app.type.js';
import * as apps from './app.service.js';

@Resolver(() => App)
export class AppResolver {
  @Authorized('platform:read')
  @Query(() => [App], { description: 'Apps of an account of the X-Platform platform' })
  async apps(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<App[]> {
    return (await apps.listApps(ctx, accountUrlId)).map(toApp);
  }

  /** No scope beyond a valid API key: the key itself names the app. */
  @Query(() => App, { description: 'The app of the calling API key (X-App-Id + X-Api-Key)' })
  async currentApp(@Ctx() ctx: PlatformContext): Promise<App> {
    return toApp(await apps.currentApp(ctx));
  }

  @Authorized('platform:manage')
  @Mutation(() => App)
  async createApp(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => CreateAppInput) input: CreateAppInput,
  ): Promise<App> {
    return toApp(await apps.createApp(ctx, accountUrlId, input));
  }

  @Authorized('platform:manage')
  @Mutation(() => App, { description: 'Attributes left out keep their value' })
  async updateApp(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateAppInput) input: UpdateAppInput,
  ): Promise<App> {
    return toApp(await apps.updateApp(ctx, accountUrlId, id, input));
  }

  @Authorized('platform:manage')
  @Mutation(() => App, { description: 'Soft delete: the app and its keys stop working at once' })
  async deleteApp(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('id', () => ID) id: string): Promise<App> {
    return toApp(await apps.deleteApp(ctx, accountUrlId, id));
  }

  /** Operator-only: the REST API serves accounts to platform operators, never to a key (docs/security.md). */
  @Authorized(OPERATOR)
  @FieldResolver(() => Account)
  async account(@Root() app: App, @Ctx() ctx: PlatformContext): Promise<Account> {
    const row = await ctx.loaders.accountById.load(app.accountId);
    if (!row) throw new DomainError('ACCOUNT_NOT_FOUND', `Account ${app.accountId} not found`);
    return toAccount(row);
  }

  // The app's configuration: operators read it (GET /accounts/:url_id/apps/:id), an API key of the
  // app does not (a webhook URL often carries a token; limits and origins are the owner's settings).

  @Authorized(OPERATOR)
  @FieldResolver()
  webhookUrl(@Root() app: App): string | undefined {
    return app.webhookUrl;
  }

  @Authorized(OPERATOR)
  @FieldResolver()
  rateLimitPerMinute(@Root() app: App): number {
    return app.rateLimitPerMinute;
  }

  @Authorized(OPERATOR)
  @FieldResolver()
  allowedOrigins(@Root() app: App): string[] {
    return app.allowedOrigins;
  }

  @Authorized(OPERATOR)
  @FieldResolver()
  oauthEnabled(@Root() app: App): boolean {
    return app.oauthEnabled;
  }
}
