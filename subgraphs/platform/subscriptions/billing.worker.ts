// The renewal job as a recurring job of lib/jobs (kind `platform.billing.renewal`): one run at a
// time across every replica (its dedupe key admits one pending run), each run enqueuing the next
// `intervalMs` later in the transaction that completes it. Every process makes sure a run is
// pending when it starts (first run FIRST_RUN_MS after start when none is). A run that fails is
// retried with backoff; one dead-lettered still schedules the next, so the cycle never stops.
import type { EntityManager } from '@mikro-orm/postgresql';
import { systemClock, type Clock } from '../../../lib/clock.js';
import { enqueueJob, type JobKind, type SqlClient } from '../../../lib/jobs/index.js';
import type { WorkerDeps } from '../../../lib/subgraph.js';
import type { OutboxDeps } from '../notifications/account-events.js';
import { runBillingCycle } from './billing.job.js';

export const BILLING_INTERVAL_MS = 60_000;
export const BILLING_JOB_KIND = 'platform.billing.renewal';
const FIRST_RUN_MS = 5_000;
const SCHEMA = 'platform';

function scheduleNext(tx: SqlClient, inMs: number) {
  return enqueueJob(tx, SCHEMA, { kind: BILLING_JOB_KIND, dedupeKey: BILLING_JOB_KIND, runAt: new Date(Date.now() + inMs) });
}

export function billingRenewalKind(deps: WorkerDeps & { outbox: OutboxDeps }, opts: { intervalMs?: number; clock?: Clock } = {}): JobKind {
  const log = deps.log.child({ worker: 'billing' });
  const clock = opts.clock ?? systemClock;
  const every = opts.intervalMs ?? BILLING_INTERVAL_MS;
  return {
    kind: BILLING_JOB_KIND,
    maxAttempts: 3,
    backoff: { baseMs: 2000, maxMs: 30_000 },
    async handle({ complete }) {
      const r = await runBillingCycle({ em: deps.orm.em.fork(), clock, pubsub: deps.pubsub, log, outbox: deps.outbox });
      if (r.subscriptions || r.failed) log.info('billing run', { ...r });
      await deps.orm.em.fork().transactional(async (tx) => {
        await complete(tx as EntityManager, r);
        await scheduleNext(tx as EntityManager, every);
      });
    },
    async onDead(_job, error, tx) {
      log.error('billing run dead-lettered; the next one is scheduled', { error });
      await scheduleNext(tx, every);
    },
  };
}

/**
 * The renewal kind, after making sure a run is pending (the first `firstRunMs` after start when none
 * is): the subscription module's jobs (billing.module.ts), run by the platform's job worker.
 */
export async function billingJobs(deps: WorkerDeps & { outbox: OutboxDeps }, opts: { intervalMs?: number; clock?: Clock; firstRunMs?: number } = {}): Promise<JobKind[]> {
  await scheduleNext(deps.orm.em.fork(), opts.firstRunMs ?? FIRST_RUN_MS);
  return [billingRenewalKind(deps, opts)];
}
