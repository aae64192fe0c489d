// The renewal job: advances every subscription whose time has come, driven by an injectable Clock.
// Each subscription is advanced in its own transaction, locked with SKIP LOCKED, so replicas running
// the job at once share the work instead of doubling it (and invoices are unique per period anyway).
// Moves are applied in the order they happened, at their logical time (an invoice's due date, a
// period's end), so a job that did not run for weeks replays them correctly.
import type { Clock } from '../../../lib/clock.js';
import type { Logger } from '../../../lib/logger.js';
import type { PubSub } from '../../../lib/pubsub.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxDeps } from '../notifications/account-events.js';
import { inBillingTx } from './billing.tx.js';
import { applyMove, type BillingTx } from './subscription.ledger.js';
import { earliestOverdue, lockForJob, subscriptionsDue } from './subscription.repository.js';
import type { SubscriptionEntity } from './subscription.entity.js';
import { isRunning, type Move } from './subscription.rules.js';

export interface BillingRunDeps {
  em: EntityManager;
  clock: Clock;
  pubsub: PubSub;
  log: Logger;
  /** sealing for the outbox, and the delivery worker to wake (the platform runtime's, in the subgraph; a test running the job brings its own) */
  outbox: OutboxDeps;
}

export interface BillingRunResult {
  subscriptions: number;
  moves: Partial<Record<Move, number>>;
  failed: number;
}

const BATCH = 200;
/** Enough steps to replay two years of monthly periods for one subscription in one run. */
const MAX_STEPS = 48;

/** One run at clock.now(). `platformId` limits it to one platform (tests, operators); the worker runs it for all. */
export async function runBillingCycle(deps: BillingRunDeps, opts: { platformId?: string } = {}): Promise<BillingRunResult> {
  const now = deps.clock.now();
  const result: BillingRunResult = { subscriptions: 0, moves: {}, failed: 0 };
  const done = new Set<string>();
  const skip: string[] = [];
  for (;;) {
    const ids = (await subscriptionsDue(deps.em.fork(), now, { platformId: opts.platformId, limit: BATCH, skip })).filter((id) => !done.has(id));
    if (ids.length === 0) break;
    for (const id of ids) {
      done.add(id);
      try {
        const moves = await inBillingTx({ ...deps, em: deps.em.fork(), clock: { now: () => now } }, (tx) => advance(tx, id));
        if (moves.length) result.subscriptions++;
        for (const m of moves) result.moves[m] = (result.moves[m] ?? 0) + 1;
      } catch (err) {
        result.failed++;
        skip.push(id);
        deps.log.error('billing: advancing a subscription failed', { subscriptionId: id, err });
      }
    }
  }
  return result;
}

/** Apply every move due by tx.now to one subscription, oldest first. */
async function advance(tx: BillingTx, id: string): Promise<Move[]> {
  const sub = await lockForJob(tx.em, id);
  const moves: Move[] = [];
  if (!sub) return moves;
  for (let i = 0; i < MAX_STEPS && isRunning(sub.status); i++) {
    const periodEnded = sub.currentPeriodEnd.getTime() <= tx.now.getTime();
    const overdue = sub.status === 'active' ? await earliestOverdue(tx.em, sub.id, tx.now) : null;
    if (overdue && (!periodEnded || overdue.dueAt.getTime() < sub.currentPeriodEnd.getTime())) {
      await step(tx, sub, 'become_past_due', overdue.dueAt, moves);
      continue;
    }
    if (!periodEnded) break;
    await step(tx, sub, periodEndMove(sub), sub.currentPeriodEnd, moves);
  }
  return moves;
}

/** What happens when a running subscription's period ends. */
export function periodEndMove(sub: Pick<SubscriptionEntity, 'status' | 'cancelAtPeriodEnd' | 'autoRenew'>): Move {
  if (sub.cancelAtPeriodEnd || !sub.autoRenew) return 'expire';
  if (sub.status === 'trialing') return 'convert_trial';
  if (sub.status === 'past_due') return 'lapse';
  return 'renew';
}

async function step(tx: BillingTx, sub: SubscriptionEntity, move: Move, at: Date, moves: Move[]): Promise<void> {
  await applyMove(tx, sub, move, { at });
  await tx.em.flush(); // the next step's overdue query must see the invoice this one issued
  moves.push(move);
}
