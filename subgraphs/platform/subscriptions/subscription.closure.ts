// Deleting an account, which is a billing change: the live subscription ends now (cancel_now), in the
// transaction of the delete, so the history records the churn and MRR stops counting it at once.
// Restoring the account does not bring the subscription back: a restored account starts on no plan
// (free) and subscribes again (docs/billing.md); the restore is the account aggregate's own
// (accounts/account.service.ts). The delete lives here, above accounts/, so the account aggregate
// imports nothing of the subscription aggregate.
import { LockMode } from '@mikro-orm/core';
import { systemClock } from '../../../lib/clock.js';
import type { PlatformContext } from '../context.js';
import { publishKeysInvalidated } from '../events.js';
import type { AccountEntity } from '../accounts/account.entity.js';
import { accountEventData, getAccount } from '../accounts/account.service.js';
import { recordAccountEvent } from '../notifications/account-events.js';
import { inBillingTx } from './billing.tx.js';
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

/**
 * Soft delete: gone from lists and lookups (its keys stop working), kept in the database, restorable.
 * Its live subscription ends now in the same transaction (MRR stops counting it; a restore does not
 * bring it back), with the subscription's events and account.deleted in the outbox.
 */
export async function deleteAccount(ctx: PlatformContext, ref: string): Promise<AccountEntity> {
  const account = await getAccount(ctx, ref);
  await inBillingTx({ em: ctx.em, clock: systemClock, pubsub: ctx.pubsub, log: ctx.log, outbox: ctx.runtime.outbox }, async (tx) => {
    const ended = await endLiveSubscription(tx, account.id);
    account.deletedAt = tx.now;
    await recordAccountEvent(tx, { account, event: 'account.deleted', data: { ...accountEventData(account), canceled_subscription_id: ended?.id ?? null } });
  });
  await publishKeysInvalidated(ctx, { accountIds: [account.id] }, 'account.deleted');
  return account;
}
