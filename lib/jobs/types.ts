// The queue's vocabulary: what a caller enqueues, what a handler receives, and the events a job's
// life publishes.
import type { Backoff } from './backoff.js';
import type { JobStatus } from './job.entity.js';
import type { SqlClient } from './sql.js';

export type { JobStatus };

export interface JobSpec<P = Record<string, unknown>> {
  kind: string;
  payload?: P;
  /** jobs sharing a key run one at a time, in acceptance (commit) order; null: no ordering */
  key?: string | null;
  /** not before this time (delayed jobs) */
  runAt?: Date;
  /** claims before the job is dead-lettered; its kind's setting when left out, else 5 */
  maxAttempts?: number;
  /** enqueue nothing while a queued or running job has this dedupe key (answers null) */
  dedupeKey?: string | null;
}

export interface Job<P = Record<string, unknown>> {
  id: string;
  kind: string;
  key: string | null;
  dedupeKey: string | null;
  payload: P;
  status: JobStatus;
  attempts: number;
  /** claims before dead-lettering: the job's own; 0 when the row leaves it to its kind (the worker fills it in) */
  maxAttempts: number;
  runAt: Date;
  leaseUntil: Date | null;
  worker: string | null;
  progress: Record<string, unknown> | null;
  result: unknown;
  lastError: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface JobContext<P = Record<string, unknown>> {
  job: Job<P>;
  /** aborted when the worker stops past its grace period or loses the job's lease */
  signal: AbortSignal;
  /** record progress on the row and publish a `job.progress` event */
  progress(data: Record<string, unknown>): Promise<void>;
  /**
   * Mark the job succeeded inside the handler's own transaction (pg client or EntityManager), so the
   * job's completion commits with its effects: exactly once. Throws LeaseLostError (roll back!) when
   * the job is no longer this worker's. A handler that never calls it is completed after it returns.
   */
  complete(tx: SqlClient, result?: unknown): Promise<void>;
}

export interface JobKind<P = any> {
  kind: string;
  handle(ctx: JobContext<P>): Promise<unknown>;
  maxAttempts?: number;
  backoff?: Backoff;
  /** lease of one claim; a heartbeat extends it while the handler runs */
  leaseMs?: number;
  /** where this kind's JobEvents are published (a per-tenant topic from the payload); none: not published */
  topic?(job: Job<P>): string | null;
  /**
   * Runs in the transaction that dead-letters the job (record the failure in the domain's own rows);
   * a function it returns runs after that commit (publish the domain's event).
   */
  onDead?(job: Job<P>, error: string, tx: SqlClient): Promise<void | (() => Promise<void>)>;
}

export type JobEventName = 'job.running' | 'job.progress' | 'job.succeeded' | 'job.retrying' | 'job.dead';

export interface JobEvent {
  event: JobEventName;
  occurredAt: string;
  jobId: string;
  kind: string;
  key: string | null;
  attempts: number;
  progress: Record<string, unknown> | null;
  error: string | null;
  /** for `job.retrying`: when the next try may start */
  runAt: string | null;
}

/** A handler throws this to dead-letter its job at once (retrying cannot help). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** The job was re-claimed by another worker (this one's lease ran out) or canceled: roll back. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}
