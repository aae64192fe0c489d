// API keys of an app. Creating one returns the full key value once; only its hash is stored.
import { DomainError } from '../../../lib/errors.js';
import type { Environment } from '../../../lib/tenant.js';
import type { PlatformContext } from '../context.js';
import { getApp } from '../apps/app.service.js';
import { hasTestEnvironment, keyTierOf } from '../accounts/capabilities.rules.js';
import { fail, intInRange, ipList, oneOf, originList, requiredText } from '../validation.js';
import { APP_RATE_LIMIT } from '../apps/app.entity.js';
import { ApiKeyEntity, KEY_ENVIRONMENTS, KEY_TYPES } from './api-key.entity.js';
import type { CreateApiKeyInput, KeyUsageInput } from './api-key.inputs.js';
import { generateKey, resolveScopes } from './api-key.rules.js';
import { addUsage, findKeyByHash, type UsageRow } from './api-key.repository.js';
import type { ApiKeyVerification } from './api-key.type.js';
import { activePlanOf } from '../subscriptions/subscription.repository.js';

export const MAX_USAGE_BATCH = 10_000;

export async function listApiKeys(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<ApiKeyEntity[]> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  return ctx.loaders.apiKeysByApp.load(app.id);
}

export async function createApiKey(
  ctx: PlatformContext,
  accountUrlId: string,
  appId: string,
  input: CreateApiKeyInput,
): Promise<{ key: ApiKeyEntity; value: string }> {
  const { account, app } = await getApp(ctx, accountUrlId, appId);
  const name = requiredText(input.name, 'name', 200);
  if (input.keyType == null) fail('key_type', `key_type is required (${KEY_TYPES.join(' or ')})`);
  const keyType = oneOf(input.keyType, KEY_TYPES, 'key_type', 'secret');
  const environment: Environment = oneOf(input.environment, KEY_ENVIRONMENTS, 'environment', 'live');
  if (environment === 'test' && !hasTestEnvironment(account.deploymentModel)) {
    fail('environment', 'shared_cloud accounts have no staging environment: every key is a live key');
  }
  const scopes = resolveScopes(keyType, input.scopes);
  const rateLimitPerMinute = intInRange(input.rateLimitPerMinute, 'rate_limit_per_minute', APP_RATE_LIMIT.min, APP_RATE_LIMIT.max);
  if (input.expiresAt != null && !(input.expiresAt.getTime() > Date.now())) fail('expires_at', 'expires_at must be in the future');

  const generated = generateKey(keyType, environment, keyTierOf(account.deploymentModel));
  const key = ctx.em.create(ApiKeyEntity, {
    app,
    platform: app.platform,
    name,
    keyType,
    environment,
    scopes,
    rateLimitPerMinute: rateLimitPerMinute ?? null,
    allowedIps: ipList(input.allowedIps),
    allowedOrigins: originList(input.allowedOrigins),
    expiresAt: input.expiresAt ?? null,
    keyHash: generated.hash,
    keyPrefix: generated.prefix,
    lastFour: generated.lastFour,
  });
  await ctx.em.flush();
  return { key, value: generated.value };
}

function requireService(ctx: PlatformContext): void {
  if (ctx.tenant.kind !== 'service') throw new DomainError('FORBIDDEN', 'Internal operation: gateway only');
}

/** Internal (gateway): the key with this hash for this app, or null. */
export async function verifyApiKey(ctx: PlatformContext, appId: string, keyHash: string): Promise<ApiKeyVerification | null> {
  requireService(ctx);
  if (!/^[0-9a-f]{64}$/.test(keyHash)) return null;
  const key = await findKeyByHash(ctx.em, appId, keyHash);
  if (!key) return null;
  const app = key.app;
  const account = app.account;
  return {
    keyId: key.id,
    appId: app.id,
    accountId: account.id,
    platformId: account.platform.id,
    platformCode: account.platform.code,
    environment: key.environment,
    keyType: key.keyType,
    scopes: key.scopes ?? [],
    rateLimitPerMinute: key.rateLimitPerMinute ?? app.rateLimitPerMinute,
    allowedIps: key.allowedIps ?? [],
    allowedOrigins: key.allowedOrigins ?? [],
    expiresAt: key.expiresAt ?? undefined,
    revoked: key.revokedAt != null,
    appStatus: app.status,
    accountStatus: account.deletedAt ? 'closed' : account.status,
    deploymentModel: account.deploymentModel,
    plan: await activePlanOf(ctx.em, account.id),
  };
}

/** Internal (gateway): add counted usage; duplicates of one key in a batch are summed first. */
export async function recordKeyUsage(ctx: PlatformContext, usage: KeyUsageInput[]): Promise<boolean> {
  requireService(ctx);
  if (usage.length > MAX_USAGE_BATCH) fail('usage', `at most ${MAX_USAGE_BATCH} entries per batch`);
  const merged = new Map<string, UsageRow>();
  for (const u of usage) {
    if (!Number.isInteger(u.count) || u.count < 0) fail('usage', 'count must be a non-negative integer');
    const at = u.lastUsedAt ?? null;
    const prev = merged.get(u.keyId);
    if (!prev) merged.set(u.keyId, { keyId: u.keyId, count: u.count, lastUsedAt: at });
    else {
      prev.count += u.count;
      if (at && (!prev.lastUsedAt || at > prev.lastUsedAt)) prev.lastUsedAt = at;
    }
  }
  await addUsage(ctx.em, [...merged.values()]);
  return true;
}
