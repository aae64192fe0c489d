// Platforms: the root of the tenancy tree, managed by platform:admin callers only (resolver).
import { DomainError } from '../../../lib/errors.js';
import { base62 } from '../../../lib/ids.js';
import type { PlatformContext } from '../context.js';
import { checkUrlId, oneOf, optionalEmail, optionalHttpUrl, optionalText, requiredText, slugify, uniqueConstraintOf, fail } from '../validation.js';
import { PLATFORM_STATUSES, PlatformEntity } from './platform.entity.js';
import type { CreatePlatformInput } from './platform.inputs.js';

export const PLATFORM_CODE_RE = /^[a-z0-9][a-z0-9_-]{1,62}$/;

/** One PostgreSQL schema name per platform; code characters other than [a-z0-9_] become `_`. */
export function schemaNameFor(code: string): string {
  return `tenant_${code.replace(/[^a-z0-9_]/g, '_')}`;
}

// A token bound to one platform (JWT `platform` claim) sees only that platform and creates none.
export async function listPlatforms(ctx: PlatformContext): Promise<PlatformEntity[]> {
  const bound = ctx.tenant.boundPlatform;
  return ctx.em.find(PlatformEntity, bound ? { code: bound } : {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** By unique_id, url_id or code: REST clients use any of the three in /platforms/:unique_id. */
export async function getPlatform(ctx: PlatformContext, idOrCode: string): Promise<PlatformEntity> {
  const key = idOrCode.trim();
  const rows = key ? await ctx.em.find(PlatformEntity, { $or: [{ id: key }, { urlId: key }, { code: key }] }) : [];
  // an id match wins over a url_id or code that happens to look the same
  const found = rows.find((r) => r.id === key) ?? rows.find((r) => r.urlId === key) ?? rows[0];
  if (!found || (ctx.tenant.boundPlatform && found.code !== ctx.tenant.boundPlatform)) throw new DomainError('PLATFORM_NOT_FOUND', `Platform ${idOrCode} not found`, { parameter: 'id' });
  return found;
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
    throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${explicitUrlId}" is already in use`, { parameter: 'url_id' });
  }
  const urlId = candidates.find((c) => !used.has(c)) ?? `${slugify(code).slice(0, 57)}-${base62(6).toLowerCase()}`;

  const platform = ctx.em.create(PlatformEntity, { ...fields, urlId });
  try {
    await ctx.em.flush();
  } catch (e) {
    // a concurrent create won the race between the check above and this insert
    const constraint = uniqueConstraintOf(e);
    if (constraint?.includes('url_id')) throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${urlId}" is already in use`, { parameter: 'url_id' });
    if (constraint !== undefined) throw new DomainError('CODE_ALREADY_EXISTS', `Platform code "${code}" is already in use`, { parameter: 'code' });
    throw e;
  }
  return platform;
}
