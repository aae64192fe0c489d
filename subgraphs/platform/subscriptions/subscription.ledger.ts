// Applying a move to a subscription row, inside the caller's transaction: the state machine decides
// (subscription.rules.ts), this file does the bookkeeping every move needs in the same commit: the
// row's dates, the history row with MRR before/after (reporting's source for MRR movement), invoices
// of new periods, and the account events (written to the outbox at the end of the transaction and
// published once it has committed: billing.tx.ts).
// Used by the API (subscription.service.ts) and the renewal job (billing.job.ts) alike.
import { newId } from '../../../lib/ids.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import type { AccountEventName, AccountEventPayload } from '../event-types.js';
import type { OutboxDeps } from '../notifications/account-events.js';
import { InvoiceEntity } from './invoice.entity.js';
import { processorNamed } from './payment-processor.js';
import { SubscriptionEventEntity } from './subscription-event.entity.js';
import type { SubscriptionEntity } from './subscription.entity.js';
import { subscriptionSnapshot } from './subscription.type.js';
import { arrOf, invoiceDueAt, movementOf, periodEndAfter, transition, type Move } from './subscription.rules.js';

/** One unit of billing work: a transaction's EntityManager, its logical "now", and the events of its changes. */
export interface BillingTx {
  em: EntityManager;
  now: Date;
  events: AccountEventPayload[];
  /** sealing for the outbox, when the caller brings its own (billing.tx.ts) */
  outbox?: OutboxDeps;
}

/** The row's recurring revenue as ARR cents (exact integer; MRR = ARR / 12). */
export function arrOfRow(s: SubscriptionEntity): number {
  return arrOf(s.status, s.billingCycle, s.priceCents);
}

const EVENT_OF: Record<Move, AccountEventName> = {
  cancel: 'subscription.updated',
  cancel_now: 'subscription.canceled',
  reactivate: 'subscription.updated',
  suspend: 'subscription.paused',
  change_plan: 'subscription.updated',
  convert_trial: 'subscription.trial_ended',
  renew: 'subscription.renewed',
  expire: 'subscription.canceled',
  become_past_due: 'subscription.past_due',
  settle: 'subscription.updated',
  lapse: 'subscription.canceled',
};

/**
 * Move `sub` (locked by the caller) through `move` at `at` (defaults to tx.now; the job passes the
 * logical time: the period boundary, the invoice's due date). Illegal moves throw
 * INVALID_SUBSCRIPTION_TRANSITION (409) and change nothing. `arrBefore` lets change_plan, which edits
 * price and cycle before calling, report the revenue the subscription had before the edit.
 */
export async function applyMove(tx: BillingTx, sub: SubscriptionEntity, move: Move, opts: { at?: Date; arrBefore?: number } = {}): Promise<void> {
  const at = opts.at ?? tx.now;
  const from = sub.status;
  const before = opts.arrBefore ?? arrOfRow(sub);
  const trialRunning = sub.trialEnd != null && sub.trialEnd.getTime() > at.getTime();
  const r = transition({ status: sub.status, cancelAtPeriodEnd: sub.cancelAtPeriodEnd }, move, { trialRunning });
  if (!r.ok) {
    throw new DomainError('INVALID_SUBSCRIPTION_TRANSITION', `Cannot ${move.replace(/_/g, ' ')}: ${r.reason}`, {
      meta: { status: sub.status, move },
    });
  }
  sub.status = r.state.status;
  sub.cancelAtPeriodEnd = r.state.cancelAtPeriodEnd;
  let newPeriod = false;

  switch (move) {
    case 'cancel':
      if (from === 'paused') end(sub, at);
      else sub.canceledAt = at;
      break;
    case 'cancel_now':
      end(sub, at);
      break;
    case 'reactivate':
      sub.canceledAt = null;
      if (from === 'paused') {
        sub.pausedAt = null;
        if (sub.status === 'trialing') {
          sub.currentPeriodStart = at;
          sub.currentPeriodEnd = sub.trialEnd!;
        } else {
          startPeriod(sub, at, at);
          newPeriod = true;
        }
      }
      break;
    case 'suspend':
      sub.pausedAt = at;
      break;
    case 'convert_trial':
      startPeriod(sub, sub.trialEnd ?? sub.currentPeriodEnd, sub.trialEnd ?? sub.currentPeriodEnd);
      newPeriod = true;
      break;
    case 'renew':
      sub.currentPeriodStart = sub.currentPeriodEnd;
      sub.currentPeriodEnd = periodEndAfter(sub.billingAnchor, sub.billingCycle, sub.currentPeriodStart);
      newPeriod = true;
      break;
    case 'expire':
    case 'lapse':
      sub.canceledAt ??= sub.currentPeriodEnd;
      sub.endedAt = sub.currentPeriodEnd;
      break;
    case 'change_plan':
    case 'become_past_due':
    case 'settle':
      break;
  }

  const label = move === 'reactivate' && from === 'paused' ? 'subscription.resumed' : EVENT_OF[move];
  const eventName: AccountEventName = move === 'cancel' && sub.status === 'canceled' ? 'subscription.canceled' : label;
  recordHistory(tx, sub, move, from, before, at);
  emit(tx, sub, eventName, move, at);
  if (newPeriod) await issueInvoice(tx, sub, at);
}

