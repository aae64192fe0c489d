// The task worker of one search process. Any number of processes may run one against the same
// database; PostgreSQL arbitrates:
//  1. claim (short transaction): the oldest task whose index has no older unfinished task, taken
//     with FOR UPDATE SKIP LOCKED and marked processing with a lease — or a processing task whose
//     lease ran out (its worker died);
//  2. run (one transaction): lock the task row again (a re-claim skips it while we hold it), apply
//     the effects, mark it succeeded, write the webhook outbox — all or nothing;
//  3. after commit: update this process's engine, publish the task event, wake the dispatcher.
// A worker killed mid-run loses its transaction (nothing applied); its lease expires and another
// worker (or the same process restarted) runs the task again from scratch.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DomainError } from '../../../lib/errors.js';
import { searchTaskTopic, type SearchTaskEventName, type SearchTaskEventPayload } from '../event-types.js';
import type { Environment } from '../../../lib/tenant.js';
import { one, run, withTx } from '../db.js';
import { asClientError } from '../errors.js';
import type { SearchRuntime } from '../runtime.js';
import { T } from '../sql.js';
import { queueWebhookEvent } from '../webhooks/webhook.events.js';
import type { TaskErrorData } from './task.entity.js';
import { failureEvent, HANDLERS, lockIndex, type HandlerResult } from './task.handlers.js';
import { TASK_CHANNEL, TASK_COLUMNS, type TaskRow } from './task.queue.js';

