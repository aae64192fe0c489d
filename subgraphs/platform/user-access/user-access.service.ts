// User access records: grant, the state moves (suspend, reactivate, revoke: user-access.rules.ts),
// and the "what can this user reach" views. Scoped to the X-Platform platform by the platform
// filter: a foreign record, account or app is a 404.
//
// Decisions (docs/platform-blocks-and-access.md): an ACTIVE account grant reaches every app of the
// account; an app grant reaches that app only and does not make the user a member of the account.
// Granting what the user already has (same target, same role, active) returns the existing record
// (idempotent); a different role, or a suspended record, is ACCESS_ALREADY_EXISTS (409).
// A new grant and every state move record their account event (access.granted, access.suspended,
// access.reactivated, access.revoked) in the transaction of the change.
import { DomainError } from '../../../lib/errors.js';
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import type { PlatformContext } from '../context.js';
import type { AccountEntity } from '../accounts/account.entity.js';
import type { AppEntity } from '../apps/app.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { fail, oneOf } from '../validation.js';
import { UserAccessEntity } from './user-access.entity.js';
import type { GrantUserAccessInput } from './user-access.inputs.js';
import { insertGrant, type GrantRow } from './user-access.repository.js';
import {
  ACCESS_ROLES,
  ACCESS_STATUSES,
  DEFAULT_ROLE,
  nextStatus,
  strongerRole,
  TRANSITIONS,
  type AccessAction,
  type AccessRole,
  type AccessStatus,
} from './user-access.rules.js';

/** A user id as the JWT carries it (`sub`): 1-200 characters, no control characters or blanks at the ends. */
export function checkUserId(value: string | undefined | null, parameter = 'userId'): string {
  const v = value ?? '';
  if (!v.trim()) fail(parameter, `${parameter} must not be empty`);
  if (v.length > 200) fail(parameter, `${parameter} is longer than 200 characters`);
  if (v !== v.trim() || /[\u0000-\u001f\u007f]/.test(v)) fail(parameter, `${parameter} must not contain control characters or leading/trailing blanks`);
  return v;
}

async function resolveAccount(ctx: PlatformContext, ref: string): Promise<AccountEntity> {
  const byId = ref.startsWith('acct_') ? await ctx.loaders.accountById.load(ref) : null;
  const account = byId && !byId.deletedAt ? byId : await ctx.loaders.accountByUrlId.load(ref);
  if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', `Account ${ref} not found`, { parameter: 'accountId' });
  return account;
}

async function resolveTarget(ctx: PlatformContext, input: GrantUserAccessInput): Promise<{ account: AccountEntity; app: AppEntity | null }> {
  const accountRef = input.accountId?.trim() || undefined;
  const appRef = input.appId?.trim() || undefined;
  if (appRef) {
    const app = await ctx.loaders.appById.load(appRef);
    const account = accountRef ? await resolveAccount(ctx, accountRef) : undefined;
    if (!app || (account && app.account.id !== account.id)) throw new DomainError('APP_NOT_FOUND', `App ${appRef} not found`, { parameter: 'appId' });
    return { account: account ?? (await ctx.loaders.accountById.load(app.account.id))!, app };
  }
  if (!accountRef) fail('accountId', 'account_id (an account url_id or unique_id) or app_id is required');
  return { account: await resolveAccount(ctx, accountRef), app: null };
}

export async function grantAccess(ctx: PlatformContext, input: GrantUserAccessInput): Promise<{ access: UserAccessEntity; created: boolean }> {
  const userId = checkUserId(input.userId);
  const role: AccessRole = oneOf(input.role, ACCESS_ROLES, 'role', DEFAULT_ROLE);
  const { account, app } = await resolveTarget(ctx, input);
  const targetId = app?.id ?? account.id;
  const row: GrantRow = {
    userId,
    targetType: app ? ('app' as const) : ('account' as const),
    targetId,
    accountId: account.id,
    appId: app?.id ?? null,
    role,
    grantedBy: ctx.tenant.userId ?? null,
    extraAttributes: mergeExtraAttributes({}, input.extraAttributes),
  };
  return withAccountEvents(ctx, (tx) => grantOnce(tx, row, account, app, input));
}

