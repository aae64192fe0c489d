// Tasks run as jobs of lib/jobs (kind `search.task`, keyed by index: one at a time per index, in the
// order they were accepted). For one task:
//  1. start (short transaction): the task reads `processing` with this worker's id and attempt, the
//     index `is_indexing`; the `task.processing` event follows. A task canceled meanwhile is done.
//  2. run (one transaction): lock the task row (a worker that re-claimed the job after our lease ran
//     out waits here, then finds it finished), apply the effects, mark it succeeded, write the
//     webhook outbox and complete the job — all or nothing;
//  3. after commit: update this process's engine, publish the task event, wake the dispatcher.
// A client error (bad document, limit) fails the task with nothing applied. Any other fault is
// retried by the queue with backoff; a task whose job is dead-lettered (its attempts ran out,
// SEARCH_TASK_MAX_ATTEMPTS) fails with `task_interrupted`.
import type pg from 'pg';
import { DomainError } from '../../../lib/errors.js';
import type { JobContext, JobKind } from '../../../lib/jobs/index.js';
import { one, run, withTx } from '../db.js';
import { asClientError } from '../errors.js';
import type { SearchRuntime } from '../runtime.js';
import { T } from '../sql.js';
import { queueWebhookEvent, type WebhookEvent } from '../webhooks/webhook.events.js';
import type { TaskErrorData, TaskType } from './task.entity.js';
import { publishTaskEvent } from './task.events.js';
import type { HandlerResult, TaskHandlers, TaskIndexRow } from './task.handler.js';
import { TASK_COLUMNS, TASK_JOB_KIND, type TaskRow } from './task.queue.js';

export interface TaskJobPayload {
  taskId: string;
}

/** The job kind that runs tasks, each by its type's handler in `handlers` (../task-kinds/). */
export function taskJobKind(rt: SearchRuntime, handlers: TaskHandlers): JobKind<TaskJobPayload> {
  return {
    kind: TASK_JOB_KIND,
    maxAttempts: rt.cfg.taskMaxAttempts,
    leaseMs: rt.cfg.taskLeaseMs,
    // a fault (database gone) is retried soon: 1 s, 2 s, 4 s… up to one lease
    backoff: { baseMs: 1000, maxMs: rt.cfg.taskLeaseMs },
    handle: (ctx) => runTask(rt, handlers, ctx),
    onDead: (job, error, tx) => interrupted(rt, job.payload.taskId, job.attempts, error, tx as pg.PoolClient),
  };
}

async function runTask(rt: SearchRuntime, handlers: TaskHandlers, ctx: JobContext<TaskJobPayload>): Promise<void> {
  const task = await start(rt, ctx);
  if (!task) return;
  const startedAt = task.started_at ? task.started_at.getTime() : Date.now();
  let result: HandlerResult | null;
  try {
    result = await withTx(rt.pool, async (c) => {
      const locked = await lockTask(c, task.id);
      if (!locked || locked.status !== 'processing' || locked.worker !== ctx.job.worker) return null;
      const { index, body } = locked;
      if (!index) throw new DomainError('index_not_found', `Index \`${task.index_uid}\` not found.`, { parameter: 'indexUid' });
      const handler = handlers[task.type];
      if (!handler) throw new DomainError('BAD_REQUEST', `Task type ${task.type} is not processed by workers.`);
      const r = await handler({ c, task, index, payload: body === null ? {} : JSON.parse(body), payloadText: body, rt, elapsed: () => Date.now() - startedAt });
      await finish(c, task.id, index.id, r);
      if (r.webhook) await queueWebhookEvent(c, { appId: task.app_id, environment: task.environment }, r.webhook.event, r.webhook.data);
      await ctx.complete(c);
      return r;
    });
  } catch (e) {
    const client = asClientError(e);
    if (!client) throw e; // retried by the queue
    await fail(rt, ctx, task, { code: client.code, message: client.message, ...(client.opts.parameter ? { parameter: client.opts.parameter } : {}) });
    return;
  }
  if (!result) return;
  await result.after?.().catch((e) => rt.log.error('engine update after commit failed', { taskId: task.id, err: e }));
  await publishTaskEvent(rt, task, 'task.succeeded', result.count);
  if (result.webhook) rt.wakeDispatcher();
}

/**
 * Step 1: the task reads processing (this worker, this attempt), its index is_indexing; undefined
 * when it was canceled. One statement, so one round trip and its own transaction.
 */
async function start(rt: SearchRuntime, ctx: JobContext<TaskJobPayload>): Promise<TaskRow | undefined> {
  const task = await one<TaskRow>(
    rt.pool,
    `with t as (
       update ${T.tasks} set status = 'processing', started_at = clock_timestamp(), attempts = $2, worker = $3
        where id = $1 and status in ('enqueued', 'processing')
        returning ${TASK_COLUMNS}),
     i as (update ${T.indexes} set is_indexing = true where id = (select index_id from t))
     select ${TASK_COLUMNS} from t`,
    [ctx.job.payload.taskId, ctx.job.attempts, ctx.job.worker],
  );
  if (task) await publishTaskEvent(rt, task, 'task.processing', null);
  return task;
}