export class TaskWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private pending = false;
  private loop: Promise<void> | undefined;
  private listener: pg.Client | undefined;
  /** tasks this worker committed */
  processed = 0;
  /** when this worker last finished a task (maintenance such as snapshots waits for quiet) */
  lastActivity = Date.now();

  constructor(private rt: SearchRuntime, private dbUrl: string) {}

  async start(): Promise<void> {
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
  }

  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  /** NOTIFY from any process's enqueue wakes this worker at once; polling covers a lost connection and lease expiry. */
  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.dbUrl });
    client.on('notification', () => this.wake());
    client.on('error', (e) => {
      this.rt.log.warn('task listener lost its connection; polling until it is back', { err: e });
      this.listener = undefined;
      setTimeout(() => void (this.stopped ? undefined : this.listen().catch(() => undefined)), 1000).unref();
    });
    await client.connect();
    await client.query(`listen ${TASK_CHANNEL}`);
    this.listener = client;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.pending = false;
      let task: TaskRow | undefined;
      try {
        task = await this.claim();
      } catch (e) {
        this.rt.log.error('task claim failed', { err: e });
        await this.sleep(1000);
        continue;
      }
      if (task) {
        await this.process(task);
        this.lastActivity = Date.now();
        continue;
      }
      await this.sleep(this.rt.cfg.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.pending || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  /** Step 1. */
  async claim(): Promise<TaskRow | undefined> {
    const task = await withTx(this.rt.pool, async (c) => {
      const t = await one<TaskRow>(
        c,
        `with next as (
           select t.id from ${T.tasks} t
            where (t.status = 'enqueued' or (t.status = 'processing' and t.lease_until < clock_timestamp()))
              and not exists (select 1 from ${T.tasks} p
                               where p.index_id = t.index_id and p.id < t.id and p.status in ('enqueued', 'processing'))
            order by t.id
            limit 1
            for update skip locked)
         update ${T.tasks} t
            set status = 'processing', started_at = clock_timestamp(), attempts = t.attempts + 1, worker = $1,
                lease_until = clock_timestamp() + make_interval(secs => $2::double precision / 1000)
           from next where t.id = next.id
         returning ${TASK_COLUMNS.split(', ').map((c) => `t.${c}`).join(', ')}`,
        [this.id, this.rt.cfg.taskLeaseMs],
      );
      if (t?.index_id) await run(c, `update ${T.indexes} set is_indexing = true where id = $1`, [t.index_id]);
      return t;
    });
    if (task) await this.publish(task, 'task.processing', null);
    return task;
  }

  /** Steps 2 and 3. */
  async process(task: TaskRow): Promise<void> {
    const startedAt = task.started_at ? task.started_at.getTime() : Date.now();
    if (task.attempts > this.rt.cfg.taskMaxAttempts) {
      await this.fail(task, {
        code: 'task_interrupted',
        message: `The task was interrupted ${task.attempts - 1} times (its worker stopped mid-task) and is not retried again.`,
      });
      return;
    }
    let result: HandlerResult | null;
    try {
      result = await withTx(this.rt.pool, async (c) => {
        const cur = await one<{ status: string; worker: string | null }>(c, `select status, worker from ${T.tasks} where id = $1 for update`, [task.id]);
        // Canceled meanwhile, or re-claimed by another worker after our lease ran out: not ours any more.
        if (!cur || cur.status !== 'processing' || cur.worker !== this.id) return null;
        const index = await lockIndex(c, task.index_id);
        if (!index) throw new DomainError('index_not_found', `Index \`${task.index_uid}\` not found.`, { parameter: 'index_uid' });
        const handler = HANDLERS[task.type];
        if (!handler) throw new DomainError('BAD_REQUEST', `Task type ${task.type} is not processed by workers.`);
        const payload = await one<{ body: string }>(c, `select body from ${T.payloads} where task_id = $1`, [task.id]);
        const r = await handler({ c, task, index, payload: payload ? JSON.parse(payload.body) : {}, rt: this.rt, elapsed: () => Date.now() - startedAt });
        await run(
          c,
          `update ${T.tasks} set status = 'succeeded', details = $2, error = null, finished_at = clock_timestamp(),
                  duration_ms = greatest(0, round(extract(epoch from clock_timestamp() - started_at) * 1000))::int, lease_until = null
            where id = $1`,
          [task.id, JSON.stringify(r.details)],
        );
        if (!r.indexDeleted) {
          await run(c, `update ${T.indexes} set applied_task_id = $2, is_indexing = false, updated_at = clock_timestamp() where id = $1`, [index.id, task.id]);
        }
        await run(c, `delete from ${T.payloads} where task_id = $1`, [task.id]);
        if (r.webhook) await queueWebhookEvent(c, { appId: task.app_id, environment: task.environment }, r.webhook.event, r.webhook.data);
        return r;
      });
    } catch (e) {
      const client = asClientError(e);
      if (client) {
        await this.fail(task, { code: client.code, message: client.message, ...(client.opts.parameter ? { parameter: client.opts.parameter } : {}) });
      } else {
        await this.retryLater(task, e);
      }
      return;
    }
    if (!result) return;
    this.processed++;
    await result.after?.().catch((e) => this.rt.log.error('engine update after commit failed', { taskId: task.id, err: e }));
    await this.publish(task, 'task.succeeded', result.count);
    if (result.webhook) this.rt.wakeDispatcher();
  }

  /** Mark the task failed (if it is still ours), with its outbox event, in one transaction. */
  private async fail(task: TaskRow, error: TaskErrorData): Promise<void> {
    const done = await withTx(this.rt.pool, async (c) => {
      const n = await run(
        c,
        `update ${T.tasks} set status = 'failed', error = $2, finished_at = clock_timestamp(),
                duration_ms = greatest(0, round(extract(epoch from clock_timestamp() - started_at) * 1000))::int, lease_until = null
          where id = $1 and status = 'processing' and worker = $3`,
        [task.id, JSON.stringify(error), this.id],
      );
      if (!n) return false;
      if (task.index_id) await run(c, `update ${T.indexes} set is_indexing = false where id = $1`, [task.index_id]);
      await run(c, `delete from ${T.payloads} where task_id = $1`, [task.id]);
      const event = failureEvent(task.type);
      if (event) {
        await queueWebhookEvent(c, { appId: task.app_id, environment: task.environment }, event, {
          task_id: String(task.id),
          index_uid: task.index_uid,
          error: { code: error.code, message: error.message },
        });
      }
      return true;
    }).catch((e) => {
      this.rt.log.error('could not record a task failure; its lease will expire and it will run again', { taskId: task.id, err: e });
      return false;
    });
    if (!done) return;
    await this.publish(task, 'task.failed', null);
    this.rt.wakeDispatcher();
  }

  /** A fault (database gone, bug): keep the task processing and let its lease run out for a retry. */
  private async retryLater(task: TaskRow, e: unknown): Promise<void> {
    this.rt.log.error('task run failed; it will be retried', { taskId: task.id, attempt: task.attempts, err: e });
    await run(
      this.rt.pool,
      `update ${T.tasks} set lease_until = clock_timestamp() + make_interval(secs => $2::double precision / 1000) where id = $1 and worker = $3 and status = 'processing'`,
      [task.id, Math.min(1000 * task.attempts, this.rt.cfg.taskLeaseMs), this.id],
    ).catch(() => undefined);
  }

  private async publish(task: TaskRow, event: SearchTaskEventName, documentsIndexed: number | null): Promise<void> {
    const status = event.slice('task.'.length);
    const payload: SearchTaskEventPayload = {
      event,
      occurredAt: new Date().toISOString(),
      taskId: String(task.id),
      indexUid: task.index_uid,
      taskType: task.type,
      status,
      documentsIndexed,
    };
    await this.rt.pubsub.publish(searchTaskTopic(task.app_id, task.environment as Environment), payload).catch((err) => this.rt.log.warn('task event not published', { err }));
  }
}