async function grantOnce(tx: PlatformContext, row: GrantRow, account: AccountEntity, app: AppEntity | null, input: GrantUserAccessInput): Promise<{ access: UserAccessEntity; created: boolean }> {
  const { userId, targetId, role } = row;
  // A conflicting record can be revoked between our insert and our read: then insert again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = await insertGrant(tx, row);
    if (id) {
      const access = await loadAccess(tx, id);
      await recordAccountEvent(tx, { account, event: 'access.granted', subject: { type: 'user_access', id }, data: accessEventData(access) });
      return { access, created: true };
    }
    const existing = await tx.em.findOne(UserAccessEntity, { userId, targetId, status: { $ne: 'revoked' } }, { populate: ['account'], refresh: true });
    if (!existing) continue;
    const what = `${row.targetType} ${app?.id ?? account.urlId}`;
    if (existing.status !== 'active') {
      throw new DomainError('ACCESS_ALREADY_EXISTS', `User ${userId} has a ${existing.status} access to ${what} (${existing.id}): reactivate it, or revoke it and grant again`, {
        parameter: 'userId',
        meta: { accessId: existing.id, status: existing.status, role: existing.role },
      });
    }
    if (existing.role !== role) {
      throw new DomainError('ACCESS_ALREADY_EXISTS', `User ${userId} already has role ${existing.role} on ${what} (${existing.id}): revoke it to grant another role`, {
        parameter: 'role',
        meta: { accessId: existing.id, status: existing.status, role: existing.role },
      });
    }
    // the same grant again: attributes kept as given merge into the record's
    if (input.extraAttributes) {
      existing.extraAttributes = mergeExtraAttributes(existing.extraAttributes, input.extraAttributes);
      await tx.em.flush();
    }
    return { access: existing, created: false };
  }
  throw new DomainError('CONFLICT', 'The access changed concurrently while it was being granted; retry');
}

async function loadAccess(ctx: PlatformContext, id: string): Promise<UserAccessEntity> {
  const access = await ctx.em.findOne(UserAccessEntity, { id }, { populate: ['account'], refresh: true });
  if (!access) throw new DomainError('ACCESS_NOT_FOUND', `Access ${id} not found`, { parameter: 'accessId' });
  return access;
}

export async function getAccess(ctx: PlatformContext, id: string): Promise<UserAccessEntity> {
  return loadAccess(ctx, id);
}

/**
 * One state move, as ONE conditional UPDATE (`... where status in <allowed from>`), so two racing
 * moves cannot both apply. 0 rows: the record is in a state the move does not start from → 409.
 */
export async function changeAccess(ctx: PlatformContext, id: string, action: AccessAction): Promise<UserAccessEntity> {
  const current = await loadAccess(ctx, id); // 404 for unknown and foreign ids (platform filter)
  const { from, to } = TRANSITIONS[action];
  const now = new Date();
  const changes: Partial<UserAccessEntity> = { status: to, updatedAt: now };
  if (action === 'suspend') changes.suspendedAt = now;
  if (action === 'reactivate') changes.suspendedAt = null;
  if (action === 'revoke') changes.revokedAt = now;
  return withAccountEvents(ctx, async (tx) => {
    const updated = await tx.em.nativeUpdate(UserAccessEntity, { id, platform: current.platform.id, status: { $in: [...from] } }, changes);
    const after = await loadAccess(tx, id);
    if (updated === 0) {
      nextStatus(after.status, action); // throws INVALID_STATE_TRANSITION (409) naming the status
      throw new DomainError('CONFLICT', 'The access changed concurrently; retry');
    }
    await recordAccountEvent(tx, { account: after.account, event: ACCESS_EVENT[action], subject: { type: 'user_access', id }, data: accessEventData(after) });
    return after;
  });
}

