// Every statement the queue runs, in one file. Enqueue happens in the caller's transaction; the
// worker's statements are conditional on `worker = <its id> and status = 'running'`, so a worker
// whose lease ran out (and whose job another worker re-claimed) changes nothing.
import type { JobStatus } from './job.entity.js';
import { jobsChannel, jobsTable, sqlOne, sqlRows, type SqlClient } from './sql.js';
import type { Job, JobSpec } from './types.js';

interface JobRow {
  id: string;
  kind: string;
  key: string | null;
  dedupe_key: string | null;
  payload: any;
  status: JobStatus;
  attempts: number;
  max_attempts: number | null;
  run_at: Date;
  lease_until: Date | null;
  worker: string | null;
  progress: Record<string, unknown> | null;
  result: unknown;
  last_error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS =
  'id, kind, key, dedupe_key, payload, status, attempts, max_attempts, run_at, lease_until, worker, progress, result, last_error, created_at, started_at, finished_at';
const J_COLUMNS = COLUMNS.split(', ').map((c) => `j.${c}`).join(', ');

function toJob<P>(r: JobRow): Job<P> {
  return {
    id: String(r.id),
    kind: r.kind,
    key: r.key,
    dedupeKey: r.dedupe_key,
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as P,
    status: r.status,
    attempts: r.attempts,
    maxAttempts: r.max_attempts ?? 0,
    runAt: new Date(r.run_at),
    leaseUntil: r.lease_until && new Date(r.lease_until),
    worker: r.worker,
    progress: r.progress,
    result: r.result,
    lastError: r.last_error,
    createdAt: new Date(r.created_at),
    startedAt: r.started_at && new Date(r.started_at),
    finishedAt: r.finished_at && new Date(r.finished_at),
  };
}

/**
 * Take the transaction-scoped lock of a key (released at commit or rollback). Enqueue takes it
 * before the job's id is drawn, so for one key ids are drawn in commit order: a job is visible to
 * the workers only after every earlier-accepted job of its key is. Callers that draw their own ids
 * for the same ordering (a task number) take it first too.
 */
export async function lockJobKey(tx: SqlClient, schema: string, key: string): Promise<void> {
  await sqlRows(tx, 'select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${schema}.jobs:${key}`]);
}

/**
 * Lets enqueue add a job with `job`'s dedupe key again while `job` runs: a job that reads "all work
 * so far" when it starts calls this first, so work accepted after that point gets a successor
 * (which the job key runs after it) instead of being deduplicated against a job that already read.
 */
export async function releaseDedupe(db: SqlClient, schema: string, jobId: string): Promise<void> {
  await sqlRows(db, `update ${jobsTable(schema)} set dedupe_key = null where id = $1`, [jobId]);
}

/** Insert one job in `tx` (the caller's transaction: the job commits with the change that asked for it). */
export async function insertJob<P>(tx: SqlClient, schema: string, spec: JobSpec<P>): Promise<Job<P> | null> {
  const t = jobsTable(schema);
  if (spec.key) await lockJobKey(tx, schema, spec.key);
  if (spec.dedupeKey) {
    await lockJobKey(tx, schema, `dedupe:${spec.dedupeKey}`);
    const pending = await sqlOne(tx, `select 1 from ${t} where dedupe_key = $1 and status in ('queued', 'running') limit 1`, [spec.dedupeKey]);
    if (pending) return null;
  }
  const maxAttempts = spec.maxAttempts ?? null;
  if (maxAttempts !== null && (!Number.isInteger(maxAttempts) || maxAttempts < 1)) throw new Error(`jobs: maxAttempts must be a positive integer (got ${maxAttempts})`);
  const row = await sqlOne<JobRow>(
    tx,
    `insert into ${t} (kind, key, dedupe_key, payload, status, attempts, max_attempts, run_at, created_at)
     values ($1, $2, $3, $4::jsonb, 'queued', 0, $5, coalesce($6::timestamptz, clock_timestamp()), clock_timestamp())
     returning ${COLUMNS}`,
    [spec.kind, spec.key ?? null, spec.dedupeKey ?? null, JSON.stringify(spec.payload ?? {}), maxAttempts, spec.runAt?.toISOString() ?? null],
  );
  // Delivered at commit to every worker LISTENing on the schema's channel.
  await sqlRows(tx, 'select pg_notify($1, $2)', [jobsChannel(schema), spec.kind]);
  return toJob<P>(row!);
}

/**
 * Claim the next runnable job of `kinds`: queued and due, or running with a lapsed lease; and no
 * older job of its key still queued or running. One statement, FOR UPDATE SKIP LOCKED: concurrent
 * claimers never take the same row and never wait on each other.
 */
export async function claimJob(db: SqlClient, schema: string, worker: string, leases: Map<string, number>): Promise<Job | undefined> {
  const t = jobsTable(schema);
  const kinds = [...leases.keys()];
  const row = await sqlOne<JobRow>(
    db,
    `with next as (
       select j.id from ${t} j
        where j.kind = any($1::text[])
          and ((j.status = 'queued' and j.run_at <= clock_timestamp()) or (j.status = 'running' and j.lease_until < clock_timestamp()))
          and (j.key is null or not exists (
                select 1 from ${t} p where p.key = j.key and p.status in ('queued', 'running') and p.id < j.id))
        order by j.run_at, j.id
        limit 1
        for update skip locked)
     update ${t} j
        set status = 'running', attempts = j.attempts + 1, worker = $2, started_at = clock_timestamp(),
            lease_until = clock_timestamp() + make_interval(secs => (select l.ms from unnest($1::text[], $3::float8[]) as l(kind, ms) where l.kind = j.kind) / 1000)
       from next where j.id = next.id
     returning ${J_COLUMNS}`,
    [kinds, worker, kinds.map((k) => leases.get(k)!)],
  );
  return row && toJob(row);
}

/** Succeeded, if still this worker's; false when not (lease lost, canceled). */
export async function completeJob(db: SqlClient, schema: string, id: string, worker: string, result: unknown): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set status = 'succeeded', result = $3::jsonb, finished_at = clock_timestamp(), lease_until = null
      where id = $1 and worker = $2 and status = 'running' returning id`,
    [id, worker, result === undefined ? null : JSON.stringify(result)],
  );
  return !!done;
}

/** Back to queued, not before `delayMs`; false when no longer this worker's. */
export async function requeueJob(db: SqlClient, schema: string, id: string, worker: string, error: string, delayMs: number): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set status = 'queued', last_error = $3, lease_until = null, worker = null,
            run_at = clock_timestamp() + make_interval(secs => $4::float8 / 1000)
      where id = $1 and worker = $2 and status = 'running' returning id`,
    [id, worker, error, delayMs],
  );
  return !!done;
}

