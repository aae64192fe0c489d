// The delivery worker's SQL, in one file. These statements run outside any request, for every
// platform at once, so they name tables directly and never go through the platform filter.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountEventPayload } from '../event-types.js';
import { AccountEventEntity } from './account-event.entity.js';
import { AppWebhookSecretEntity } from './app-webhook-secret.entity.js';
import { WebhookDeliveryEntity, type DeliveryTarget } from './webhook-delivery.entity.js';

function table(em: EntityManager, entity: new (...a: any[]) => unknown): string {
  const meta = em.getMetadata().get(entity);
  return `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
}

export interface ClaimedDelivery {
  id: string;
  targetKind: DeliveryTarget;
  appId: string | null;
  urlSealed: string;
  attempts: number;
  maxAttempts: number;
  payload: AccountEventPayload;
  summary: string;
  /** sealed fields for app targets (see AccountEventEntity.secretSealed) */
  secretSealed: string | null;
}

/** How long a claimed row stays ours; a worker that dies mid-delivery frees it after this. */
export const CLAIM_LEASE_SEC = 120;

/**
 * Claim up to `limit` due deliveries in ONE statement: pending rows whose time has come, and rows
 * whose lease ran out. FOR UPDATE SKIP LOCKED lets replicas claim side by side without waiting on,
 * or double-claiming, each other's rows. The attempt is counted at claim time, so a crash mid-POST
 * still uses up an attempt (no endless redelivery of a poison target).
 */
export async function claimDue(em: EntityManager, limit: number): Promise<ClaimedDelivery[]> {
  const d = table(em, WebhookDeliveryEntity);
  const e = table(em, AccountEventEntity);
  const rows = (await em.execute(
    `with due as (
       select id from ${d}
        where (status = 'pending' and next_attempt_at <= now())
           or (status = 'delivering' and locked_until < now())
        order by next_attempt_at
        limit ?
        for update skip locked
     )
     update ${d} as w
        set status = 'delivering', attempts = w.attempts + 1, last_attempt_at = now(),
            locked_until = now() + make_interval(secs => ?)
       from due, ${e} as ev
      where w.id = due.id and ev.id = w.event_id
  returning w.id, w.target_kind, w.app_id, w.url_sealed, w.attempts, w.max_attempts, ev.payload, ev.summary, ev.secret_sealed`,
    [limit, CLAIM_LEASE_SEC],
    'all',
  )) as Record<string, any>[];
  return rows.map((r) => ({
    id: r.id,
    targetKind: r.target_kind,
    appId: r.app_id,
    urlSealed: r.url_sealed,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
    summary: r.summary,
    secretSealed: r.secret_sealed ?? null,
  }));
}

export async function markDelivered(em: EntityManager, id: string, status: number): Promise<void> {
  await em.execute(
    `update ${table(em, WebhookDeliveryEntity)}
        set status = 'delivered', delivered_at = now(), last_status_code = ?, last_error = null, locked_until = null
      where id = ? and status = 'delivering'`,
    [status, id],
    'run',
  );
}

/** A failed attempt: retry after `retryInMs`, or give up when attempts are used up or `permanent`. */
export async function markFailed(em: EntityManager, id: string, r: { status?: number; error: string; permanent: boolean; retryInMs: number }): Promise<void> {
  await em.execute(
    `update ${table(em, WebhookDeliveryEntity)}
        set status = case when ? or attempts >= max_attempts then 'failed' else 'pending' end,
            next_attempt_at = now() + make_interval(secs => ?),
            last_status_code = ?, last_error = ?, locked_until = null
      where id = ? and status = 'delivering'`,
    [r.permanent, r.retryInMs / 1000, r.status ?? null, r.error.slice(0, 1000), id],
    'run',
  );
}

export async function appWebhookSecret(em: EntityManager, appId: string): Promise<string | null> {
  const rows = (await em.execute(`select secret_sealed from ${table(em, AppWebhookSecretEntity)} where app_id = ?`, [appId], 'all')) as {
    secret_sealed: string;
  }[];
  return rows[0]?.secret_sealed ?? null;
}
