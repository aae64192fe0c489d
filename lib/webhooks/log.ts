// The delivery log an owner lists: newest first, each delivery with its state (status, attempts,
// last response code or error, next attempt) and every attempt. Always filtered by owner.
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookAttemptEntity, WebhookDeliveryEntity, type DeliveryStatus } from './webhook.entities.js';

export interface DeliveryLogQuery {
  owner: string;
  /** one endpoint's deliveries */
  endpointId?: string;
  status?: DeliveryStatus;
  limit: number;
}

export interface DeliveryLogEntry {
  delivery: WebhookDeliveryEntity;
  /** the body sent, or null when it is stored sealed (it carries a secret field) */
  body: string | null;
  /** next attempt, while one is planned */
  nextAttemptAt: Date | null;
  attempts: WebhookAttemptEntity[];
}

export async function listDeliveries(em: EntityManager, q: DeliveryLogQuery): Promise<DeliveryLogEntry[]> {
  const list = await em.find(
    WebhookDeliveryEntity,
    { owner: q.owner, ...(q.endpointId ? { endpointId: q.endpointId } : {}), ...(q.status ? { status: q.status } : {}) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: q.limit },
  );
  const attempts = list.length ? await em.find(WebhookAttemptEntity, { deliveryId: { $in: list.map((d) => d.id) } }, { orderBy: { deliveryId: 'asc', attempt: 'asc' } }) : [];
  return list.map((d) => ({
    delivery: d,
    body: d.bodySealed ? null : d.body,
    nextAttemptAt: d.status === 'pending' || d.status === 'delivering' ? d.nextAttemptAt : null,
    attempts: attempts.filter((a) => a.deliveryId === d.id),
  }));
}
