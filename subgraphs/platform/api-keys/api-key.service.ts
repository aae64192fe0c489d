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
import { addUsage, findKeyByHash, replaceKeyValue, revokeKey, type UsageRow } from './api-key.repository.js';
import { publishKeysInvalidated } from '../events.js';
import type { ApiKeyVerification } from './api-key.type.js';
import { activePlanOf } from '../subscriptions/subscription.repository.js';

export const MAX_USAGE_BATCH = 10_000;
/** rotate_secret keeps the old value valid this long unless the caller says otherwise (Stripe's roll) */
export const ROTATION_GRACE = { defaultSeconds: 24 * 3600, maxSeconds: 7 * 24 * 3600 } as const;

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
  if (input.keyType == null) fail('keyType', `key_type is required (${KEY_TYPES.join(' or ')})`);
  const keyType = oneOf(input.keyType, KEY_TYPES, 'keyType', 'secret');
  const environment: Environment = oneOf(input.environment, KEY_ENVIRONMENTS, 'environment', 'live');
  if (environment === 'test' && !hasTestEnvironment(account.deploymentModel)) {
    fail('environment', 'shared_cloud accounts have no staging environment: every key is a live key');
  }
  const scopes = resolveScopes(keyType, input.scopes);
  const rateLimitPerMinute = intInRange(input.rateLimitPerMinute, 'rateLimitPerMinute', APP_RATE_LIMIT.min, APP_RATE_LIMIT.max);
  if (input.expiresAt != null && !(input.expiresAt.getTime() > Date.now())) fail('expiresAt', 'expires_at must be in the future');

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

/** A live (not revoked) key of the app `appId` of the account `accountUrlId`; API_KEY_NOT_FOUND otherwise. */
export async function getApiKey(ctx: PlatformContext, accountUrlId: string, appId: string, keyId: string): Promise<{ key: ApiKeyEntity; tier: 'sh' | 'ent' | 'byok' }> {
  const { account, app } = await getApp(ctx, accountUrlId, appId);
  const key = await ctx.loaders.apiKeyById.load(keyId);
  if (!key || key.app.id !== app.id) throw new DomainError('API_KEY_NOT_FOUND', `API key ${keyId} not found`, { parameter: 'id' });
  return { key, tier: keyTierOf(account.deploymentModel) };
}

/** The key after a committed value change, read fresh (the conditional UPDATE bypassed the identity map). */
async function reload(ctx: PlatformContext, key: ApiKeyEntity): Promise<ApiKeyEntity> {
  await ctx.em.refresh(key);
  return key;
}

/** A new value at once; the old one (and any grace value of an earlier rotation) stops working. */
export async function regenerateApiKey(ctx: PlatformContext, accountUrlId: string, appId: string, keyId: string): Promise<{ key: ApiKeyEntity; value: string }> {
  const { key, tier } = await getApiKey(ctx, accountUrlId, appId, keyId);
  const g = generateKey(key.keyType, key.environment, tier);
  const ok = await replaceKeyValue(ctx.em, key.id, key.keyHash, { keyHash: g.hash, keyPrefix: g.prefix, lastFour: g.lastFour, previousKeyHash: null, previousKeyExpiresAt: null });
  if (!ok) throw new DomainError('API_KEY_CHANGED', `API key ${keyId} was changed or revoked by another request; list the keys and retry`, { parameter: 'id' });
  await publishKeysInvalidated(ctx, { keyIds: [key.id] }, 'key.regenerated');
  return { key: await reload(ctx, key), value: g.value };
}

/** A new value; the current one stays valid for `graceSeconds` (default 24 h), then expires. */
export async function rotateApiKeySecret(
  ctx: PlatformContext,
  accountUrlId: string,
  appId: string,
  keyId: string,
  graceSeconds: number = ROTATION_GRACE.defaultSeconds,
): Promise<{ key: ApiKeyEntity; value: string }> {
  const grace = intInRange(graceSeconds, 'gracePeriodSeconds', 0, ROTATION_GRACE.maxSeconds) ?? ROTATION_GRACE.defaultSeconds;
  const { key, tier } = await getApiKey(ctx, accountUrlId, appId, keyId);
  const g = generateKey(key.keyType, key.environment, tier);
  let previousKeyExpiresAt = grace > 0 ? new Date(Date.now() + grace * 1000) : null;
  // the old value never outlives the key itself
  if (previousKeyExpiresAt && key.expiresAt && key.expiresAt < previousKeyExpiresAt) previousKeyExpiresAt = key.expiresAt;
  const ok = await replaceKeyValue(ctx.em, key.id, key.keyHash, {
    keyHash: g.hash,
    keyPrefix: g.prefix,
    lastFour: g.lastFour,
    previousKeyHash: previousKeyExpiresAt ? key.keyHash : null,
    previousKeyExpiresAt,
  });
  if (!ok) throw new DomainError('API_KEY_CHANGED', `API key ${keyId} was changed or revoked by another request; list the keys and retry`, { parameter: 'id' });
  await publishKeysInvalidated(ctx, { keyIds: [key.id] }, 'key.rotated');
  return { key: await reload(ctx, key), value: g.value };
}

/** Revoke (the REST DELETE): the key leaves the lists and stops working at once; the row stays for the records. */
export async function revokeApiKey(ctx: PlatformContext, accountUrlId: string, appId: string, keyId: string): Promise<ApiKeyEntity> {
  const { key } = await getApiKey(ctx, accountUrlId, appId, keyId);
  if (!(await revokeKey(ctx.em, key.id))) throw new DomainError('API_KEY_NOT_FOUND', `API key ${keyId} not found`, { parameter: 'id' });
  await publishKeysInvalidated(ctx, { keyIds: [key.id] }, 'key.revoked');
  return reload(ctx, key);
}

function requireService(ctx: PlatformContext): void {
  if (ctx.tenant.kind !== 'service') throw new DomainError('FORBIDDEN', 'Internal operation: gateway only');
}

/** Internal (gateway): the key with this hash for this app, or null. */
export async function verifyApiKey(ctx: PlatformContext, appId: string, keyHash: string): Promise<ApiKeyVerification | null> {
  requireService(ctx);
  if (!/^[0-9a-f]{64}$/.test(keyHash)) return null;
  const found = await findKeyByHash(ctx.em, appId, keyHash);
  if (!found || found.key.app.deletedAt) return null;
  const { key, previous } = found;
  const app = key.app;
  const account = app.account;
  const platform = account.platform;
  // a value replaced by rotate_secret is valid until its grace period ends (or the key expires, if sooner)
  const expiresAt = previous && key.previousKeyExpiresAt && (!key.expiresAt || key.previousKeyExpiresAt < key.expiresAt) ? key.previousKeyExpiresAt : key.expiresAt;
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
    appRateLimitPerMinute: app.rateLimitPerMinute,
    keyRateLimitPerMinute: key.rateLimitPerMinute ?? undefined,
    allowedIps: key.allowedIps ?? [],
    allowedOrigins: key.allowedOrigins ?? [],
    appAllowedOrigins: app.allowedOrigins ?? [],
    expiresAt: expiresAt ?? undefined,
    revoked: key.revokedAt != null,
    platformActive: !platform.deletedAt && platform.enabled && platform.status === 'active',
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
