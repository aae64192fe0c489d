// Accounts of the caller's platform. The `platform` filter (../tenancy.ts) limits every query here
// to that platform, so an account of another platform is simply not found (404).
import { DomainError } from '../../../lib/errors.js';
import { base62 } from '../../../lib/ids.js';
import type { PlatformContext } from '../context.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { checkUrlId, fail, oneOf, optionalDomain, optionalText, requiredText, slugify, uniqueConstraintOf } from '../validation.js';
import { ACCOUNT_STATUSES, AccountEntity } from './account.entity.js';
import type { CreateAccountInput } from './account.inputs.js';
import { DEPLOYMENT_MODELS } from './capabilities.rules.js';

export const ACCOUNT_CODE_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const LANGUAGE_RE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

export async function listAccounts(ctx: PlatformContext): Promise<AccountEntity[]> {
  return ctx.em.find(AccountEntity, { deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** A live (not soft-deleted) account of the caller's platform; ACCOUNT_NOT_FOUND otherwise. */
export async function getAccount(ctx: PlatformContext, urlId: string): Promise<AccountEntity> {
  const account = await ctx.loaders.accountByUrlId.load(urlId);
  if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', `Account ${urlId} not found`, { parameter: 'url_id' });
  return account;
}

export async function createAccount(ctx: PlatformContext, input: CreateAccountInput): Promise<AccountEntity> {
  const platformId = await ctx.loaders.scope.platformId();
  const name = requiredText(input.name, 'name', 200);
  const code = input.code?.trim() ?? '';
  if (!ACCOUNT_CODE_RE.test(code)) fail('code', 'code must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  const explicitUrlId = input.urlId != null ? checkUrlId(input.urlId.trim()) : undefined;
  const language = optionalText(input.preferredLanguage, 'preferred_language', 35);
  if (language !== undefined && !LANGUAGE_RE.test(language)) fail('preferred_language', 'preferred_language must be a language tag such as en or pt-BR');
  const fields = {
    name,
    code,
    status: oneOf(input.status, ACCOUNT_STATUSES, 'status', 'active'),
    deploymentModel: oneOf(input.deploymentModel, DEPLOYMENT_MODELS, 'deployment_model', 'shared_cloud'),
    preferredDomain: optionalDomain(input.preferredDomain),
    preferredLanguage: language,
  };

  // Soft-deleted accounts are included on purpose: their code and url_id stay reserved.
  const candidates = explicitUrlId ? [explicitUrlId] : [slugify(name), slugify(code)].filter(Boolean);
  const taken = await ctx.em.find(AccountEntity, { $or: [{ code }, { urlId: { $in: candidates } }] });
  if (taken.some((a) => a.code === code)) throw new DomainError('CODE_ALREADY_EXISTS', `Account code "${code}" is already in use`, { parameter: 'code' });
  const used = new Set(taken.map((a) => a.urlId));
  if (explicitUrlId && used.has(explicitUrlId)) {
    throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${explicitUrlId}" is already in use`, { parameter: 'url_id' });
  }
  const base = candidates[0] ?? 'account';
  const urlId = candidates.find((c) => !used.has(c)) ?? `${base.slice(0, 57)}-${base62(6).toLowerCase()}`;

  const account = ctx.em.create(AccountEntity, { ...fields, urlId, platform: ctx.em.getReference(PlatformEntity, platformId) });
  try {
    await ctx.em.flush();
  } catch (e) {
    const constraint = uniqueConstraintOf(e);
    if (constraint?.includes('url_id')) throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${urlId}" is already in use`, { parameter: 'url_id' });
    if (constraint !== undefined) throw new DomainError('CODE_ALREADY_EXISTS', `Account code "${code}" is already in use`, { parameter: 'code' });
    throw e;
  }
  ctx.loaders.accountByUrlId.prime(account.urlId, account);
  return account;
}
