// One billing unit of work: a transaction, a logical "now" from the clock, and account events that
// are published only after the transaction committed (never for work that rolled back).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../lib/clock.js';
import { accountTopics, type AccountEventPayload } from '../../../lib/events.js';
import type { Logger } from '../../../lib/logger.js';
import type { PubSub } from '../../../lib/pubsub.js';
import type { BillingTx } from './subscription.ledger.js';

export interface BillingDeps {
  em: EntityManager;
  clock: Clock;
  pubsub: PubSub;
  log: Logger;
}

export async function inBillingTx<T>(deps: BillingDeps, fn: (tx: BillingTx) => Promise<T>): Promise<T> {
  const events: AccountEventPayload[] = [];
  const now = deps.clock.now();
  const result = await deps.em.transactional((em) => fn({ em: em as EntityManager, now, events }));
  await publishAccountEvents(deps.pubsub, events, deps.log);
  return result;
}

/** Publish failures are logged, not thrown: the change is committed; delivery is best effort here. */
export async function publishAccountEvents(pubsub: PubSub, events: readonly AccountEventPayload[], log: Logger): Promise<void> {
  for (const e of events) {
    try {
      await pubsub.publish(accountTopics.accountEvents(e.platformId), e);
    } catch (err) {
      log.error('account event publish failed', { event: e.event, err });
    }
  }
}
