// The reservation expiry job (kind catalog.inventory.expire), a recurring job of lib/jobs: one run
// at a time across every replica (its dedupe key admits one pending run); each run gives back the
// stock of every active reservation past expires_at (the same statement a hold runs first, per
// item, across app partitions: a job has no request) and schedules the next run. Reads never
// counted those reservations after expires_at anyway; the job makes the counters agree.
import type { EntityManager } from '@mikro-orm/postgresql';
import { envInt } from '../../../lib/config.js';
import { enqueueJob, type JobKind, type SqlClient } from '../../../lib/jobs/index.js';
import type { WorkerDeps } from '../../../lib/subgraph.js';
import { CATALOG_SCHEMA } from '../runtime.js';
import { expiredItems, releaseExpired } from './inventory.repository.js';

export const EXPIRY_JOB_KIND = 'catalog.inventory.expire';
/** INVENTORY_EXPIRY_SWEEP_MS: time between runs (default 5 s). */
export const expirySweepMs = (): number => envInt(process.env, 'INVENTORY_EXPIRY_SWEEP_MS', 5000, 100);
const BATCH = 500;

export function scheduleExpiry(tx: SqlClient, inMs: number) {
  return enqueueJob(tx, CATALOG_SCHEMA, { kind: EXPIRY_JOB_KIND, dedupeKey: EXPIRY_JOB_KIND, runAt: new Date(Date.now() + inMs) });
}

/** One run: releases every expired reservation (in batches of items); answers how many items it touched. */
export async function releaseAllExpired(em: EntityManager): Promise<number> {
  let touched = 0;
  for (;;) {
    const rows = await expiredItems(em, BATCH);
    for (const r of rows) {
      await em.transactional(async (tx) => {
        await releaseExpired(tx as EntityManager, { appId: r.appId, environment: r.environment }, { productId: r.productId, variantId: r.variantId });
      });
    }
    touched += rows.length;
    if (rows.length < BATCH) return touched;
  }
}

export function reservationExpiryKind(deps: WorkerDeps): JobKind {
  const log = deps.log.child({ worker: 'inventory-expiry' });
  const every = expirySweepMs();
  return {
    kind: EXPIRY_JOB_KIND,
    maxAttempts: 3,
    backoff: { baseMs: 1000, maxMs: 30_000 },
    async handle({ complete }) {
      const items = await releaseAllExpired(deps.orm.em.fork() as EntityManager);
      if (items) log.info('expired reservations released', { items });
      await deps.orm.em.fork().transactional(async (tx) => {
        await complete(tx as EntityManager, { items });
        await scheduleExpiry(tx as EntityManager, every);
      });
    },
    async onDead(_job, error, tx) {
      log.error('inventory expiry run dead-lettered; the next one is scheduled', { error });
      await scheduleExpiry(tx, every);
    },
  };
}