interface LockedTask {
  status: string;
  worker: string | null;
  /** the task's index row, locked too; undefined when the index is gone */
  index: TaskIndexRow | undefined;
  /** the payload's JSON text; null when the task has none */
  body: string | null;
}

/**
 * Step 2's first statement: lock the task row, then its index row (in that order, as every task
 * does), and read the payload, in one round trip.
 */
async function lockTask(c: pg.PoolClient, taskId: string): Promise<LockedTask | undefined> {
  const r = await one<TaskIndexRow & { status: string; worker: string | null; body: string | null; locked: boolean }>(
    c,
    `with t as materialized (select id, status, worker, index_id from ${T.tasks} where id = $1 for update),
     i as materialized (
       select id, uid, primary_key, settings, number_of_documents, applied_task_id, purged_through_task_id
         from ${T.indexes} where id = (select index_id from t) for update)
     select t.status, t.worker, i.id is not null as locked, i.id, i.uid, i.primary_key, i.settings, i.number_of_documents,
            i.applied_task_id, i.purged_through_task_id, (select body from ${T.payloads} where task_id = t.id) as body
       from t left join i on true`,
    [taskId],
  );
  if (!r) return undefined;
  const { status, worker, body, locked, ...index } = r;
  return { status, worker, body, index: locked ? index : undefined };
}

/**
 * Step 2's last statement: the task succeeded, the index row takes the task's changes (documents
 * gained or lost, primary key) and moves its applied task forward (tasks of an index are applied in
 * id order, so it only moves forward), the payload is deleted.
 */
async function finish(c: pg.PoolClient, taskId: string, indexId: string, r: HandlerResult): Promise<void> {
  await run(
    c,
    `with t as (
       update ${T.tasks} set status = 'succeeded', details = $2, error = null, finished_at = clock_timestamp(),
              duration_ms = greatest(0, round(extract(epoch from clock_timestamp() - started_at) * 1000))::int
        where id = $1),
     i as (
       update ${T.indexes} set applied_task_id = greatest(applied_task_id, $1), is_indexing = false, updated_at = clock_timestamp(),
              number_of_documents = number_of_documents + $4, primary_key = coalesce($5, primary_key)
        where id = $3 and not $6::boolean)
     delete from ${T.payloads} where task_id = $1`,
    [taskId, JSON.stringify(r.details), indexId, r.documentsDelta ?? 0, r.primaryKey ?? null, !!r.indexDeleted],
  );
}

/** Mark the task failed with its outbox event and complete the job, in one transaction. */
async function fail(rt: SearchRuntime, ctx: JobContext<TaskJobPayload>, task: TaskRow, error: TaskErrorData): Promise<void> {
  const done = await withTx(rt.pool, async (c) => {
    const ok = await recordFailure(c, task, error);
    await ctx.complete(c);
    return ok;
  });
  if (!done) return;
  await publishTaskEvent(rt, task, 'task.failed', null);
  rt.wakeDispatcher();
}

/** The job's attempts ran out (its workers kept dying, or a fault persisted): the task fails. */
async function interrupted(rt: SearchRuntime, taskId: string, attempts: number, error: string, c: pg.PoolClient): Promise<() => Promise<void>> {
  const task = await one<TaskRow>(c, `select ${TASK_COLUMNS} from ${T.tasks} where id = $1 for update`, [taskId]);
  const failed =
    task &&
    (await recordFailure(c, task, {
      code: 'task_interrupted',
      message: `The task was attempted ${attempts} times without finishing (${error}) and is not retried again.`,
    }));
  return async () => {
    if (!failed) return;
    await publishTaskEvent(rt, task, 'task.failed', null);
    rt.wakeDispatcher();
  };
}

/** Which webhook event a failed task raises, if any. */
function failureEvent(type: TaskType): WebhookEvent | undefined {
  return type.startsWith('document_') ? 'indexing.failed' : undefined;
}

async function recordFailure(c: pg.PoolClient, task: TaskRow, error: TaskErrorData): Promise<boolean> {
  const n = await run(
    c,
    `update ${T.tasks} set status = 'failed', error = $2, finished_at = clock_timestamp(),
            duration_ms = greatest(0, round(extract(epoch from clock_timestamp() - coalesce(started_at, enqueued_at)) * 1000))::int
      where id = $1 and status in ('enqueued', 'processing')`,
    [task.id, JSON.stringify(error)],
  );
  if (!n) return false;
  if (task.index_id) await run(c, `update ${T.indexes} set is_indexing = false where id = $1`, [task.index_id]);
  await run(c, `delete from ${T.payloads} where task_id = $1`, [task.id]);
  const event = failureEvent(task.type);
  if (event) {
    await queueWebhookEvent(c, { appId: task.app_id, environment: task.environment }, event, {
      task_id: String(task.uid),
      index_uid: task.index_uid,
      error: { code: error.code, message: error.message },
    });
  }
  return true;
}
