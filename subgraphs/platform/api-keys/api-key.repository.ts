// The cross-platform key queries, used only by the gateway (service callers), switch the platform
// filter off explicitly: the gateway authenticates keys before any platform is known. The value
// changes (regenerate, rotate, revoke) are single conditional UPDATEs on an already-authorised row.
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKeyEntity } from './api-key.entity.js';

/**
 * The key whose current value, or whose previous value (replaced by rotate_secret), hashes to
 * `keyHash`: one query over two indexes (key_hash unique, previous_key_hash), joined to app, account
 * and platform. `previous` says which one matched; a previous value past its grace period is still
 * found, so the gateway answers KEY_EXPIRED for it rather than "unknown".
 */
export async function findKeyByHash(em: EntityManager, appId: string, keyHash: string): Promise<{ key: ApiKeyEntity; previous: boolean } | null> {
  const rows = await em.find(
    ApiKeyEntity,
    { app: appId, $or: [{ keyHash }, { previousKeyHash: keyHash }] },
    { populate: ['app.account.platform'], strategy: 'joined', filters: false, limit: 2 },
  );
  const current = rows.find((r) => r.keyHash === keyHash);
  if (current) return { key: current, previous: false };
  return rows[0] ? { key: rows[0], previous: true } : null;
}

export interface NewValue {
  keyHash: string;
  keyPrefix: string;
  lastFour: string;
  previousKeyHash: string | null;
  previousKeyExpiresAt: Date | null;
}

/**
 * Replace the key's value in ONE conditional UPDATE: only if the value is still `expectedHash` and
 * the key is not revoked. Of two concurrent regenerations exactly one matches; the other gets 0 rows
 * (API_KEY_CHANGED), so exactly one new value is ever valid, and it is the one that was returned.
 */
export async function replaceKeyValue(em: EntityManager, id: string, expectedHash: string, v: NewValue): Promise<boolean> {
  const n = await em.nativeUpdate(ApiKeyEntity, { id, keyHash: expectedHash, revokedAt: null }, { ...v, rotatedAt: new Date() }, { filters: false });
  return n === 1;
}

/** Revoke in one conditional UPDATE (a second revoke finds nothing); the grace value dies with it. */
export async function revokeKey(em: EntityManager, id: string): Promise<boolean> {
  const n = await em.nativeUpdate(ApiKeyEntity, { id, revokedAt: null }, { revokedAt: new Date(), previousKeyHash: null, previousKeyExpiresAt: null }, { filters: false });
  return n === 1;
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
