// lib/jobs: the one durable job queue of every subgraph, on PostgreSQL. Semantics: docs/kernel.md#jobs.
//
// 1. The table. List JobEntity among the subgraph's entities, and create the table in a migration:
//        for (const sql of jobsTableDdl('catalog')) this.addSql(sql);
//        entities: [..., JobEntity]
//
// 2. A kind. Handlers are registered per kind by the subgraph that owns them:
//        export const expireReservation: JobKind<{ reservationId: string }> = {
//          kind: 'catalog.reservation.expire',
//          maxAttempts: 8,                                  // then dead-lettered (status 'dead', listJobs)
//          backoff: { baseMs: 1000, maxMs: 60_000 },        // exponential between tries
//          topic: (job) => `catalog.jobs:${job.payload.appId}`, // progress and lifecycle events on the PubSub
//          async handle({ job, complete, progress, signal }) {
//            await em.transactional(async (tx) => {
//              ...effects...
//              await complete(tx);  // optional: the job's completion commits with the effects (exactly once)
//            });
//          },
//        };
//    A handler that throws is retried with backoff; PermanentJobError dead-letters at once.
//
// 3. Enqueue in the caller's transaction, so the change and its job commit (or roll back) together:
//        await em.transactional(async (tx) => {
//          ...change...
//          await enqueueJob(tx, 'catalog', { kind: 'catalog.reservation.expire', payload: { reservationId },
//                                            runAt: expiresAt, key: `reservation:${reservationId}` });
//        });
//    `key`: jobs sharing it run one at a time in acceptance order. `dedupeKey`: nothing is enqueued while a
//    queued or running job has it. `db` may be a pg client in a transaction, a pool, or an EntityManager.
//
// 4. Declare the kind in its aggregate's module; composeModules starts the subgraph's job workers
//    through its workers hook (stopped gracefully with the process), lib/subgraph-module.ts:
//        export const inventoryModule: SubgraphModule<CatalogContext> = { ..., jobs: (deps) => [expireReservation] };
//        const modules = composeModules([...], { schema: 'catalog' });   workers: modules.workers
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { WorkerDeps } from '../subgraph.js';
import { insertJob } from './store.js';
import type { SqlClient } from './sql.js';
import type { Job, JobSpec } from './types.js';
import { JobWorker, type JobWorkerOptions } from './worker.js';

export { JobEntity, JOB_STATUSES, type JobStatus } from './job.entity.js';
export { jobsTableDdl } from './ddl.js';
export { DEFAULT_BACKOFF, retryDelayMs, type Backoff } from './backoff.js';
export { cancelJob, findJob, listJobs, lockJobKey, purgeJobs, releaseDedupe, retryJob, type JobQuery } from './store.js';
export type { SqlClient } from './sql.js';
export { JobWorker, type JobWorkerOptions } from './worker.js';
export * from './types.js';

function isPool(db: SqlClient): db is pg.Pool {
  return typeof (db as pg.Pool).connect === 'function' && typeof (db as pg.Pool).totalCount === 'number';
}

function isEntityManager(db: SqlClient): db is EntityManager {
  return typeof (db as EntityManager).transactional === 'function';
}

/**
 * Enqueue a job in `db`'s transaction (a pool or an EntityManager outside a transaction get one of
 * their own). Answers the job, or null when `dedupeKey` matched a pending job.
 */
export async function enqueueJob<P = Record<string, unknown>>(db: SqlClient, schema: string, spec: JobSpec<P>): Promise<Job<P> | null> {
  if (isPool(db)) {
    const c = await db.connect();
    try {
      await c.query('begin');
      const job = await insertJob(c, schema, spec);
      await c.query('commit');
      return job;
    } catch (e) {
      await c.query('rollback').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }
  if (isEntityManager(db) && !db.isInTransaction()) return db.transactional((tx) => insertJob(tx as EntityManager, schema, spec));
  return insertJob(db, schema, spec);
}

/** Start a worker for `kinds` on the subgraph's database (the `workers(deps)` hook). */
export async function startJobWorker(deps: WorkerDeps, o: Omit<JobWorkerOptions, 'dbUrl' | 'log' | 'pubsub'> & Partial<Pick<JobWorkerOptions, 'pubsub'>>): Promise<JobWorker> {
  const worker = new JobWorker({ ...o, dbUrl: deps.orm.config.get('clientUrl') as string, listenUrl: deps.cfg.databaseDirectUrl, log: deps.log, pubsub: o.pubsub ?? deps.pubsub });
  await worker.start();
  return worker;
}