/** Dead-lettered (kept, listable, retryable by an operator); false when no longer this worker's. */
export async function buryJob(db: SqlClient, schema: string, id: string, worker: string, error: string): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set status = 'dead', last_error = $3, lease_until = null, finished_at = clock_timestamp()
      where id = $1 and worker = $2 and status = 'running' returning id`,
    [id, worker, error],
  );
  return !!done;
}

/** Extend the lease of a running job; false when it is no longer this worker's. */
export async function extendLease(db: SqlClient, schema: string, id: string, worker: string, leaseMs: number): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set lease_until = clock_timestamp() + make_interval(secs => $3::float8 / 1000)
      where id = $1 and worker = $2 and status = 'running' returning id`,
    [id, worker, leaseMs],
  );
  return !!done;
}

export async function recordProgress(db: SqlClient, schema: string, id: string, worker: string, progress: Record<string, unknown>): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set progress = $3::jsonb where id = $1 and worker = $2 and status = 'running' returning id`,
    [id, worker, JSON.stringify(progress)],
  );
  return !!done;
}

/** Give a running job back at once (graceful stop): queued again, this claim not counted. */
export async function releaseJob(db: SqlClient, schema: string, id: string, worker: string): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set status = 'queued', lease_until = null, worker = null, attempts = greatest(0, attempts - 1)
      where id = $1 and worker = $2 and status = 'running' returning id`,
    [id, worker],
  );
  return !!done;
}

