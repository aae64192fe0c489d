// What deleting an account does to its billing: the live subscription ends now (cancel_now), in the
// transaction of the delete, so the history records the churn and MRR stops counting it at once.
// Restoring the account does not bring the subscription back: a restored account starts on no plan
// (free) and subscribes again (docs/billing.md).
import { LockMode } from '@mikro-orm/core';
import type { BillingTx } from './subscription.ledger.js';
import { applyMove } from './subscription.ledger.js';
import { SubscriptionEntity } from './subscription.entity.js';

/** Cancel the account's non-canceled subscription now; null when it has none. */
export async function endLiveSubscription(tx: BillingTx, accountId: string): Promise<SubscriptionEntity | null> {
  // at most one live subscription per account (partial unique index subscriptions_one_live_per_account)
  const sub = await tx.em.findOne(SubscriptionEntity, { account: accountId, status: { $ne: 'canceled' } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!sub) return null;
  await tx.em.populate(sub, ['model']);
  await applyMove(tx, sub, 'cancel_now');
  return sub;
}
