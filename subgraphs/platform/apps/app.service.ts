// Apps of an account of the caller's platform (the `tenant` filter scopes every query).
import { checkWebhookUrl } from '../../../lib/webhooks/index.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import type { AccountEntity } from '../accounts/account.entity.js';
import { intInRange, oneOf, optionalDomain, optionalHttpUrl, optionalText, originList, requiredText } from '../validation.js';
import { APP_PURPOSES, APP_RATE_LIMIT, APP_STATUSES, APP_TYPES, AppEntity } from './app.entity.js';
import type { CreateAppInput, UpdateAppInput } from './app.inputs.js';
import { publishKeysInvalidated } from '../events.js';

export async function listApps(ctx: PlatformContext, accountUrlId: string): Promise<AppEntity[]> {
  const account = await getAccount(ctx, accountUrlId);
  return ctx.loaders.appsByAccount.load(account.id);
}

/** The app `appId` of the account `accountUrlId`; APP_NOT_FOUND when it belongs elsewhere. */
export async function getApp(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<{ account: AccountEntity; app: AppEntity }> {
  const account = await getAccount(ctx, accountUrlId);
  const app = await ctx.loaders.appById.load(appId);
  if (!app || app.account.id !== account.id) throw new DomainError('APP_NOT_FOUND', `App ${appId} not found`, { parameter: 'appId' });
  return { account, app };
}

/** The app an API-key caller is bound to. */
export async function currentApp(ctx: PlatformContext): Promise<AppEntity> {
  const { kind, appId } = ctx.tenant;
  if (kind !== 'key' || !appId) throw new DomainError('UNAUTHENTICATED', 'An API key (X-App-Id + X-Api-Key) is required');
  const app = await ctx.loaders.appById.load(appId);
  if (!app) throw new DomainError('APP_NOT_FOUND', `App ${appId} not found`, { parameter: 'appId' });
  return app;
}

/** An app's webhook URL passes the guard of every webhook registration: http(s), no credentials, a public destination. */
export async function appWebhookUrl(ctx: Pick<PlatformContext, 'runtime'>, value: string | null | undefined): Promise<string | undefined> {
  const url = optionalHttpUrl(value, 'webhookUrl');
  if (url !== undefined) await checkWebhookUrl(url, ctx.runtime.cfg.allowPrivateNetworkFetch, 'VALIDATION_FAILED', 'webhookUrl');
  return url;
}

export async function createApp(ctx: PlatformContext, accountUrlId: string, input: CreateAppInput): Promise<AppEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const app = ctx.em.create(AppEntity, {
    account,
    platform: account.platform,
    name: requiredText(input.name, 'name', 200),
    description: optionalText(input.description, 'description', 5000),
    appType: oneOf(input.appType, APP_TYPES, 'appType', 'web'),
    purpose: oneOf(input.purpose, APP_PURPOSES, 'purpose', 'production'),
    status: oneOf(input.status, APP_STATUSES, 'status', 'active'),
    oauthEnabled: input.oauthEnabled ?? false,
    rateLimitPerMinute: intInRange(input.rateLimitPerMinute, 'rateLimitPerMinute', APP_RATE_LIMIT.min, APP_RATE_LIMIT.max) ?? APP_RATE_LIMIT.default,
    webhookUrl: await appWebhookUrl(ctx, input.webhookUrl),
    allowedOrigins: originList(input.allowedOrigins),
    preferredDomain: optionalDomain(input.preferredDomain),
  });
  await ctx.em.flush();
  ctx.loaders.appById.prime(app.id, app);
  return app;
}

export async function updateApp(ctx: PlatformContext, accountUrlId: string, appId: string, input: UpdateAppInput): Promise<AppEntity> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  if (input.name !== undefined) app.name = requiredText(input.name, 'name', 200);
  if (input.description !== undefined) app.description = optionalText(input.description, 'description', 5000);
  if (input.appType != null) app.appType = oneOf(input.appType, APP_TYPES, 'appType', app.appType);
  if (input.purpose != null) app.purpose = oneOf(input.purpose, APP_PURPOSES, 'purpose', app.purpose);
  if (input.status != null) app.status = oneOf(input.status, APP_STATUSES, 'status', app.status);
  if (input.oauthEnabled != null) app.oauthEnabled = input.oauthEnabled;
  if (input.rateLimitPerMinute != null) {
    app.rateLimitPerMinute = intInRange(input.rateLimitPerMinute, 'rateLimitPerMinute', APP_RATE_LIMIT.min, APP_RATE_LIMIT.max)!;
  }
  if (input.webhookUrl !== undefined) app.webhookUrl = await appWebhookUrl(ctx, input.webhookUrl);
  if (input.allowedOrigins !== undefined) app.allowedOrigins = originList(input.allowedOrigins);
  if (input.preferredDomain !== undefined) {
    const domain = optionalDomain(input.preferredDomain);
    if (domain !== app.preferredDomain) {
      // a new domain has to be proven again
      app.preferredDomain = domain;
      app.domainVerified = false;
      app.domainVerificationToken = null;
      app.domainVerifiedAt = null;
    }
  }
  await ctx.em.flush();
  // status and the app's rate limit are part of every cached key record of this app
  await publishKeysInvalidated(ctx, { appIds: [app.id] }, 'app.updated');
  return app;
}

/** Soft delete: the app leaves every list and lookup and its keys stop working at once. */
export async function deleteApp(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<AppEntity> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  app.deletedAt = new Date();
  await ctx.em.flush();
  await publishKeysInvalidated(ctx, { appIds: [app.id] }, 'app.deleted');
  return app;
}
