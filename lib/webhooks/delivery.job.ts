// Delivery runs as a job kind of the kernel queue (lib/jobs): the queue claims it (FOR UPDATE SKIP
// LOCKED, with a lease), retries a failed attempt with exponential backoff (±20 % jitter, at most an
// hour) and dead-letters it after max attempts; this kind only makes one attempt and keeps the
// delivery log. One job per delivery, written in the transaction that wrote the delivery (outbox.ts).
import type { Logger } from '../logger.js';
import { PermanentJobError, type JobKind } from '../jobs/index.js';
import { markDead, recordAttempt, send, startAttempt, type SenderConfig } from './delivery.js';
import { DELIVERY_JOB } from './outbox.js';
import { toSql, type Sql } from './sql.js';

export interface DeliveryJobConfig extends SenderConfig {
  /** runs the attempt's statements (a pg pool, or an EntityManager's connection) */
  sql: Sql;
  log: Logger;
  /** first retry delay; doubles per attempt, at most an hour */
  retryBaseMs: number;
}

const MAX_BACKOFF_MS = 3_600_000;

export function deliveryJobKind(cfg: DeliveryJobConfig): JobKind<{ deliveryId: string }> {
  return {
    kind: DELIVERY_JOB,
    backoff: { baseMs: cfg.retryBaseMs, maxMs: MAX_BACKOFF_MS },
    leaseMs: (cfg.timeoutMs ?? 10_000) * 2 + 5_000,
    async handle({ job }) {
      const d = await startAttempt(cfg.sql, cfg.schema, job.payload.deliveryId);
      if (!d) return { skipped: 'already final' };
      const r = await send(cfg, d);
      const state = await recordAttempt(cfg.sql, cfg.schema, d, r);
      if (state === 'delivered') return { status: r.status };
      cfg.log.info('webhook delivery failed', { delivery: d.id, attempt: d.attempts, status: r.status, error: r.error, permanent: r.permanent });
      if (state === 'failed' || d.attempts >= d.maxAttempts) throw new PermanentJobError(r.error ?? 'failed');
      throw new Error(r.error ?? 'failed');
    },
    async onDead(job, error, tx) {
      await markDead(toSql(tx), cfg.schema, job.payload.deliveryId, error);
    },
  };
}
