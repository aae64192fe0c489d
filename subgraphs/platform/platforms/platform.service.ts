// Platforms: the root of the tenancy tree, managed by platform:admin callers only (resolver).
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { checkUrlId, insertWithUrlId, oneOf, optionalEmail, optionalHttpUrl, optionalText, requiredText, slugify, suffixedUrlId, uniqueConstraintOf, fail } from '../validation.js';
import { PLATFORM_STATUSES, PlatformEntity } from './platform.entity.js';
import type { CreatePlatformInput, UpdatePlatformInput } from './platform.inputs.js';
import { publishKeysInvalidated } from '../events.js';
import { PLATFORM_SCOPES } from '../../../lib/tenant.js';
import { operatedPlatformIds, requirePlatformAccess } from './platform-access.js';
import { PlatformOperatorEntity } from './platform-operator.entity.js';

export const PLATFORM_CODE_RE = /^[a-z0-9][a-z0-9_-]{1,62}$/;

/** One PostgreSQL schema name per platform; code characters other than [a-z0-9_] become `_`. */
export function schemaNameFor(code: string): string {
  return `tenant_${code.replace(/[^a-z0-9_]/g, '_')}`;
}

/**
 * The platforms the caller operates (docs/security.md): a super-admin token sees every one, a token
 * bound to one platform (JWT `platform` claim) that one, everyone else those of their operator records.
 */
