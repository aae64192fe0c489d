// The webhook outbox: deliveries are rows written in the SAME transaction as the event's effects
// (a rolled-back task never notifies anyone), and sent by the dispatcher after commit.
import { newId } from '../../../lib/ids.js';
import type { Db } from '../db.js';
import { rows, run } from '../db.js';
import { T } from '../sql.js';
import type { WebhookEvent } from './webhook.entity.js';

export interface Tenant {
  appId: string;
  environment: string;
}

/**
 * Queue `event` for every active webhook of the tenant subscribed to it. The body is fixed here
 * (it is what gets signed): { event, occurred_at, data }.
 */
export async function queueWebhookEvent(db: Db, t: Tenant, event: WebhookEvent, data: Record<string, unknown>, occurredAt = new Date()): Promise<number> {
  const hooks = await rows<{ id: string }>(
    db,
    `select id from ${T.webhooks} where app_id = $1 and environment = $2 and active and events @> $3::jsonb`,
    [t.appId, t.environment, JSON.stringify([event])],
  );
  if (!hooks.length) return 0;
  const body = JSON.stringify({ event, occurred_at: occurredAt.toISOString(), data });
  const out = hooks.map((h) => ({ id: newId('whd'), w: h.id }));
  await run(
    db,
    `insert into ${T.deliveries} (id, app_id, environment, webhook_id, event, body, status, attempts, next_attempt_at, created_at)
     select u.id, $1, $2, u.w, $3, $4, 'pending', 0, now(), now() from jsonb_to_recordset($5::jsonb) as u(id text, w text)`,
    [t.appId, t.environment, event, body, JSON.stringify(out)],
  );
  return out.length;
}
