// One billing unit of work: a transaction, a logical "now" from the clock, and the account events
// of its changes. The events are written to the account-events outbox inside the transaction (so
// the webhooks get them if and only if the change commits) and published on the platform's topic
// after the commit (never for work that rolled back).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../lib/clock.js';
import { publishAfterCommit } from '../../../lib/events.js';
import { accountTopics, KEYS_INVALIDATED_TOPIC, type AccountEventPayload, type KeysInvalidatedPayload } from '../event-types.js';
import type { Logger } from '../../../lib/logger.js';
import type { PubSub } from '../../../lib/pubsub.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { kickDeliveries, recordAccountEvent, type OutboxDeps } from '../notifications/account-events.js';
import type { BillingTx } from './subscription.ledger.js';

export interface BillingDeps {
  em: EntityManager;
  clock: Clock;
  pubsub: PubSub;
  log: Logger;
  /** sealing for the outbox, and the delivery worker to wake (the platform runtime's, in the subgraph) */
  outbox: OutboxDeps;
}

export async function inBillingTx<T>(deps: BillingDeps, fn: (tx: BillingTx) => Promise<T>): Promise<T> {
  const events: AccountEventPayload[] = [];
  const now = deps.clock.now();
  const result = await deps.em.transactional(async (em) => {
    const tx: BillingTx = { em: em as EntityManager, now, events, outbox: deps.outbox };
    const r = await fn(tx);
    await recordBillingEvents(tx);
    return r;
  });
  if (events.length) kickDeliveries(deps.outbox);
  await publishAccountEvents(deps.pubsub, events, deps.log);
  return result;
}

/** The transaction's events into the outbox, under the ids they are published with. */
async function recordBillingEvents(tx: BillingTx): Promise<void> {
  if (tx.events.length === 0) return;
  const ids = [...new Set(tx.events.map((e) => e.accountId))];
  // by id with the platform filter off: the job runs for every platform, and the API caller has
  // already reached the account through the filter
  const accounts = new Map((await tx.em.find(AccountEntity, { id: { $in: ids } }, { filters: false })).map((a) => [a.id, a]));
  for (const e of tx.events) {
    const account = accounts.get(e.accountId);
    if (!account) throw new Error(`billing event ${e.event} for unknown account ${e.accountId}`);
    await recordAccountEvent(tx, {
      account,
      event: e.event,
      id: e.id,
      occurredAt: new Date(e.occurredAt),
      subject: e.subject,
      data: e.data,
      summary: billingSummary(account, e),
    });
  }
}

function billingSummary(account: AccountEntity, e: AccountEventPayload): string {
  const d = e.data as Record<string, unknown>;
  const what = e.subject?.type === 'invoice' ? `invoice ${e.subject.id} (${String(d.amount_cents ?? '?')} ${String(d.currency ?? '')})` : `subscription ${e.subject?.id ?? ''} (${String(d.model_code ?? '')}, ${String(d.status ?? '')})`;
  return `${account.name} (${account.urlId}): ${e.event}: ${what}`;
}

/** Publish failures are logged, not thrown: the change is committed, and the outbox still delivers it. */
export async function publishAccountEvents(pubsub: PubSub, events: readonly AccountEventPayload[], log: Logger): Promise<void> {
  for (const e of events) await publishAfterCommit({ pubsub, log }, accountTopics.accountEvents(e.platformId), e, e.event);
  // The account's plan travels with the gateways' cached key records (tenant.plan): a subscription
  // change must drop them, or plan limits would follow the change only after the cache TTL.
  const accountIds = [...new Set(events.filter((e) => e.event.startsWith('subscription.')).map((e) => e.accountId))];
  if (accountIds.length) {
    const payload: KeysInvalidatedPayload = { reason: 'subscription.changed', occurredAt: new Date().toISOString(), accountIds };
    await publishAfterCommit({ pubsub, log }, KEYS_INVALIDATED_TOPIC, payload, 'keys.invalidated');
  }
}
