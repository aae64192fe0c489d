// Tasks in PostgreSQL: enqueue (task row + payload + its job in one transaction), read, cancel.
// Everything here takes the tenant explicitly; callers have resolved it from the request context.
import type pg from 'pg';
import { insertJob, lockJobKey } from '../../../lib/jobs/store.js';
import type { Db } from '../db.js';
import { one, rows, run, withTx } from '../db.js';
import { nextTenantValueSql } from '../../../lib/tenant-sequence.js';
import { SCHEMA, T } from '../sql.js';
import type { TaskErrorData, TaskStatus, TaskType } from './task.entity.js';

/** The next task uid of the partition at $1 (app) and $2 (environment). */
const NEXT_UID = nextTenantValueSql(SCHEMA, { name: `'task'`, app: '$1', env: '$2' });
/** where that counter is kept */
const SCHEMA_SEQUENCES = `"${SCHEMA}"."tenant_sequences"`;

/** The job kind that runs a task (task.job.ts); its payload is `{ taskId }`. */
export const TASK_JOB_KIND = 'search.task';

/** The job key of an index: its tasks run one at a time, in the order they were accepted. */
export function indexQueueKey(indexId: string): string {
  return `index:${indexId}`;
}

export interface TaskRow {
  /** internal: the job's reference, the order of application (indexes.applied_task_id) */
  id: string;
  /** the task uid the API shows: counted per app partition */
  uid: string;
  app_id: string;
  environment: string;
  index_id: string | null;
  index_uid: string;
  type: TaskType;
  status: TaskStatus;
  details: Record<string, unknown>;
  error: TaskErrorData | null;
  enqueued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
  attempts: number;
  worker: string | null;
}

export const TASK_COLUMNS =
  'id, uid, app_id, environment, index_id, index_uid, type, status, details, error, enqueued_at, started_at, finished_at, duration_ms, attempts, worker';

export interface NewTask {
  appId: string;
  environment: string;
  indexId: string | null;
  indexUid: string;
  type: TaskType;
  details: Record<string, unknown>;
  /** JSON text the worker parses (documents, ids, filter, settings) */
  payload?: string;
}

/**
 * Insert a task, its payload and the job that runs it, in `c`'s transaction. The task number is
 * drawn under the index's queue lock (held until commit), like the job's id: for one index, task
 * numbers increase in commit order, so "by id" is the order of acceptance and of application.
 * The index's uid is read under that lock too, so a swap (which takes it) never leaves the task
 * under the name the index had before.
 */
export async function insertTask(c: pg.PoolClient, t: NewTask): Promise<TaskRow> {
  const key = t.indexId ? indexQueueKey(t.indexId) : null;
  if (key) await lockJobKey(c, SCHEMA, key);
  // the task and its payload in one statement (one round trip less on every enqueue)
  const row = await one<TaskRow>(
    c,
    `with n as (${NEXT_UID}),
     task as (
       insert into ${T.tasks} (uid, app_id, environment, index_id, index_uid, type, status, details, enqueued_at, attempts)
       select n.last_value, $1, $2, $3::text, coalesce((select uid from ${T.indexes} where id = $3::text), $4), $5, 'enqueued', $6, clock_timestamp(), 0 from n returning ${TASK_COLUMNS}),
     payload as (insert into ${T.payloads} (task_id, body) select id, $7::text from task where $7::text is not null)
     select ${TASK_COLUMNS} from task`,
    [t.appId, t.environment, t.indexId, t.indexUid, t.type, JSON.stringify(t.details), t.payload ?? null],
  );
  await insertJob(c, SCHEMA, { kind: TASK_JOB_KIND, key, payload: { taskId: String(row!.id) } });
  return row!;
}

export async function enqueueTask(pool: pg.Pool, t: NewTask): Promise<TaskRow> {
  return withTx(pool, (c) => insertTask(c, t));
}

