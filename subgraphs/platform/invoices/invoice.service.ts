// Invoices of an account. The manual processor's flow: the renewal job (or a new subscription)
// issues an invoice as `due`; an operator records the payment (pay) or writes it off (void). When
// that leaves a past-due subscription with nothing overdue, it becomes active again (settle).
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { systemClock, type Clock } from '../../../lib/clock.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { inBillingTx } from '../subscriptions/billing.tx.js';
import { SubscriptionEntity } from '../subscriptions/subscription.entity.js';
import { applyMove, invoiceEvent, type BillingTx } from '../subscriptions/subscription.ledger.js';
import { earliestOverdue } from '../subscriptions/subscription.repository.js';
import { fail, oneOf, optionalText } from '../validation.js';
import { INVOICE_STATUSES, InvoiceEntity } from '../subscriptions/invoice.entity.js';
import type { PayInvoiceInput } from './invoice.type.js';
import { processorNamed } from '../subscriptions/payment-processor.js';

export interface InvoiceFilter {
  status?: string | null;
  subscriptionId?: string | null;
}

export async function listInvoices(ctx: PlatformContext, accountUrlId: string, filter: InvoiceFilter = {}): Promise<InvoiceEntity[]> {
  const account = await getAccount(ctx, accountUrlId);
  const where: Record<string, unknown> = { account: account.id };
  if (filter.status != null && filter.status !== '') where.status = oneOf(filter.status, INVOICE_STATUSES, 'status', 'due');
  if (filter.subscriptionId) where.subscription = filter.subscriptionId;
  return ctx.em.find(InvoiceEntity, where, { orderBy: { issuedAt: 'desc', id: 'asc' } });
}

export async function getInvoice(ctx: PlatformContext, accountUrlId: string, id: string): Promise<InvoiceEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const inv = await ctx.em.findOne(InvoiceEntity, { id, account: account.id });
  if (!inv) throw notFound(id);
  return inv;
}

function notFound(id: string): DomainError {
  return new DomainError('INVOICE_NOT_FOUND', `Invoice ${id} not found`, { parameter: 'invoiceId' });
}

async function lockDue(em: EntityManager, accountId: string, id: string, action: string): Promise<InvoiceEntity> {
  const inv = await em.findOne(InvoiceEntity, { id, account: accountId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!inv) throw notFound(id);
  if (inv.status !== 'due') throw new DomainError('INVOICE_NOT_DUE', `Cannot ${action} invoice ${id}: it is ${inv.status}`, { meta: { status: inv.status } });
  return inv;
}

export async function payInvoice(ctx: PlatformContext, accountUrlId: string, id: string, input: PayInvoiceInput = {}, clock: Clock = systemClock): Promise<InvoiceEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const reference = optionalText(input.reference, 'reference', 200);
  return inBillingTx({ em: ctx.em, clock, pubsub: ctx.pubsub, log: ctx.log, outbox: ctx.runtime.outbox }, async (tx) => {
    const inv = await lockDue(tx.em, account.id, id, 'pay');
    const paidAt = input.paidAt ?? tx.now;
    if (paidAt.getTime() > tx.now.getTime()) fail('paidAt', 'paid_at must not be in the future');
    const processor = processorNamed(inv.processor);
    const recorded = await processor.recordPayment(
      { id: inv.id, accountId: account.id, amountCents: inv.amountCents, currency: inv.currency },
      { reference },
    );
    inv.status = 'paid';
    inv.paidAt = paidAt;
    inv.paymentReference = recorded.reference;
    tx.events.push(invoiceEvent('invoice.paid', inv, tx.now));
    await settleIfClear(tx, inv.subscription.id);
    await tx.em.flush();
    return inv;
  });
}

export async function voidInvoice(ctx: PlatformContext, accountUrlId: string, id: string, clock: Clock = systemClock): Promise<InvoiceEntity> {
  const account = await getAccount(ctx, accountUrlId);
  return inBillingTx({ em: ctx.em, clock, pubsub: ctx.pubsub, log: ctx.log, outbox: ctx.runtime.outbox }, async (tx) => {
    const inv = await lockDue(tx.em, account.id, id, 'void');
    inv.status = 'void';
    inv.voidedAt = tx.now;
    tx.events.push(invoiceEvent('invoice.voided', inv, tx.now));
    await settleIfClear(tx, inv.subscription.id);
    await tx.em.flush();
    return inv;
  });
}

/** A past-due subscription with nothing overdue left becomes active again. */
async function settleIfClear(tx: BillingTx, subscriptionId: string): Promise<void> {
  await tx.em.flush();
  const sub = await tx.em.findOne(SubscriptionEntity, { id: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!sub || sub.status !== 'past_due') return;
  if (await earliestOverdue(tx.em, sub.id, tx.now)) return;
  await tx.em.populate(sub, ['model']);
  await applyMove(tx, sub, 'settle');
}