const ACCESS_EVENT = { suspend: 'access.suspended', reactivate: 'access.reactivated', revoke: 'access.revoked' } as const satisfies Record<AccessAction, string>;

function accessEventData(a: UserAccessEntity): Record<string, unknown> {
  return {
    access_id: a.id,
    user_id: a.userId,
    target_type: a.targetType,
    target_id: a.targetId,
    app_id: a.app?.id ?? null,
    role: a.role,
    status: a.status,
  };
}

export async function listAccesses(ctx: PlatformContext, userId: string, status?: string | null): Promise<UserAccessEntity[]> {
  const user = checkUserId(userId);
  const where = status == null ? { userId: user } : { userId: user, status: oneOf<AccessStatus>(status, ACCESS_STATUSES, 'status', 'active') };
  return ctx.em.find(UserAccessEntity, where, { populate: ['account'], orderBy: { createdAt: 'asc', id: 'asc' } });
}

export interface UserAccountRow {
  account: AccountEntity;
  role: AccessRole;
  via: 'account' | 'app';
  accessId: string;
}

/**
 * Live accounts the user can reach: through an ACTIVE grant on the account, or on one of its live
 * apps (an app grant reaches its account). The account grant's role when there is one (it is the
 * grant on the account itself), else the strongest of its app grants.
 */
export async function userAccounts(ctx: PlatformContext, userId: string): Promise<UserAccountRow[]> {
  const grants = await ctx.em.find(
    UserAccessEntity,
    { userId: checkUserId(userId), status: 'active', account: { deletedAt: null } },
    { populate: ['account', 'app'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const byAccount = new Map<string, UserAccountRow>();
  for (const g of grants) {
    if (g.targetType === 'app' && (!g.app || g.app.deletedAt)) continue;
    const via = g.targetType === 'account' ? 'account' : 'app';
    const seen = byAccount.get(g.account.id);
    const better = !seen || (via === 'account' && seen.via === 'app') || (via === seen.via && via === 'app' && strongerRole(g.role, seen.role) === g.role && g.role !== seen.role);
    if (better) byAccount.set(g.account.id, { account: g.account, role: g.role, via, accessId: g.id });
  }
  return [...byAccount.values()];
}

export interface UserAppRow {
  app: AppEntity;
  role: AccessRole;
  via: 'app' | 'account';
  accessId: string;
}

/** Apps of live accounts reached by an ACTIVE app grant or an ACTIVE grant on their account. */
export async function userApps(ctx: PlatformContext, userId: string): Promise<UserAppRow[]> {
  const grants = await ctx.em.find(
    UserAccessEntity,
    { userId: checkUserId(userId), status: 'active', account: { deletedAt: null } },
    { populate: ['app'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const accountGrants = grants.filter((g) => g.targetType === 'account');
  const appsOfAccounts = await Promise.all(accountGrants.map((g) => ctx.loaders.appsByAccount.load(g.account.id)));
  const byApp = new Map<string, UserAppRow>();
  const offer = (candidate: UserAppRow) => {
    const seen = byApp.get(candidate.app.id);
    // the strongest role wins; on a tie the app's own grant (the more specific one) does
    if (!seen || (strongerRole(candidate.role, seen.role) === candidate.role && (candidate.role !== seen.role || candidate.via === 'app'))) {
      byApp.set(candidate.app.id, candidate);
    }
  };
  for (const g of grants) if (g.targetType === 'app' && g.app) offer({ app: g.app, role: g.role, via: 'app', accessId: g.id });
  accountGrants.forEach((g, i) => {
    for (const app of appsOfAccounts[i]) offer({ app, role: g.role, via: 'account', accessId: g.id });
  });
  return [...byApp.values()].sort((a, b) => a.app.createdAt.getTime() - b.app.createdAt.getTime() || a.app.id.localeCompare(b.app.id));
}
