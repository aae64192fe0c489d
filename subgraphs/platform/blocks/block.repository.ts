// The two inserts that must not duplicate under concurrency: INSERT ... ON CONFLICT DO NOTHING on
// the unique (account, block) and (app, block) constraints. Raw SQL because MikroORM cannot say
// "insert unless present, and tell me which happened" in one statement. The platform id is the
// request's (tenantParams: the filter does not apply to raw SQL); callers pass ids they loaded
// through the filter, so a foreign account or app never gets here.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../../lib/ids.js';
import { tenantParams } from '../../../lib/tenant-entity.js';
import { BlockInstanceEntity, BlockLicenseEntity } from './block.entity.js';

function tableOf<T extends BlockLicenseEntity | BlockInstanceEntity>(em: EntityManager, entity: new () => T): string {
  const meta = em.getMetadata().get(entity);
  return `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
}

/** true when this call created the license, false when the account already had it. */
export async function insertLicense(ctx: { em: EntityManager }, row: { accountId: string; blockId: string; licensedBy: string | null }): Promise<boolean> {
  const { em } = ctx;
  const { platformId } = await tenantParams(ctx, 'platformId');
  const rows = await em.execute(
    `insert into ${tableOf(em, BlockLicenseEntity)} (id, platform_id, account_id, block_id, licensed_by, created_at)
     values (?, ?, ?, ?, ?, now())
     on conflict (account_id, block_id) do nothing
     returning id`,
    [newId('lic'), platformId, row.accountId, row.blockId, row.licensedBy],
    'all',
  );
  return rows.length === 1;
}

/** true when this call provisioned the block, false when the app already had it. */
export async function insertInstance(
  ctx: { em: EntityManager },
  row: { accountId: string; appId: string; blockId: string; licenseId: string; provisionedBy: string | null },
): Promise<boolean> {
  const { em } = ctx;
  const { platformId } = await tenantParams(ctx, 'platformId');
  const rows = await em.execute(
    `insert into ${tableOf(em, BlockInstanceEntity)} (id, platform_id, account_id, app_id, block_id, license_id, provisioned_by, created_at)
     values (?, ?, ?, ?, ?, ?, ?, now())
     on conflict (app_id, block_id) do nothing
     returning id`,
    [newId('bki'), platformId, row.accountId, row.appId, row.blockId, row.licenseId, row.provisionedBy],
    'all',
  );
  return rows.length === 1;
}
