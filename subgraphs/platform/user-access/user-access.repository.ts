// The grant insert that must not duplicate under concurrency. The partial unique index
// user_accesses_live_target_unique allows ONE non-revoked record per (user, target); INSERT ...
// ON CONFLICT on that index's columns and predicate turns every concurrent duplicate into a no-op,
// so ten simultaneous grants leave one row. Raw SQL because MikroORM cannot express a conflict
// target with a WHERE predicate. The platform id is the request's (tenantParams: the filter does
// not apply to raw SQL); callers pass an account/app they loaded through the filter.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../../lib/ids.js';
import { tenantParams } from '../../../lib/tenant-entity.js';
import { UserAccessEntity } from './user-access.entity.js';
import type { AccessRole, AccessTarget } from './user-access.rules.js';

export interface GrantRow {
  userId: string;
  targetType: AccessTarget;
  targetId: string;
  accountId: string;
  appId: string | null;
  role: AccessRole;
  grantedBy: string | null;
  extraAttributes: Record<string, unknown>;
}

/** The new record's id, or null when a non-revoked record of (user, target) already exists. */
export async function insertGrant(ctx: { em: EntityManager }, row: GrantRow): Promise<string | null> {
  const { em } = ctx;
  const { platformId } = await tenantParams(ctx, 'platformId');
  const meta = em.getMetadata().get(UserAccessEntity);
  const table = `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
  const rows = await em.execute<{ id: string }[]>(
    `insert into ${table} (id, platform_id, user_id, target_type, target_id, account_id, app_id, role, status, granted_by, extra_attributes, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?::jsonb, now(), now())
     on conflict (user_id, target_id) where status <> 'revoked' do nothing
     returning id`,
    [newId('uac'), platformId, row.userId, row.targetType, row.targetId, row.accountId, row.appId, row.role, row.grantedBy, JSON.stringify(row.extraAttributes)],
    'all',
  );
  return rows[0]?.id ?? null;
}
