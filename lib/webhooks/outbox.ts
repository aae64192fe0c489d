// The transactional outbox: deliveries are rows written with the caller's connection, inside the
// transaction of the change they describe, so an event exists if and only if its change committed
// (a rolled-back change notifies no one). They are sent after commit (delivery.ts).
import type { SecretBox } from '../crypto.js';
import { newId } from '../ids.js';
import { familyPattern } from './events.js';
import { toSql, qualified, type SqlSource } from './sql.js';
import { deliveryBodyAad, deliverySecretAad, deliveryUrlAad } from './webhook.entities.js';

export interface OutboxConfig {
  /** the subgraph's PostgreSQL schema, where its webhookEntities live */
  schema: string;
  /** attempts before a delivery is dead-lettered (status failed) */
  maxAttempts: number;
}

export interface EndpointEvent {
  owner: string;
  event: string;
  /** the JSON body every endpoint receives (and that is signed), e.g. { event, occurred_at, data } */
  payload: unknown;
  /** sent as X-Webhook-Id; each delivery's own id when left out */
  eventId?: string;
}

/**
 * Queue `e` for every active endpoint of its owner subscribed to it (by name, 'family.*' or '*').
 * Returns the number of deliveries written.
 */
export async function emitToEndpoints(tx: SqlSource, cfg: OutboxConfig, e: EndpointEvent): Promise<number> {
  const sql = toSql(tx);
  const endpoints = qualified(cfg.schema, 'webhook_endpoints');
  const hooks = await sql(
    `select id from ${endpoints}
      where owner = ? and active
        and (events @> jsonb_build_array(?::text) or events @> jsonb_build_array(?::text) or events @> '["*"]'::jsonb)
      order by id`,
    [e.owner, e.event, familyPattern(e.event)],
  );
  if (!hooks.length) return 0;
  const body = JSON.stringify(e.payload);
  const rows = hooks.map((h) => {
    const id = newId('whd');
    return { id, endpoint_id: h.id as string, event_id: e.eventId ?? id };
  });
  await sql(
    `insert into ${qualified(cfg.schema, 'webhook_deliveries')}
       (id, owner, endpoint_id, event, event_id, body, body_sealed, status, attempts, max_attempts, next_attempt_at, created_at)
     select r.id, ?, r.endpoint_id, ?, r.event_id, ?, false, 'pending', 0, ?, now(), now()
       from jsonb_to_recordset(?::jsonb) as r(id text, endpoint_id text, event_id text)`,
    [e.owner, e.event, body, cfg.maxAttempts, JSON.stringify(rows)],
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
export async function enqueueDelivery(tx: SqlSource, cfg: OutboxConfig & { secrets: SecretBox }, d: TargetDelivery): Promise<string> {
  const id = newId('whd');
  const body = JSON.stringify(d.payload);
  await toSql(tx)(
    `insert into ${qualified(cfg.schema, 'webhook_deliveries')}
       (id, owner, target, event, event_id, display_url, url_sealed, secret_sealed, body, body_sealed, status, attempts, max_attempts, next_attempt_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, now(), now())`,
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
    ],
  );
  return id;
}

