// The transactional outbox: a delivery is a row written with the caller's connection, inside the
// transaction of the change it describes, together with the kernel job (lib/jobs) that sends it.
// An event exists if and only if its change committed (a rolled-back change notifies no one); the
// job queue's NOTIFY at commit wakes the senders.
import type { SecretBox } from '../crypto.js';
import { newId } from '../ids.js';
import { enqueueJob, type SqlClient } from '../jobs/index.js';
import { familyPattern } from './events.js';
import { qualified, toSql } from './sql.js';
import { deliveryBodyAad, deliverySecretAad, deliveryUrlAad } from './webhook.entities.js';

/** The job kind that sends one delivery; its payload is { deliveryId }. */
export const DELIVERY_JOB = 'webhooks.deliver';

export interface OutboxConfig {
  /** the subgraph's PostgreSQL schema, where its webhookEntities (and its jobs table) live */
  schema: string;
  /** attempts before a delivery is dead-lettered (status failed) */
  maxAttempts: number;
}

/** Where deliveries are written: a pg client inside a transaction, or an EntityManager inside em.transactional. */
export type OutboxTx = SqlClient;

export interface EndpointEvent {
  owner: string;
  event: string;
  /** the JSON body every endpoint receives (and that is signed), e.g. { event, occurred_at, data } */
  payload: unknown;
  /** sent as X-Webhook-Id; each delivery's own id when left out */
  eventId?: string;
}

async function deliveryJob(tx: OutboxTx, cfg: OutboxConfig, deliveryId: string): Promise<string> {
  const job = await enqueueJob(tx, cfg.schema, { kind: DELIVERY_JOB, payload: { deliveryId }, maxAttempts: cfg.maxAttempts });
  return job!.id;
}

/**
 * Queue `e` for every active endpoint of its owner subscribed to it (by name, 'family.*' or '*').
 * Returns the number of deliveries written.
 */
export async function emitToEndpoints(tx: OutboxTx, cfg: OutboxConfig, e: EndpointEvent): Promise<number> {
  const sql = toSql(tx);
  const hooks = await sql(
    `select id from ${qualified(cfg.schema, 'webhook_endpoints')}
      where owner = ? and active
        and (events @> jsonb_build_array(?::text) or events @> jsonb_build_array(?::text) or events @> '["*"]'::jsonb)
      order by id`,
    [e.owner, e.event, familyPattern(e.event)],
  );
  if (!hooks.length) return 0;
  const rows: { id: string; endpoint_id: string; event_id: string; job_id: string }[] = [];
  for (const h of hooks) {
    const id = newId('whd');
    rows.push({ id, endpoint_id: h.id as string, event_id: e.eventId ?? id, job_id: await deliveryJob(tx, cfg, id) });
  }
  await sql(
    `insert into ${qualified(cfg.schema, 'webhook_deliveries')}
       (id, owner, endpoint_id, event, event_id, body, body_sealed, status, attempts, max_attempts, job_id, created_at)
     select r.id, ?, r.endpoint_id, ?, r.event_id, ?, false, 'pending', 0, ?, r.job_id::bigint, now()
       from jsonb_to_recordset(?::jsonb) as r(id text, endpoint_id text, event_id text, job_id text)`,
    [e.owner, e.event, JSON.stringify(e.payload), cfg.maxAttempts, JSON.stringify(rows)],
  );
  return rows.length;
}

export interface TargetDelivery {
  owner: string;
  event: string;
  /** sent as X-Webhook-Id (the event id, the same on every target); the delivery id when left out */
  eventId?: string;
  /** the subgraph's label of the target, listed in the log (e.g. 'app:<id>', 'team_chat') */
  target: string;
  url: string;
  /** what the log shows instead of the URL (masked when the URL is a credential); the URL by default */
  displayUrl?: string;
  /** the signing secret; unsigned when null */
  secret: string | null;
  payload: unknown;
  /** store the body sealed (it carries a secret field) */
  sealBody?: boolean;
}

/** Queue one delivery to a target the caller names itself (not a registered endpoint). URL, secret and, when asked, body are sealed. */
export async function enqueueDelivery(tx: OutboxTx, cfg: OutboxConfig & { secrets: SecretBox }, d: TargetDelivery): Promise<string> {
  const id = newId('whd');
  const body = JSON.stringify(d.payload);
  const jobId = await deliveryJob(tx, cfg, id);
  await toSql(tx)(
    `insert into ${qualified(cfg.schema, 'webhook_deliveries')}
       (id, owner, target, event, event_id, display_url, url_sealed, secret_sealed, body, body_sealed, status, attempts, max_attempts, job_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, now())`,
    [
      id,
      d.owner,
      d.target,
      d.event,
      d.eventId ?? id,
      (d.displayUrl ?? d.url).slice(0, 2048),
      cfg.secrets.seal(d.url, deliveryUrlAad(id)),
      d.secret === null ? null : cfg.secrets.seal(d.secret, deliverySecretAad(id)),
      d.sealBody ? cfg.secrets.seal(body, deliveryBodyAad(id)) : body,
      d.sealBody ?? false,
      cfg.maxAttempts,
      jobId,
    ],
  );
  return id;
}