export async function findJob<P = Record<string, unknown>>(db: SqlClient, schema: string, id: string): Promise<Job<P> | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const row = await sqlOne<JobRow>(db, `select ${COLUMNS} from ${jobsTable(schema)} where id = $1`, [id]);
  return row && toJob<P>(row);
}

export interface JobQuery {
  status?: JobStatus;
  kind?: string;
  key?: string;
  limit?: number;
  /** ids below this one (pages, newest first) */
  beforeId?: string;
}

/** Newest first: the dead letters are `listJobs(db, schema, { status: 'dead' })`. */
export async function listJobs(db: SqlClient, schema: string, q: JobQuery = {}): Promise<Job[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, v: unknown) => {
    args.push(v);
    where.push(sql.replace('?', `$${args.length}`));
  };
  if (q.status) add('status = ?', q.status);
  if (q.kind) add('kind = ?', q.kind);
  if (q.key) add('key = ?', q.key);
  if (q.beforeId) add('id < ?::bigint', q.beforeId);
  args.push(Math.min(Math.max(q.limit ?? 100, 1), 1000));
  const got = await sqlRows<JobRow>(
    db,
    `select ${COLUMNS} from ${jobsTable(schema)} ${where.length ? `where ${where.join(' and ')}` : ''} order by id desc limit $${args.length}`,
    args,
  );
  return got.map((r) => toJob(r));
}

/** A dead (or canceled) job queued again with fresh attempts; false when it is not dead or canceled. */
export async function retryJob(db: SqlClient, schema: string, id: string): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set status = 'queued', attempts = 0, run_at = clock_timestamp(), finished_at = null, worker = null
      where id = $1 and status in ('dead', 'canceled') returning id`,
    [id],
  );
  if (done) await sqlRows(db, 'select pg_notify($1, $2)', [jobsChannel(schema), 'retry']);
  return !!done;
}

/** Cancel a job still queued (one conditional statement: a claim at the same moment wins or loses cleanly). */
export async function cancelJob(db: SqlClient, schema: string, id: string): Promise<boolean> {
  const done = await sqlOne(
    db,
    `update ${jobsTable(schema)} set status = 'canceled', finished_at = clock_timestamp() where id = $1 and status = 'queued' returning id`,
    [id],
  );
  return !!done;
}

/** Delete succeeded and canceled jobs finished more than `olderThanMs` ago (dead letters stay). */
export async function purgeJobs(db: SqlClient, schema: string, olderThanMs: number): Promise<number> {
  const gone = await sqlRows(
    db,
    `delete from ${jobsTable(schema)} where status in ('succeeded', 'canceled')
        and finished_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000) returning id`,
    [olderThanMs],
  );
  return gone.length;
}

/** Per kind (`kinds` always, with zeros when idle): jobs queued (delayed ones too) and running, and the age of the oldest due, unclaimed one (lib/metrics.ts). */
export async function queueSnapshot(db: SqlClient, schema: string, kinds: readonly string[]): Promise<{ kind: string; queued: number; running: number; lagSeconds: number }[]> {
  const rows = await sqlRows<{ kind: string; queued: number; running: number; lag: number | null }>(
    db,
    `select kind,
            count(*) filter (where status = 'queued')::int as queued,
            count(*) filter (where status = 'running')::int as running,
            extract(epoch from clock_timestamp() - min(run_at) filter (where status = 'queued' and run_at <= clock_timestamp()))::float8 as lag
       from ${jobsTable(schema)} where status in ('queued', 'running') group by kind`,
  );
  const out = new Map(kinds.map((kind) => [kind, { kind, queued: 0, running: 0, lagSeconds: 0 }]));
  for (const r of rows) out.set(r.kind, { kind: r.kind, queued: r.queued, running: r.running, lagSeconds: Math.max(0, r.lag ?? 0) });
  return [...out.values()];
}
