// The delivery log an owner lists: newest first, each delivery with its state (status, attempts,
// last response code or error), when its next attempt is due (its job's run_at while the queue
// still holds it) and every attempt. Always filtered by owner.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../errors.js';
import { qualified, toSql } from './sql.js';
import { WebhookAttemptEntity, WebhookDeliveryEntity, type DeliveryStatus } from './webhook.entities.js';

/** One endpoint's delivery log as the services answer it (…/webhooks/:id/deliveries): 20 deliveries by default, 1–100. */
export function endpointLogLimit(limit: number | null | undefined): number {
  const n = limit ?? 20;
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new DomainError('VALIDATION_FAILED', 'limit must be an integer from 1 to 100', { parameter: 'limit' });
  return n;
}

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
  /** when the next attempt is due, while one is planned */
  nextAttemptAt: Date | null;
  attempts: WebhookAttemptEntity[];
}

export async function listDeliveries(em: EntityManager, q: DeliveryLogQuery): Promise<DeliveryLogEntry[]> {
  const list = await em.find(
    WebhookDeliveryEntity,
    { owner: q.owner, ...(q.endpointId ? { endpointId: q.endpointId } : {}), ...(q.status ? { status: q.status } : {}) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: q.limit },
  );
  if (!list.length) return [];
  const attempts = await em.find(WebhookAttemptEntity, { deliveryId: { $in: list.map((d) => d.id) } }, { orderBy: { deliveryId: 'asc', attempt: 'asc' } });
  const jobIds = list.filter((d) => d.jobId && (d.status === 'pending' || d.status === 'delivering')).map((d) => d.jobId!);
  const due = new Map<string, Date>();
  if (jobIds.length) {
    const schema = em.getMetadata().get(WebhookDeliveryEntity).schema ?? (em.config.get('schema') as string);
    const rows = await toSql(em)(
      `select id::text as id, run_at from ${qualified(schema, 'jobs')} where id in (${jobIds.map(() => '?::bigint').join(', ')}) and status in ('queued', 'running')`,
      jobIds,
    );
    for (const r of rows) due.set(String(r.id), new Date(r.run_at as string));
  }
  return list.map((d) => ({
    delivery: d,
    body: d.bodySealed ? null : d.body,
    nextAttemptAt: (d.jobId && due.get(d.jobId)) || null,
    attempts: attempts.filter((a) => a.deliveryId === d.id),
  }));
}

/** One delivery as the API shows it (each subgraph's GraphQL type has these fields). */
export interface DeliveryView {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  deliveredAt: Date | null;
  body: string;
  attemptLog: { attempt: number; statusCode: number | null; error: string | null; durationMs: number; createdAt: Date }[];
}

export function deliveryView({ delivery: d, body, nextAttemptAt, attempts }: DeliveryLogEntry): DeliveryView {
  return {
    id: d.id,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode ?? null,
    lastError: d.lastError ?? null,
    nextAttemptAt: nextAttemptAt ?? d.lastAttemptAt ?? d.createdAt,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt ?? null,
    body: body ?? '',
    attemptLog: attempts.map((a) => ({ attempt: a.attempt, statusCode: a.statusCode ?? null, error: a.error ?? null, durationMs: a.durationMs, createdAt: a.createdAt })),
  };
}
