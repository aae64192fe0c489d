// The two cross-platform key queries, used only by the gateway (service callers). They switch the
// platform filter off explicitly: the gateway authenticates keys before any platform is known.
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKeyEntity } from './api-key.entity.js';

/** One indexed query (api_keys.key_hash is unique) joined to app, account and platform. */
export async function findKeyByHash(em: EntityManager, appId: string, keyHash: string): Promise<ApiKeyEntity | null> {
  return em.findOne(
    ApiKeyEntity,
    { keyHash, app: appId },
    { populate: ['app.account.platform'], strategy: 'joined', filters: false },
  );
}

export interface UsageRow {
  keyId: string;
  count: number;
  lastUsedAt: Date | null;
}

/**
 * Add usage counts in ONE statement: `usage_count = usage_count + n`, never read-modify-write, so
 * concurrent gateway flushes cannot lose increments. Rows must have distinct key ids (the caller
 * merges duplicates: UPDATE ... FROM applies only one source row per target row).
 */
export async function addUsage(em: EntityManager, rows: UsageRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const meta = em.getMetadata().get(ApiKeyEntity);
  const table = `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
  const payload = JSON.stringify(rows.map((r) => ({ id: r.keyId, n: r.count, at: r.lastUsedAt?.toISOString() ?? null })));
  const res = await em.execute(
    `update ${table} as k
        set usage_count = k.usage_count + u.n,
            last_used_at = greatest(k.last_used_at, coalesce(u.at, now()))
       from jsonb_to_recordset(?::jsonb) as u(id text, n bigint, at timestamptz)
      where k.id = u.id`,
    [payload],
    'run',
  );
  return (res as { affectedRows?: number }).affectedRows ?? 0;
}