export async function listPlatforms(ctx: PlatformContext): Promise<PlatformEntity[]> {
  const ids = await operatedPlatformIds(ctx.em, ctx.tenant);
  return ctx.em.find(PlatformEntity, { deletedAt: null, ...(ids ? { id: { $in: ids } } : {}) }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/**
 * By unique_id, url_id or code: REST clients use any of the three in /platforms/:unique_id. A platform
 * the caller does not reach (platform-access.ts) is PLATFORM_NOT_FOUND like one that does not exist;
 * `scope`: the operator record must grant it too (403 otherwise).
 */
export async function getPlatform(ctx: PlatformContext, idOrCode: string, opts: PlatformLookup = {}): Promise<PlatformEntity> {
  return (await reachPlatform(ctx, idOrCode, opts)).platform;
}

interface PlatformLookup {
  includeDeleted?: boolean;
  scope?: string;
  parameter?: string;
}

/** getPlatform, with the scopes the caller has there (its token's, capped to its operator record's). */
export async function reachPlatform(ctx: PlatformContext, idOrCode: string, opts: PlatformLookup = {}): Promise<{ platform: PlatformEntity; scopes: string[] }> {
  const key = idOrCode.trim();
  const parameter = opts.parameter ?? 'id';
  const live = opts.includeDeleted ? {} : { deletedAt: null };
  const rows = key ? await ctx.em.find(PlatformEntity, { $or: [{ id: key }, { urlId: key }, { code: key }], ...live }) : [];
  // an id match wins over a url_id or code that happens to look the same
  const found = rows.find((r) => r.id === key) ?? rows.find((r) => r.urlId === key) ?? rows[0];
  if (!found) throw new DomainError('PLATFORM_NOT_FOUND', `Platform ${idOrCode} not found`, { parameter });
  const scopes = await requirePlatformAccess(ctx.em, ctx.tenant, found, idOrCode, parameter, opts.scope);
  return { platform: found, scopes };
}

export async function createPlatform(ctx: PlatformContext, input: CreatePlatformInput): Promise<PlatformEntity> {
  if (ctx.tenant.boundPlatform) throw new DomainError('FORBIDDEN', 'A token bound to one platform cannot create platforms');
  const code = input.code?.trim() ?? '';
  if (!PLATFORM_CODE_RE.test(code)) fail('code', 'code must be 2-63 characters: lower-case letters, digits, "_" or "-", starting with a letter or digit');
  const name = requiredText(input.name, 'name', 200);
  const explicitUrlId = input.urlId != null ? checkUrlId(input.urlId.trim()) : undefined;
  const status = oneOf(input.status, PLATFORM_STATUSES, 'status', 'active');
  const fields = {
    code,
    name,
    description: optionalText(input.description, 'description', 5000),
    email: optionalEmail(input.email),
    website: optionalHttpUrl(input.website, 'website'),
    status,
    enabled: input.enabled ?? true,
    schemaName: schemaNameFor(code),
    settings: input.settings ?? {},
    metadata: input.metadata ?? {},
  };

  const candidates = explicitUrlId ? [explicitUrlId] : [slugify(name), slugify(code)].filter(Boolean);
  const taken = await ctx.em.find(PlatformEntity, { $or: [{ code }, { urlId: { $in: candidates } }] });
  if (taken.some((p) => p.code === code)) throw new DomainError('CODE_ALREADY_EXISTS', `Platform code "${code}" is already in use`, { parameter: 'code' });
  const used = new Set(taken.map((p) => p.urlId));
  if (explicitUrlId && used.has(explicitUrlId)) {
    throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${explicitUrlId}" is already in use`, { parameter: 'urlId' });
  }
  const urlId = candidates.find((c) => !used.has(c)) ?? suffixedUrlId(slugify(code));

  const platform = ctx.em.create(PlatformEntity, { ...fields, urlId });
  // the creator operates what it created: its owner record is written in the same flush
  const creator = ctx.tenant.kind === 'user' ? ctx.tenant.userId : undefined;
  if (creator) ctx.em.create(PlatformOperatorEntity, { platform, userId: creator, scopes: [...PLATFORM_SCOPES], role: 'owner' });
  try {
    // a derived url_id taken meanwhile by a concurrent create is replaced (insertWithUrlId)
    await insertWithUrlId(urlId, explicitUrlId ? undefined : slugify(code), async (u) => {
      platform.urlId = u;
      await ctx.em.flush();
    });
  } catch (e) {
    // a concurrent create won the race for the code, or for the caller's own url_id
    const constraint = uniqueConstraintOf(e);
    if (constraint?.includes('url_id')) throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${platform.urlId}" is already in use`, { parameter: 'urlId' });
    if (constraint !== undefined) throw new DomainError('CODE_ALREADY_EXISTS', `Platform code "${code}" is already in use`, { parameter: 'code' });
    throw e;
  }
  return platform;
}

export async function updatePlatform(ctx: PlatformContext, idOrCode: string, input: UpdatePlatformInput): Promise<PlatformEntity> {
  const platform = await getPlatform(ctx, idOrCode, { scope: 'platform:admin' });
  if (input.code != null && input.code.trim() !== platform.code) fail('code', 'code cannot be changed: it is the X-Platform value every client sends');
  if (input.name !== undefined) platform.name = requiredText(input.name, 'name', 200);
  if (input.description !== undefined) platform.description = optionalText(input.description, 'description', 5000);
  if (input.email !== undefined) platform.email = optionalEmail(input.email);
  if (input.website !== undefined) platform.website = optionalHttpUrl(input.website, 'website');
  if (input.status != null) platform.status = oneOf(input.status, PLATFORM_STATUSES, 'status', platform.status);
  if (input.enabled != null) platform.enabled = input.enabled;
  if (input.settings !== undefined) platform.settings = input.settings ?? {};
  if (input.metadata !== undefined) platform.metadata = input.metadata ?? {};
  if (input.urlId != null && input.urlId.trim() !== platform.urlId) {
    const urlId = checkUrlId(input.urlId.trim());
    if (await ctx.em.count(PlatformEntity, { urlId, id: { $ne: platform.id } })) {
      throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${urlId}" is already in use`, { parameter: 'urlId' });
    }
    platform.urlId = urlId;
  }
  try {
    await ctx.em.flush();
  } catch (e) {
    if (uniqueConstraintOf(e) !== undefined) throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${platform.urlId}" is already in use`, { parameter: 'urlId' });
    throw e;
  }
  // status/enabled decide whether the platform's keys work: gateways drop their cached records
  await publishKeysInvalidated(ctx, { platformIds: [platform.id] }, 'platform.updated');
  return platform;
}

/**
 * Soft delete (operators only): refused with 409 while the platform still has live accounts, so
 * customers are never cut off by one call; its code stays reserved and restorePlatform undoes it.
 */
export async function deletePlatform(ctx: PlatformContext, idOrCode: string): Promise<PlatformEntity> {
  const platform = await getPlatform(ctx, idOrCode, { scope: 'platform:admin' }); // first: a foreign platform is a 404, never a 403
  if (ctx.tenant.boundPlatform) throw new DomainError('FORBIDDEN', 'A token bound to one platform cannot delete platforms');
  const live = await ctx.loaders.liveAccountCountByPlatform.load(platform.id); // the account aggregate's loader
  if (live > 0) {
    throw new DomainError('PLATFORM_NOT_EMPTY', `Platform ${platform.code} still has ${live} account(s); delete them first`, { parameter: 'uniqueId', meta: { accounts: live } });
  }
  platform.deletedAt = new Date();
  await ctx.em.flush();
  await publishKeysInvalidated(ctx, { platformIds: [platform.id] }, 'platform.deleted');
  return platform;
}

/** Undo deletePlatform; restoring a live platform changes nothing. */
export async function restorePlatform(ctx: PlatformContext, idOrCode: string): Promise<PlatformEntity> {
  const platform = await getPlatform(ctx, idOrCode, { includeDeleted: true, scope: 'platform:admin' });
  if (ctx.tenant.boundPlatform) throw new DomainError('FORBIDDEN', 'A token bound to one platform cannot restore platforms');
  if (platform.deletedAt) {
    platform.deletedAt = null;
    await ctx.em.flush();
  }
  return platform;
}
