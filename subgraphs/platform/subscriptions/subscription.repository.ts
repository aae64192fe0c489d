// Queries that cross tenants on purpose, with the platform filter switched off explicitly: the
// gateway's plan lookup (before any platform is known) and the renewal job (all platforms at once,
// or one when a test or an operator asks).
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvoiceEntity } from './invoice.entity.js';
import { SubscriptionEntity } from './subscription.entity.js';
import { PLAN_STATUSES } from './subscription.rules.js';

export const FREE_PLAN = 'free';

/** The model code of the account's trialing/active/past-due subscription, else 'free'. */
export async function activePlanOf(em: EntityManager, accountId: string): Promise<string> {
  const sub = await em.findOne(
    SubscriptionEntity,
    { account: accountId, status: { $in: [...PLAN_STATUSES] } },
    { populate: ['model'], filters: false, fields: ['id', 'model.code'] },
  );
  return sub?.model.code ?? FREE_PLAN;
}

/**
 * Ids of subscriptions the job must advance at `now`: a running subscription whose period ended,
 * or an active one with an invoice past its due date. `skip` holds ids that failed in this run.
 */
export async function subscriptionsDue(em: EntityManager, now: Date, opts: { platformId?: string; limit: number; skip: string[] }): Promise<string[]> {
  const platform = opts.platformId ? { platform: opts.platformId } : {};
  const notSkipped = opts.skip.length ? { id: { $nin: opts.skip } } : {};
  const ended = await em.find(
    SubscriptionEntity,
    { ...platform, ...notSkipped, status: { $in: [...PLAN_STATUSES] }, currentPeriodEnd: { $lte: now } },
    { fields: ['id'], orderBy: { currentPeriodEnd: 'asc' }, limit: opts.limit, filters: false },
  );
  const overdue = await em.find(
    InvoiceEntity,
    { ...platform, status: 'due', dueAt: { $lte: now }, subscription: { status: 'active', ...notSkipped } },
    { fields: ['id', 'subscription'], limit: opts.limit, filters: false },
  );
  return [...new Set([...ended.map((s) => s.id), ...overdue.map((i) => i.subscription.id)])];
}

/** The subscription, locked for this transaction; null when another worker holds it (SKIP LOCKED) or it is gone. */
export async function lockForJob(em: EntityManager, id: string): Promise<SubscriptionEntity | null> {
  const sub = await em.findOne(SubscriptionEntity, { id }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, filters: false });
  if (sub) await em.populate(sub, ['model'], { filters: false });
  return sub;
}

/** The earliest unpaid invoice past its due date, if any. */
export async function earliestOverdue(em: EntityManager, subscriptionId: string, now: Date): Promise<InvoiceEntity | null> {
  return em.findOne(
    InvoiceEntity,
    { subscription: subscriptionId, status: 'due', dueAt: { $lte: now } },
    { orderBy: { dueAt: 'asc' }, filters: false },
  );
}
