// Platform operators: listed, added and removed by the platform's admins (docs/security.md). The
// creator of a platform becomes its owner operator in the platform's own insert (createPlatform).
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { PLATFORM_SCOPES } from '../../../lib/tenant.js';
import type { PlatformContext } from '../context.js';
import { getPlatform } from '../platforms/platform.service.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { publishKeysInvalidated } from '../events.js';
import { fail, requiredText, uniqueConstraintOf } from '../validation.js';
import { findOperator } from '../platforms/platform-access.js';
import { PlatformOperatorEntity } from '../platforms/platform-operator.entity.js';
import type { AddPlatformOperatorInput } from './platform-operator.inputs.js';

const ADMIN = 'platform:admin';

function checkScopes(raw: string[] | null | undefined): string[] {
  if (raw == null) return ['platform:read'];
  if (!Array.isArray(raw) || raw.length === 0) fail('scopes', 'scopes must list at least one of platform:admin, platform:manage, platform:read');
  const unknown = raw.filter((s) => !(PLATFORM_SCOPES as readonly string[]).includes(s));
  if (unknown.length) fail('scopes', `unknown platform scope ${unknown[0]}: use platform:admin, platform:manage, platform:read`);
  return PLATFORM_SCOPES.filter((s) => raw.includes(s));
}

export async function listOperators(ctx: PlatformContext, pid: string): Promise<PlatformOperatorEntity[]> {
  const platform = await getPlatform(ctx, pid, { scope: 'platform:read', parameter: 'pid' });
  return ctx.em.find(PlatformOperatorEntity, { platform: platform.id }, { filters: false, orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function addOperator(ctx: PlatformContext, pid: string, input: AddPlatformOperatorInput): Promise<PlatformOperatorEntity> {
  const platform = await getPlatform(ctx, pid, { scope: ADMIN, parameter: 'pid' });
  const userId = requiredText(input.userId, 'userId', 200);
  const scopes = checkScopes(input.scopes);
  if (await findOperator(ctx.em, platform.id, userId)) throw new DomainError('OPERATOR_ALREADY_EXISTS', `${userId} already operates platform ${platform.code}`, { parameter: 'userId' });
  const row = ctx.em.create(PlatformOperatorEntity, { platform, userId, scopes, role: 'operator', addedBy: ctx.tenant.userId ?? null });
  try {
    await ctx.em.flush();
  } catch (e) {
    if (uniqueConstraintOf(e) !== undefined) throw new DomainError('OPERATOR_ALREADY_EXISTS', `${userId} already operates platform ${platform.code}`, { parameter: 'userId' });
    throw e;
  }
  await publishKeysInvalidated(ctx, { operatorPlatformIds: [platform.id] }, 'operator.added');
  return row;
}

/**
 * Remove an operator; LAST_PLATFORM_ADMIN (409) when it is the platform's last one with
 * platform:admin (the platform row is locked, so two concurrent removals cannot both pass).
 */
export async function removeOperator(ctx: PlatformContext, pid: string, userId: string): Promise<PlatformOperatorEntity> {
  const platform = await getPlatform(ctx, pid, { scope: ADMIN, parameter: 'pid' });
  const removed = await ctx.em.transactional(async (tx) => {
    const em = tx as EntityManager;
    await em.findOne(PlatformEntity, { id: platform.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, filters: false });
    const row = await findOperator(em, platform.id, userId);
    if (!row) throw new DomainError('OPERATOR_NOT_FOUND', `${userId} does not operate platform ${platform.code}`, { parameter: 'userId' });
    if (row.scopes.includes(ADMIN)) {
      const admins = (await em.find(PlatformOperatorEntity, { platform: platform.id }, { filters: false })).filter((o) => o.scopes.includes(ADMIN));
      if (admins.length <= 1) throw new DomainError('LAST_PLATFORM_ADMIN', `${userId} is the last operator of platform ${platform.code} with platform:admin`, { parameter: 'userId' });
    }
    em.remove(row);
    return row;
  });
  await publishKeysInvalidated(ctx, { operatorPlatformIds: [platform.id] }, 'operator.removed');
  return removed;
}

/** Internal (gateway): the operator record of `userId` on the live platform with this code, or null. */
export async function operatorGrant(ctx: PlatformContext, userId: string, platformCode: string): Promise<{ platformId: string; platformCode: string; scopes: string[] } | null> {
  if (ctx.tenant.kind !== 'service') throw new DomainError('FORBIDDEN', 'Internal operation: gateway only');
  const row = await ctx.em.findOne(PlatformOperatorEntity, { userId, platform: { code: platformCode, deletedAt: null } }, { filters: false, populate: ['platform'] });
  return row ? { platformId: row.platform.id, platformCode: row.platform.code, scopes: [...row.scopes] } : null;
}
