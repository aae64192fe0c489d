// Runs the renewal job periodically inside the platform subgraph process (every replica: the job
// itself shares the work safely). Runs never overlap within one process.
import { systemClock, type Clock } from '../../../lib/clock.js';
import type { Worker, WorkerDeps } from '../../../lib/subgraph.js';
import type { OutboxDeps } from '../notifications/account-events.js';
import { runBillingCycle } from './billing.job.js';

export const BILLING_INTERVAL_MS = 60_000;
const FIRST_RUN_MS = 5_000;

export function startBillingWorker(deps: WorkerDeps & { outbox: OutboxDeps }, opts: { intervalMs?: number; clock?: Clock } = {}): Worker {
  const log = deps.log.child({ worker: 'billing' });
  const clock = opts.clock ?? systemClock;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runBillingCycle({ em: deps.orm.em.fork(), clock, pubsub: deps.pubsub, log, outbox: deps.outbox })
      .then((r) => {
        if (r.subscriptions || r.failed) log.info('billing run', { ...r });
      })
      .catch((err) => log.error('billing run failed', { err }))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(tick, FIRST_RUN_MS);
  const timer = setInterval(tick, opts.intervalMs ?? BILLING_INTERVAL_MS);
  first.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