/** A task already done when recorded (index creation happens in the request itself). */
export async function insertFinishedTask(db: Db, t: Omit<NewTask, 'payload'>): Promise<TaskRow> {
  const row = await one<TaskRow>(
    db,
    `with n as (${NEXT_UID})
     insert into ${T.tasks} (uid, app_id, environment, index_id, index_uid, type, status, details, enqueued_at, started_at, finished_at, duration_ms, attempts)
     select n.last_value, $1, $2, $3, $4, $5, 'succeeded', $6, clock_timestamp(), clock_timestamp(), clock_timestamp(), 0, 1 from n returning ${TASK_COLUMNS}`,
    [t.appId, t.environment, t.indexId, t.indexUid, t.type, JSON.stringify(t.details)],
  );
  return row!;
}

export interface Tenant {
  appId: string;
  environment: string;
}

/** By the uid the API shows (`uid`), within the tenant's partition. */
export async function findTask(db: Db, t: Tenant, uid: string): Promise<TaskRow | undefined> {
  if (!/^\d{1,18}$/.test(uid)) return undefined;
  return one<TaskRow>(db, `select ${TASK_COLUMNS} from ${T.tasks} where uid = $1 and app_id = $2 and environment = $3`, [uid, t.appId, t.environment]);
}

/** When the tenant's last finished task finished (null: none has). */
export async function lastFinished(db: Db, t: Tenant): Promise<Date | null> {
  const r = await one<{ at: Date | null }>(db, `select max(finished_at) as at from ${T.tasks} where app_id = $1 and environment = $2`, [t.appId, t.environment]);
  return r?.at ?? null;
}

/** A task time a selection bounds: Meilisearch's beforeEnqueuedAt, afterFinishedAt… (strict bounds). */
export interface TaskTimeBound {
  column: 'enqueued_at' | 'started_at' | 'finished_at';
  op: '<' | '>';
  at: Date;
}

export interface TaskSelection {
  types?: TaskType[];
  indexUids?: string[];
  uids?: string[];
  times?: TaskTimeBound[];
}

export interface TaskQuery extends TaskSelection {
  statuses?: TaskStatus[];
  limit: number;
  /** the first uid of the page (in the page's order): `next` of the previous page */
  from?: string;
  /** oldest first (Meilisearch's reverse); newest first otherwise */
  reverse?: boolean;
}

/**
 * The conditions naming the tenant's tasks a selection holds, and their arguments ($1, $2… in order);
 * `add` appends one more condition with its `?` argument.
 */
function taskConditions(t: Tenant, q: TaskSelection & { statuses?: TaskStatus[] }) {
  const where = ['app_id = $1', 'environment = $2'];
  const args: unknown[] = [t.appId, t.environment];
  const add = (sql: string, v: unknown) => {
    args.push(v);
    where.push(sql.replace('?', `$${args.length}`));
  };
  if (q.statuses?.length) add('status = any(?::text[])', q.statuses);
  if (q.types?.length) add('type = any(?::text[])', q.types);
  if (q.indexUids?.length) add('index_uid = any(?::text[])', q.indexUids);
  if (q.uids?.length) add('uid = any(?::bigint[])', q.uids);
  // column and operator come from TaskTimeBound's closed types, never from the request's text; the
  // times compare as the API shows them (milliseconds), so a bound copied from a task excludes that task
  for (const b of q.times ?? []) add(`date_trunc('milliseconds', ${b.column}) ${b.op} ?::timestamptz`, b.at);
  return { where, args, add };
}

/** Newest first (oldest first with `reverse`); one more than `limit` is read to tell whether a next page exists. */
export async function listTasks(db: Db, t: Tenant, q: TaskQuery): Promise<{ tasks: TaskRow[]; next: string | null }> {
  const { where, args, add } = taskConditions(t, q);
  if (q.from) add(q.reverse ? 'uid >= ?' : 'uid <= ?', q.from);
  args.push(q.limit + 1);
  const order = q.reverse ? 'asc' : 'desc';
  const got = await rows<TaskRow>(db, `select ${TASK_COLUMNS} from ${T.tasks} where ${where.join(' and ')} order by uid ${order} limit $${args.length}`, args);
  const next = got.length > q.limit ? got[q.limit].uid : null;
  return { tasks: got.slice(0, q.limit), next };
}

/**
 * Cancel the enqueued tasks a selection names, oldest first, at most `max` (a worker claiming one at
 * the same moment wins or loses cleanly: the update skips rows it has locked); their payloads go in
 * the same transaction. Returns the canceled rows and how many such tasks are still enqueued.
 */
