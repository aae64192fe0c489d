// The worker of one process for one subgraph's jobs table. Any number of processes may run one
// against the same database; PostgreSQL arbitrates (store.ts). Per claimed job:
//   running event → handler (lease extended by a heartbeat) → succeeded | retry later | dead letter.
// A worker killed mid-job leaves the job `running` until its lease lapses; then any worker claims
// it again (the claim counts as an attempt). NOTIFY from an enqueue wakes the workers at once;
// polling covers delayed jobs, lapsed leases and a lost LISTEN connection.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { PgListener } from '../pg-listener.js';
import { createPgPool } from '../pg-pool.js';
import { observeJobClaimed, observeJobRun, trackJobQueue } from '../metrics.js';
import type { PubSub } from '../pubsub.js';
import { DEFAULT_BACKOFF, retryDelayMs } from './backoff.js';
import { jobsChannel } from './sql.js';
import * as store from './store.js';
import { LeaseLostError, PermanentJobError, type Job, type JobContext, type JobEvent, type JobEventName, type JobKind } from './types.js';

export interface JobWorkerOptions {
  /** the subgraph's PostgreSQL schema (its jobs table) */
  schema: string;
  kinds: JobKind[];
  /** LISTEN connection (unless listenUrl), and the pool when none is given */
  dbUrl: string;
  /** DATABASE_DIRECT_URL: the LISTEN connection when dbUrl goes through a transaction pooler (PgBouncer), where LISTEN does not hold */
  listenUrl?: string;
  pool?: pg.Pool;
  log: Logger;
  /** JobEvents of kinds with a topic are published here */
  pubsub?: PubSub;
  /** jobs run side by side in this process (default 1) */
  concurrency?: number;
  /** idle poll interval (default 1000 ms) */
  pollMs?: number;
  /** lease of kinds that set none (default 30 s) */
  leaseMs?: number;
  /** how long stop() waits for running handlers before aborting them (default 10 s) */
  stopGraceMs?: number;
  /** succeeded and canceled jobs are deleted this long after they finished (default 7 days) */
  retainMs?: number;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_ATTEMPTS = 5;
const PURGE_EVERY_MS = 10 * 60_000;

export class JobWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  /** jobs this worker finished (succeeded, retried or dead-lettered) */
  processed = 0;
  /** when this worker last finished a job (maintenance may wait for quiet) */
  lastActivity = Date.now();
  private kinds = new Map<string, JobKind>();
  private leases = new Map<string, number>();
  private pool: pg.Pool;
  private ownPool: boolean;
  private stopped = false;
  private pending = false;
  private sleepers = new Set<() => void>();
  private loops: Promise<void>[] = [];
  private running = new Map<string, { job: Job; abort: AbortController }>();
  private listener: PgListener | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private log: Logger;
  private untrack: (() => void) | undefined;

  constructor(private o: JobWorkerOptions) {
    for (const k of o.kinds) {
      if (this.kinds.has(k.kind)) throw new Error(`jobs: kind ${k.kind} registered twice`);
      this.kinds.set(k.kind, k);
      this.leases.set(k.kind, k.leaseMs ?? o.leaseMs ?? DEFAULT_LEASE_MS);
    }
    this.ownPool = !o.pool;
    this.log = o.log.child({ component: 'jobs', schema: o.schema, worker: this.id });
    // a connection the server dropped must not take the process down; the next query reconnects
    this.pool = o.pool ?? createPgPool({ connectionString: o.dbUrl, max: (o.concurrency ?? 1) + 2 }, this.log, 'job');
  }

