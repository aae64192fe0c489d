// Accounts of the caller's platform. The `tenant` filter (../tenancy.ts) limits every query here
// to that platform, so an account of another platform is simply not found (404).
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { publishKeysInvalidated } from '../events.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { checkUrlId, fail, insertWithUrlId, oneOf, optionalDomain, optionalText, requiredText, slugify, suffixedUrlId, uniqueConstraintOf } from '../validation.js';
import { ACCOUNT_STATUSES, AccountEntity } from './account.entity.js';
import type { CreateAccountInput, UpdateAccountInput } from './account.inputs.js';
import { findGlobalAccounts } from './account.repository.js';
import { operatedPlatformIds } from '../platforms/platform-access.js';
import { DEPLOYMENT_MODELS, hasTestEnvironment } from './capabilities.rules.js';

export const ACCOUNT_CODE_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const LANGUAGE_RE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;
export const ACCOUNT_PAGE = { defaultSize: 50, maxSize: 200 } as const;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

function checkPage(page: number, pageSize: number): void {
  if (!Number.isInteger(page) || page < 1) throw new DomainError('BAD_REQUEST', 'page must be an integer >= 1', { parameter: 'page' });
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > ACCOUNT_PAGE.maxSize) {
    throw new DomainError('BAD_REQUEST', `pageSize must be an integer from 1 to ${ACCOUNT_PAGE.maxSize}`, { parameter: 'pageSize' });
  }
}

/** Live accounts of the caller's platform, oldest first (creation order is what operators scan). */
export async function listAccounts(ctx: PlatformContext, page = 1, pageSize: number = ACCOUNT_PAGE.defaultSize): Promise<Page<AccountEntity>> {
  checkPage(page, pageSize);
  const [items, total] = await ctx.em.findAndCount(
    AccountEntity,
    { deletedAt: null },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: pageSize, offset: (page - 1) * pageSize },
  );
  return { items, total, page, pageSize };
}

/** Accounts of the platforms the caller administers (a super-admin: every platform), newest first. */
export async function listGlobalAccounts(ctx: PlatformContext, page = 1, pageSize: number = ACCOUNT_PAGE.defaultSize, includeDeleted = false): Promise<Page<AccountEntity>> {
  checkPage(page, pageSize);
  const platformIds = await operatedPlatformIds(ctx.em, ctx.tenant, 'platform:admin');
  const r = await findGlobalAccounts(ctx.em, { page, pageSize, includeDeleted, platformIds });
  return { ...r, page, pageSize };
}

/**
 * A live (not soft-deleted) account of the caller's platform, by url_id or by unique_id (ids carry
 * an `_`, which url_ids never do); ACCOUNT_NOT_FOUND otherwise.
 */
export async function getAccount(ctx: PlatformContext, ref: string): Promise<AccountEntity> {
  const account = ref.includes('_') ? await ctx.loaders.accountById.load(ref) : await ctx.loaders.accountByUrlId.load(ref);
  if (!account || account.deletedAt) throw new DomainError('ACCOUNT_NOT_FOUND', `Account ${ref} not found`, { parameter: 'urlId' });
  return account;
}

