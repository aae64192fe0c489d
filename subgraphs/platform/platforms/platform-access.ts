// Who reaches a platform (docs/security.md, "Platform operators"). A user token reaches one through
// an operator record of its `sub`, a `platform` claim naming it, or the super-admin scope; an API key
// its own key's platform; the gateway (service) every platform. Anything else is PLATFORM_NOT_FOUND:
// never a hint that the platform exists.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { capPlatformScopes, isSuperAdmin, PLATFORM_SCOPES, type TenantContext } from '../../../lib/tenant.js';
import { PlatformEntity } from './platform.entity.js';
import { PlatformOperatorEntity } from './platform-operator.entity.js';

/**
 * Through X-Platform, without a database lookup: the gateway already looked up the operator record
 * (cached) and put the platform's id in `operatorPlatformId`, with the token's scopes capped.
 */
export function reachesByHeader(t: TenantContext, platform: PlatformEntity): boolean {
  switch (t.kind) {
    case 'service':
      return true;
    case 'key':
      return t.platformId === platform.id;
    case 'user':
      return isSuperAdmin(t) || (t.boundPlatform ? t.boundPlatform === platform.code : t.operatorPlatformId === platform.id);
    default:
      return false;
  }
}

/** The operator row of `userId` on the platform (tenant filter off: the platform is given). */
export function findOperator(em: EntityManager, platformId: string, userId: string): Promise<PlatformOperatorEntity | null> {
  return em.findOne(PlatformOperatorEntity, { platform: platformId, userId }, { filters: false });
}

/**
 * The scopes the caller has on a platform it names (in the path, or by id): null when it does not
 * reach it. A platform other than the X-Platform one is looked up in the operator table.
 */
export async function platformAccess(em: EntityManager, t: TenantContext, platform: PlatformEntity): Promise<string[] | null> {
  if (t.kind === 'service') return [...PLATFORM_SCOPES];
  if (reachesByHeader(t, platform)) return t.scopes;
  if (t.kind !== 'user' || !t.userId || t.boundPlatform) return null;
  const row = await findOperator(em, platform.id, t.userId);
  return row ? capPlatformScopes(t.scopes, row.scopes) : null;
}

/** platformAccess, or PLATFORM_NOT_FOUND (404) naming `parameter`; INSUFFICIENT_SCOPE (403) when the record lacks `scope`. */
export async function requirePlatformAccess(em: EntityManager, t: TenantContext, platform: PlatformEntity, ref: string, parameter: string, scope?: string): Promise<string[]> {
  const scopes = await platformAccess(em, t, platform);
  if (!scopes) throw new DomainError('PLATFORM_NOT_FOUND', `Platform ${ref} not found`, { parameter });
  if (scope && t.kind !== 'service' && !scopes.includes(scope)) {
    throw new DomainError('INSUFFICIENT_SCOPE', `Missing scope on platform ${ref}: ${scope}`, { meta: { required: [scope] } });
  }
  return scopes;
}

/**
 * The platforms the caller may see in cross-platform views (lists, global accounts, reporting), those
 * whose operator record grants `scope` when given; null: every one.
 */
export async function operatedPlatformIds(em: EntityManager, t: TenantContext, scope?: string): Promise<string[] | null> {
  if (t.kind === 'service' || isSuperAdmin(t)) return null;
  if (t.kind === 'key') return t.platformId ? [t.platformId] : [];
  if (t.kind !== 'user' || !t.userId) return [];
  if (t.boundPlatform) {
    const p = await em.findOne(PlatformEntity, { code: t.boundPlatform }, { filters: false });
    return p ? [p.id] : [];
  }
  const rows = await em.find(PlatformOperatorEntity, { userId: t.userId }, { filters: false });
  return rows.filter((r) => !scope || r.scopes.includes(scope)).map((r) => r.platform.id);
}