  async start(): Promise<void> {
    if (this.kinds.size === 0) return;
    const listener = new PgListener({
      dbUrl: this.o.listenUrl ?? this.o.dbUrl,
      channel: jobsChannel(this.o.schema),
      log: this.log,
      onNotify: () => this.wake(),
      onReconnect: () => this.wake(),
      lostMessage: 'job listener lost its connection; polling until it is back',
    });
    await listener.start();
    this.listener = listener;
    if (this.stopped) {
      await listener.stop();
      return;
    }
    for (let i = 0; i < (this.o.concurrency ?? 1); i++) this.loops.push(this.loop());
    // queue depth and lag, read per scrape (lib/metrics.ts); the last worker started on a schema reports it
    this.untrack = trackJobQueue(this.o.schema, () => store.queueSnapshot(this.pool, this.o.schema, [...this.kinds.keys()]));
    this.purgeTimer = setInterval(() => {
      store.purgeJobs(this.pool, this.o.schema, this.o.retainMs ?? 7 * 86_400_000).catch((err) => this.log.warn('job purge failed', { err }));
    }, PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  /**
   * Claim nothing new, let running handlers finish (up to the grace period, and no later than the
   * process's shutdown `deadline` less the time to hand jobs back), then hand back what is left.
   */
  async stop(deadline?: number): Promise<void> {
    this.stopped = true;
    this.untrack?.();
    clearInterval(this.purgeTimer);
    this.wake();
    const all = Promise.all(this.loops);
    let timer: NodeJS.Timeout | undefined;
    const graceMs = Math.min(this.o.stopGraceMs ?? 10_000, deadline === undefined ? Infinity : Math.max(0, deadline - Date.now() - 500));
    const grace = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), graceMs)));
    const outcome = await Promise.race([all.then(() => 'done' as const), grace]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      for (const { job, abort } of this.running.values()) {
        abort.abort(new Error('the worker is stopping'));
        await store.releaseJob(this.pool, this.o.schema, job.id, this.id).catch(() => undefined);
      }
      this.log.warn('stopped with jobs still running; they were handed back', { jobs: [...this.running.keys()] });
    }
    await this.listener?.stop();
    this.listener = undefined;
    if (this.ownPool) await this.pool.end().catch(() => undefined);
  }

  wake(): void {
    this.pending = true;
    for (const s of [...this.sleepers]) s();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.pending = false;
      let job: Job | undefined;
      try {
        job = await store.claimJob(this.pool, this.o.schema, this.id, this.leases);
      } catch (err) {
        if (this.stopped) break;
        this.log.error('job claim failed', { err });
        await this.sleep(1000);
        continue;
      }
      if (job) {
        observeJobClaimed(this.o.schema, job.kind, Date.now() - job.runAt.getTime());
        const started = performance.now();
        const outcome = await this.process(job);
        observeJobRun(this.o.schema, job.kind, outcome, performance.now() - started);
        this.processed++;
        this.lastActivity = Date.now();
        continue;
      }
      await this.sleep(this.o.pollMs ?? 1000);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.pending || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.sleepers.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /** Run one claimed job; what became of it (for jobs_run_duration_seconds). */
  private async process(job: Job): Promise<'succeeded' | 'retry' | 'dead'> {
    const kind = this.kinds.get(job.kind)!;
    if (!job.maxAttempts) job.maxAttempts = kind.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (job.attempts > job.maxAttempts) {
      await this.bury(kind, job, `claimed ${job.attempts - 1} times without finishing (its workers stopped mid-run); not retried again`);
      return 'dead';
    }
    const abort = new AbortController();
    this.running.set(job.id, { job, abort });
    const leaseMs = this.leases.get(job.kind)!;
    const heartbeat = setInterval(() => {
      store
        .extendLease(this.pool, this.o.schema, job.id, this.id, leaseMs)
        .then((ours) => {
          if (!ours && !abort.signal.aborted) abort.abort(new LeaseLostError(`job ${job.id} is no longer this worker's`));
        })
        .catch((err) => this.log.warn('job heartbeat failed', { jobId: job.id, err }));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    let completed = false;
    const ctx: JobContext = {
      job,
      signal: abort.signal,
      progress: async (data) => {
        job.progress = data;
        if (await store.recordProgress(this.pool, this.o.schema, job.id, this.id, data)) await this.publish(kind, job, 'job.progress');
      },
      complete: async (tx, result) => {
        if (!(await store.completeJob(tx, this.o.schema, job.id, this.id, result))) throw new LeaseLostError(`job ${job.id} is no longer this worker's`);
        completed = true;
      },
    };
    try {
      await this.publish(kind, job, 'job.running');
      const result = await kind.handle(ctx);
      if (!completed && !(await store.completeJob(this.pool, this.o.schema, job.id, this.id, result))) {
        this.log.warn('job finished after its lease was lost; another worker runs it again', { jobId: job.id, kind: job.kind });
        return 'retry';
      }
      await this.publish(kind, job, 'job.succeeded');
      return 'succeeded';
    } catch (err) {
      return await this.failed(kind, job, err, abort.signal);
    } finally {
      clearInterval(heartbeat);
      this.running.delete(job.id);
    }
  }

  private async failed(kind: JobKind, job: Job, err: unknown, signal: AbortSignal): Promise<'retry' | 'dead'> {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof LeaseLostError || signal.reason instanceof LeaseLostError) {
      this.log.warn('job lost its lease; another worker runs it', { jobId: job.id, kind: job.kind });
      return 'retry';
    }
    if (err instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
      await this.bury(kind, job, message);
      return 'dead';
    }
    const delay = retryDelayMs(job.attempts, kind.backoff ?? DEFAULT_BACKOFF);
    this.log.warn('job failed; retrying later', { jobId: job.id, kind: job.kind, attempt: job.attempts, delayMs: delay, err });
    try {
      if (await store.requeueJob(this.pool, this.o.schema, job.id, this.id, message, delay)) {
        job.lastError = message;
        job.runAt = new Date(Date.now() + delay);
        await this.publish(kind, job, 'job.retrying');
      }
    } catch (e) {
      this.log.error('could not requeue a failed job; its lease will lapse and it runs again', { jobId: job.id, err: e });
    }
    return 'retry';
  }

  /** Dead-letter the job and let its kind record the failure, in one transaction. */
  private async bury(kind: JobKind, job: Job, error: string): Promise<void> {
    const c = await this.pool.connect();
    try {
      await c.query('begin');
      const ours = await store.buryJob(c, this.o.schema, job.id, this.id, error);
      const after = ours ? await kind.onDead?.(job, error, c) : undefined;
      await c.query('commit');
      if (!ours) return;
      this.log.error('job dead-lettered', { jobId: job.id, kind: job.kind, attempts: job.attempts, error });
      job.lastError = error;
      await this.publish(kind, job, 'job.dead');
      if (after) await after().catch((err) => this.log.warn('after-dead-letter step failed', { jobId: job.id, err }));
    } catch (err) {
      await c.query('rollback').catch(() => undefined);
      this.log.error('could not dead-letter a job; its lease will lapse and it is claimed again', { jobId: job.id, err });
    } finally {
      c.release();
    }
  }

  private async publish(kind: JobKind, job: Job, event: JobEventName): Promise<void> {
    const topic = this.o.pubsub && kind.topic?.(job);
    if (!topic) return;
    const payload: JobEvent = {
      event,
      occurredAt: new Date().toISOString(),
      jobId: job.id,
      kind: job.kind,
      key: job.key,
      attempts: job.attempts,
      progress: job.progress,
      error: event === 'job.retrying' || event === 'job.dead' ? job.lastError : null,
      runAt: event === 'job.retrying' ? job.runAt.toISOString() : null,
    };
    await this.o.pubsub!.publish(topic, payload).catch((err) => this.log.warn('job event not published', { err }));
  }
}