function checkCode(raw: string | undefined | null): string {
  const code = raw?.trim() ?? '';
  if (!ACCOUNT_CODE_RE.test(code)) fail('code', 'code must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  return code;
}

function checkLanguage(raw: string | undefined | null): string | undefined {
  const language = optionalText(raw, 'preferredLanguage', 35);
  if (language !== undefined && !LANGUAGE_RE.test(language)) fail('preferredLanguage', 'preferred_language must be a language tag such as en or pt-BR');
  return language;
}

/** A unique-constraint failure of a concurrent writer, as the 409 the pre-check would have given. */
function rethrowUnique(e: unknown, code: string, urlId: string): never {
  const constraint = uniqueConstraintOf(e);
  if (constraint?.includes('url_id')) throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${urlId}" is already in use`, { parameter: 'urlId' });
  if (constraint !== undefined) throw new DomainError('CODE_ALREADY_EXISTS', `Account code "${code}" is already in use`, { parameter: 'code' });
  throw e;
}

export async function createAccount(ctx: PlatformContext, input: CreateAccountInput): Promise<AccountEntity> {
  const platformId = await ctx.loaders.scope.platformId();
  const name = requiredText(input.name, 'name', 200);
  const code = checkCode(input.code);
  const explicitUrlId = input.urlId != null ? checkUrlId(input.urlId.trim()) : undefined;
  const fields = {
    name,
    code,
    status: oneOf(input.status, ACCOUNT_STATUSES, 'status', 'active'),
    deploymentModel: oneOf(input.deploymentModel, DEPLOYMENT_MODELS, 'deploymentModel', 'shared_cloud'),
    preferredDomain: optionalDomain(input.preferredDomain),
    preferredLanguage: checkLanguage(input.preferredLanguage),
  };

  // Soft-deleted accounts are included on purpose: their code and url_id stay reserved.
  const candidates = explicitUrlId ? [explicitUrlId] : [slugify(name), slugify(code)].filter(Boolean);
  const taken = await ctx.em.find(AccountEntity, { $or: [{ code }, { urlId: { $in: candidates } }] });
  if (taken.some((a) => a.code === code)) throw new DomainError('CODE_ALREADY_EXISTS', `Account code "${code}" is already in use`, { parameter: 'code' });
  const used = new Set(taken.map((a) => a.urlId));
  if (explicitUrlId && used.has(explicitUrlId)) {
    throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${explicitUrlId}" is already in use`, { parameter: 'urlId' });
  }
  const base = candidates[0] ?? 'account';
  const urlId = candidates.find((c) => !used.has(c)) ?? suffixedUrlId(base);

  let account: AccountEntity;
  try {
    // a derived url_id taken meanwhile by a concurrent create is replaced (insertWithUrlId)
    account = await insertWithUrlId(urlId, explicitUrlId ? undefined : base, (u) =>
      ctx.runtime.accountEvents.transaction(ctx, async (tx) => {
        const a = tx.em.create(AccountEntity, { ...fields, urlId: u, platform: tx.em.getReference(PlatformEntity, platformId) });
        await tx.em.flush(); // a duplicate code or url_id fails here, before anything else is written
        await tx.runtime.accountEvents.record(tx, { account: a, event: 'account.created', data: accountEventData(a) });
        return a;
      }),
    );
  } catch (e) {
    rethrowUnique(e, code, urlId);
  }
  ctx.loaders.accountByUrlId.prime(account.urlId, account);
  return account;
}

/** What account events carry: the account as REST shows its main attributes (snake_case). */
export function accountEventData(a: AccountEntity): Record<string, unknown> {
  return {
    account_id: a.id,
    url_id: a.urlId,
    code: a.code,
    name: a.name,
    status: a.status,
    deployment_model: a.deploymentModel,
    preferred_domain: a.preferredDomain ?? null,
    preferred_language: a.preferredLanguage ?? null,
    domain_verified: a.domainVerified,
    deleted_at: a.deletedAt?.toISOString() ?? null,
  };
}

export async function updateAccount(ctx: PlatformContext, ref: string, input: UpdateAccountInput): Promise<AccountEntity> {
  const account = await getAccount(ctx, ref);
  const before = accountEventData(account);
  if (input.name !== undefined) account.name = requiredText(input.name, 'name', 200);
  if (input.status != null) account.status = oneOf(input.status, ACCOUNT_STATUSES, 'status', account.status);
  if (input.preferredLanguage !== undefined) account.preferredLanguage = checkLanguage(input.preferredLanguage);
  if (input.preferredDomain !== undefined) {
    const domain = optionalDomain(input.preferredDomain);
    if (domain !== account.preferredDomain) {
      // a new domain has to be proven again
      account.preferredDomain = domain;
      account.domainVerified = false;
      account.domainVerificationToken = null;
      account.domainVerifiedAt = null;
    }
  }
  if (input.deploymentModel != null && input.deploymentModel !== account.deploymentModel) {
    const model = oneOf(input.deploymentModel, DEPLOYMENT_MODELS, 'deploymentModel', account.deploymentModel);
    if (!hasTestEnvironment(model)) {
      const testKeys = await ctx.loaders.testKeyCountByAccount.load(account.id);
      if (testKeys > 0) {
        throw new DomainError('DEPLOYMENT_MODEL_CONFLICT', `${model} has no staging environment, but the account has ${testKeys} active test key(s); revoke them first`, {
          parameter: 'deploymentModel',
        });
      }
    }
    account.deploymentModel = model; // capabilities are derived on read, so they follow at once
  }
  const wanted = {
    code: input.code != null && input.code.trim() !== account.code ? checkCode(input.code) : undefined,
    urlId: input.urlId != null && input.urlId.trim() !== account.urlId ? checkUrlId(input.urlId.trim()) : undefined,
  };
  if (wanted.code || wanted.urlId) {
    const or = [...(wanted.code ? [{ code: wanted.code }] : []), ...(wanted.urlId ? [{ urlId: wanted.urlId }] : [])];
    const taken = await ctx.em.find(AccountEntity, { $or: or, id: { $ne: account.id } });
    if (wanted.code && taken.some((a) => a.code === wanted.code)) throw new DomainError('CODE_ALREADY_EXISTS', `Account code "${wanted.code}" is already in use`, { parameter: 'code' });
    if (wanted.urlId && taken.some((a) => a.urlId === wanted.urlId)) throw new DomainError('URL_ID_ALREADY_EXISTS', `url_id "${wanted.urlId}" is already in use`, { parameter: 'urlId' });
    if (wanted.code) account.code = wanted.code;
    if (wanted.urlId) account.urlId = wanted.urlId;
  }
  const after = accountEventData(account);
  const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
  try {
    await ctx.runtime.accountEvents.transaction(ctx, async (tx) => {
      await tx.em.flush();
      // a PUT that changes nothing is not an event
      if (changed.length) await tx.runtime.accountEvents.record(tx, { account, event: 'account.updated', data: { ...after, changed } });
    });
  } catch (e) {
    rethrowUnique(e, account.code, account.urlId);
  }
  await publishKeysInvalidated(ctx, { accountIds: [account.id] }, 'account.updated');
  return account;
}

/** platform:admin: undo a soft delete (url_id and code were kept reserved); a live account is returned as is. */
export async function restoreAccount(ctx: PlatformContext, ref: string): Promise<AccountEntity> {
  const account = await ctx.em.findOne(AccountEntity, ref.includes('_') ? { id: ref } : { urlId: ref });
  if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', `Account ${ref} not found`, { parameter: 'urlId' });
  if (account.deletedAt) {
    await ctx.runtime.accountEvents.transaction(ctx, async (tx) => {
      account.deletedAt = null;
      await tx.em.flush();
      await tx.runtime.accountEvents.record(tx, { account, event: 'account.restored', data: accountEventData(account) });
    });
    await publishKeysInvalidated(ctx, { accountIds: [account.id] }, 'account.restored');
  }
  return account;
}