/** The history row and account event of a new subscription (its first invoice is issued by the caller). */
export function recordCreation(tx: BillingTx, sub: SubscriptionEntity): void {
  recordHistory(tx, sub, 'create', null, 0, tx.now);
  emit(tx, sub, 'subscription.created', 'create', tx.now);
}

function end(sub: SubscriptionEntity, at: Date): void {
  sub.canceledAt ??= at;
  sub.endedAt = at;
}

/** A new billing anchor and the first period counted from it. */
export function startPeriod(sub: SubscriptionEntity, anchor: Date, start: Date): void {
  sub.billingAnchor = anchor;
  sub.currentPeriodStart = start;
  sub.currentPeriodEnd = periodEndAfter(anchor, sub.billingCycle, start);
}

function recordHistory(tx: BillingTx, sub: SubscriptionEntity, type: Move | 'create', from: SubscriptionEntity['status'] | null, before: number, at: Date): void {
  const after = arrOfRow(sub);
  tx.em.create(SubscriptionEventEntity, {
    subscription: sub,
    account: sub.account,
    platform: sub.platform,
    type,
    fromStatus: from,
    toStatus: sub.status,
    modelCode: sub.model.code,
    billingCycle: sub.billingCycle,
    arrBeforeCents: before,
    arrAfterCents: after,
    movement: movementOf(before, after, type),
    occurredAt: at,
  });
}

function emit(tx: BillingTx, sub: SubscriptionEntity, event: AccountEventName, move: Move | 'create', at: Date): void {
  tx.events.push({
    id: newId('evt'),
    event,
    occurredAt: at.toISOString(),
    platformId: sub.platform.id,
    accountId: sub.account.id,
    subject: { type: 'subscription', id: sub.id },
    data: { ...subscriptionSnapshot(sub), move },
  });
}

/** The invoice of the subscription's current period (none for free plans: nothing to collect). */
export async function issueInvoice(tx: BillingTx, sub: SubscriptionEntity, at: Date): Promise<InvoiceEntity | null> {
  if (sub.priceCents <= 0) return null;
  const processor = processorNamed(sub.processor);
  const invoice = tx.em.create(InvoiceEntity, {
    subscription: sub,
    account: sub.account,
    platform: sub.platform,
    amountCents: sub.priceCents,
    currency: sub.currency,
    periodStart: sub.currentPeriodStart,
    periodEnd: sub.currentPeriodEnd,
    status: 'due',
    processor: processor.name,
    issuedAt: at,
    dueAt: invoiceDueAt(at),
  });
  const collected = await processor.collect({ id: invoice.id, accountId: sub.account.id, amountCents: invoice.amountCents, currency: invoice.currency });
  if (collected.status === 'paid') {
    invoice.status = 'paid';
    invoice.paidAt = at;
    invoice.paymentReference = collected.reference ?? null;
  }
  tx.events.push(invoiceEvent('invoice.created', invoice, at));
  return invoice;
}

export function invoiceEvent(event: AccountEventName, inv: InvoiceEntity, at: Date): AccountEventPayload {
  return {
    id: newId('evt'),
    event,
    occurredAt: at.toISOString(),
    platformId: inv.platform.id,
    accountId: inv.account.id,
    subject: { type: 'invoice', id: inv.id },
    data: invoiceSnapshot(inv),
  };
}

/** An invoice as its events carry it (snake_case, as webhook receivers read it). */
function invoiceSnapshot(e: InvoiceEntity): Record<string, unknown> {
  return {
    id: e.id,
    subscription_id: e.subscription.id,
    account_id: e.account.id,
    amount_cents: e.amountCents,
    currency: e.currency,
    period_start: e.periodStart.toISOString(),
    period_end: e.periodEnd.toISOString(),
    status: e.status,
    due_at: e.dueAt.toISOString(),
    paid_at: e.paidAt?.toISOString() ?? null,
  };
}
