// The registry's SQL: an upload inserts the new ids in one statement (ids already there are kept
// as they are: an id is a hash of its body); reads are by app, in id order.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../../lib/ids.js';
import { RegisteredOperationEntity, RegisteredOperationPolicyEntity } from './registered-operation.entity.js';
import type { ManifestOperation } from './operation-manifest.rules.js';

/** Insert the operations the app does not have yet, in one statement; returns how many were added. */
export async function insertOperations(em: EntityManager, appId: string, platformId: string, ops: ManifestOperation[]): Promise<number> {
  if (ops.length === 0) return 0;
  const meta = em.getMetadata().get(RegisteredOperationEntity);
  const table = `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
  const payload = JSON.stringify(ops.map((o) => ({ id: newId('rop'), op: o.id, name: o.name, type: o.type, body: o.body })));
  const res = await em.execute(
    `insert into ${table} (id, app_id, platform_id, operation_id, name, type, body, created_at)
     select r.id, ?, ?, r.op, r.name, r.type, r.body, now()
       from jsonb_to_recordset(?::jsonb) as r(id text, op text, name text, type text, body text)
     on conflict (app_id, operation_id) do nothing`,
    [appId, platformId, payload],
    'run',
  );
  return (res as { affectedRows?: number }).affectedRows ?? 0;
}

export function listOperations(em: EntityManager, appId: string): Promise<RegisteredOperationEntity[]> {
  return em.find(RegisteredOperationEntity, { app: appId }, { orderBy: { operationId: 'asc' } });
}

/** Delete one operation by the id clients send; false when the app has none by that id. */
export async function deleteOperation(em: EntityManager, appId: string, operationId: string): Promise<boolean> {
  return (await em.nativeDelete(RegisteredOperationEntity, { app: appId, operationId })) === 1;
}

export function findPolicy(em: EntityManager, appId: string): Promise<RegisteredOperationPolicyEntity | null> {
  return em.findOne(RegisteredOperationPolicyEntity, { app: appId });
}

/** The app's registry for the gateway (a service caller: no platform is known, the filter is off). */
export async function registryOf(em: EntityManager, appId: string): Promise<{ policy: RegisteredOperationPolicyEntity | null; operations: RegisteredOperationEntity[] }> {
  const policy = await em.findOne(RegisteredOperationPolicyEntity, { app: appId }, { filters: false });
  const operations = await em.find(RegisteredOperationEntity, { app: appId }, { filters: false });
  return { policy, operations };
}