export async function cancelTasks(pool: pg.Pool, t: Tenant, q: TaskSelection, max: number): Promise<{ canceled: TaskRow[]; remaining: number }> {
  const { where, args } = taskConditions(t, { ...q, statuses: ['enqueued'] });
  const selected = where.join(' and ');
  return withTx(pool, async (c) => {
    const canceled = await rows<TaskRow>(
      c,
      `update ${T.tasks} set status = 'canceled', finished_at = clock_timestamp(), duration_ms = 0,
              details = details || jsonb_build_object('canceled_at', clock_timestamp())
        where id in (select id from ${T.tasks} where ${selected} order by uid limit ${Math.trunc(max)} for update skip locked)
        returning ${TASK_COLUMNS}`,
      args,
    );
    if (canceled.length) await run(c, `delete from ${T.payloads} where task_id = any($1::bigint[])`, [canceled.map((r) => r.id)]);
    const [left] = await rows<{ n: number }>(c, `select count(*)::int as n from ${T.tasks} where ${selected}`, args);
    return { canceled: canceled.sort((a, b) => Number(a.uid) - Number(b.uid)), remaining: left.n };
  });
}

/** The statuses a task ends in: only these can be deleted. */
export const FINISHED_STATUSES: readonly TaskStatus[] = ['succeeded', 'failed', 'canceled'];

/**
 * Delete the finished tasks a selection names, oldest first, at most `max`. Returns how many went and
 * how many such tasks are left.
 */
export async function deleteTasks(pool: pg.Pool, t: Tenant, q: TaskSelection & { statuses: TaskStatus[] }, max: number): Promise<{ deleted: number; remaining: number }> {
  const { where, args } = taskConditions(t, q);
  const selected = where.join(' and ');
  return withTx(pool, async (c) => {
    const deleted = await run(c, `delete from ${T.tasks} where id in (select id from ${T.tasks} where ${selected} order by uid limit ${Math.trunc(max)} for update skip locked)`, args);
    const [left] = await rows<{ n: number }>(c, `select count(*)::int as n from ${T.tasks} where ${selected}`, args);
    return { deleted, remaining: left.n };
  });
}

/**
 * The history's bound (Meilisearch deletes its oldest finished tasks past a million): in each app
 * partition whose task numbers passed `keep`, the finished tasks numbered `keep` or more below its
 * latest go, at most `batch` a call (the caller repeats while a call returns `batch`). A partition's
 * latest number is its counter (tenant_sequences), so no count is taken; the range is read off the
 * (app, environment, uid) index, and what was pruned is not read again, only unfinished old tasks.
 */
export async function pruneTaskHistory(db: Db, keep: number, batch: number): Promise<number> {
  return run(
    db,
    `delete from ${T.tasks} where id in (
       select t.id from ${SCHEMA_SEQUENCES} s
         join ${T.tasks} t on t.app_id = s.app_id and t.environment = s.environment and t.uid <= s.last_value - $1
        where s.name = 'task' and s.last_value > $1 and t.status = any($3::text[])
        limit $2 for update of t skip locked)`,
    [keep, batch, FINISHED_STATUSES],
  );
}

/**
 * Cancel a task that is still enqueued, in one conditional statement (a worker claiming it at the
 * same moment wins or loses cleanly). Returns the row after the attempt, and whether it was canceled now.
 */
export async function cancelTask(pool: pg.Pool, t: Tenant, id: string): Promise<{ task: TaskRow; canceled: boolean } | undefined> {
  return withTx(pool, async (c) => {
    const done = await one<TaskRow>(
      c,
      `update ${T.tasks} set status = 'canceled', finished_at = clock_timestamp(), duration_ms = 0,
              details = details || jsonb_build_object('canceled_at', clock_timestamp())
        where uid = $1 and app_id = $2 and environment = $3 and status = 'enqueued'
        returning ${TASK_COLUMNS}`,
      [id, t.appId, t.environment],
    );
    if (done) {
      await run(c, `delete from ${T.payloads} where task_id = $1`, [done.id]);
      return { task: done, canceled: true };
    }
    const cur = await findTask(c, t, id);
    return cur && { task: cur, canceled: false };
  });
}
