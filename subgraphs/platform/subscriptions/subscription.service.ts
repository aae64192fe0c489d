// Subscriptions of an account of the caller's platform, and the plan catalog. Every change runs in
// one transaction with the row locked, goes through the state machine (subscription.rules.ts) via
// the ledger, and publishes its account events after commit.
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { systemClock, type Clock } from '../../../lib/clock.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { processorNamed } from './payment-processor.js';
import { fail, oneOf, uniqueConstraintOf } from '../validation.js';
import { inBillingTx, type BillingDeps } from './billing.tx.js';
import { SubscriptionModelEntity } from './subscription-model.entity.js';
import { SubscriptionEntity } from './subscription.entity.js';
import type { ChangeSubscriptionPlanInput, CreateSubscriptionInput } from './subscription.inputs.js';
import { applyMove, arrOfRow, issueInvoice, recordCreation, startPeriod } from './subscription.ledger.js';
import { addDays, BILLING_CYCLES, type BillingCycle } from './subscription.rules.js';

export type ApiMove = 'cancel' | 'cancel_now' | 'reactivate' | 'suspend';

function deps(ctx: PlatformContext, clock: Clock): BillingDeps {
  return { em: ctx.em, clock, pubsub: ctx.pubsub, log: ctx.log, outbox: ctx.runtime.outbox };
}

/** The catalog. Global, but like every platform path it needs an X-Platform the caller reaches. */
export async function listModels(ctx: PlatformContext): Promise<SubscriptionModelEntity[]> {
  await ctx.loaders.scope.currentPlatform();
  return ctx.em.find(SubscriptionModelEntity, { active: true }, { orderBy: { position: 'asc', code: 'asc' } });
}

async function modelByCode(em: EntityManager, code: string | undefined | null, parameter = 'modelCode'): Promise<SubscriptionModelEntity> {
  const c = code?.trim().toLowerCase();
  if (!c) fail(parameter, `${parameter} is required`);
  const model = await em.findOne(SubscriptionModelEntity, { code: c, active: true });
  if (!model) {
    const known = (await em.find(SubscriptionModelEntity, { active: true }, { orderBy: { position: 'asc' } })).map((m) => m.code);
    fail(parameter, `${parameter} "${c}" is not a subscription model; one of ${known.join(', ')}`);
  }
  return model;
}

function priceOf(model: SubscriptionModelEntity, cycle: BillingCycle): number {
  return cycle === 'annual' ? model.priceAnnualCents : model.priceMonthlyCents;
}

export async function listSubscriptions(ctx: PlatformContext, accountUrlId: string): Promise<SubscriptionEntity[]> {
  const account = await getAccount(ctx, accountUrlId);
  return ctx.em.find(SubscriptionEntity, { account: account.id }, { populate: ['model'], orderBy: { createdAt: 'desc', id: 'asc' } });
}

export async function getSubscription(ctx: PlatformContext, accountUrlId: string, id: string): Promise<SubscriptionEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const sub = await ctx.em.findOne(SubscriptionEntity, { id, account: account.id }, { populate: ['model'] });
  if (!sub) throw notFound(id);
  return sub;
}

function notFound(id: string): DomainError {
  return new DomainError('SUBSCRIPTION_NOT_FOUND', `Subscription ${id} not found`, { parameter: 'subscriptionId' });
}

/** The subscription locked for this transaction (FOR UPDATE), so API moves and the job serialise. */
async function lockOwn(em: EntityManager, accountId: string, id: string): Promise<SubscriptionEntity> {
  const sub = await em.findOne(SubscriptionEntity, { id, account: accountId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!sub) throw notFound(id);
  await em.populate(sub, ['model']);
  return sub;
}

export async function createSubscription(
  ctx: PlatformContext,
  accountUrlId: string,
  input: CreateSubscriptionInput,
  clock: Clock = systemClock,
): Promise<SubscriptionEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const model = await modelByCode(ctx.em, input.modelCode);
  const cycle = oneOf(input.billingCycle, BILLING_CYCLES, 'billingCycle', 'monthly');
  const trial = input.trial ?? model.trialDays > 0;
  if (trial && model.trialDays <= 0) fail('trial', `the ${model.code} model has no trial`);
  const processor = processorNamed(input.processor ?? 'manual');
  const extraAttributes = mergeExtraAttributes({}, input.extraAttributes);

  try {
    return await inBillingTx(deps(ctx, clock), async (tx) => {
      const live = await tx.em.findOne(SubscriptionEntity, { account: account.id, status: { $ne: 'canceled' } });
      if (live) throw alreadyExists(live.id);
      const now = tx.now;
      const sub = tx.em.create(SubscriptionEntity, {
        account,
        platform: account.platform,
        model,
        status: trial ? 'trialing' : 'active',
        billingCycle: cycle,
        priceCents: priceOf(model, cycle),
        currency: model.currency,
        autoRenew: input.autoRenew ?? true,
        extraAttributes,
        processor: processor.name,
        billingAnchor: now,
        currentPeriodStart: now,
        currentPeriodEnd: now,
        createdAt: now,
      });
      if (trial) {
        sub.trialStart = now;
        sub.trialEnd = addDays(now, model.trialDays);
        sub.billingAnchor = sub.trialEnd;
        sub.currentPeriodEnd = sub.trialEnd;
      } else {
        startPeriod(sub, now, now);
      }
      recordCreation(tx, sub);
      if (!trial) await issueInvoice(tx, sub, now);
      await tx.em.flush();
      return sub;
    });
  } catch (e) {
    // two concurrent creates: the partial unique index lets one through
    if (uniqueConstraintOf(e)?.includes('one_live')) throw alreadyExists();
    throw e;
  }
}

function alreadyExists(id?: string): DomainError {
  return new DomainError(
    'SUBSCRIPTION_ALREADY_EXISTS',
    `The account already has a live subscription${id ? ` (${id})` : ''}: cancel it or change its plan`,
    { parameter: 'modelCode', ...(id ? { meta: { subscription_id: id } } : {}) },
  );
}

/** cancel (at period end), cancel_now, reactivate, suspend. */
export async function moveSubscription(
  ctx: PlatformContext,
  accountUrlId: string,
  id: string,
  move: ApiMove,
  clock: Clock = systemClock,
): Promise<SubscriptionEntity> {
  const account = await getAccount(ctx, accountUrlId);
  return inBillingTx(deps(ctx, clock), async (tx) => {
    const sub = await lockOwn(tx.em, account.id, id);
    await applyMove(tx, sub, move);
    await tx.em.flush();
    return sub;
  });
}

/**
 * Switch model and/or billing cycle now. No proration: the new price is billed from the next period,
 * except when leaving a free (price 0) plan for a paid one, which starts a new, invoiced period now.
 * A new billing cycle counts its periods from the end of the current one.
 */
export async function changePlan(
  ctx: PlatformContext,
  accountUrlId: string,
  id: string,
  input: ChangeSubscriptionPlanInput,
  clock: Clock = systemClock,
): Promise<SubscriptionEntity> {
  const account = await getAccount(ctx, accountUrlId);
  if (input.modelCode == null && input.billingCycle == null) fail('modelCode', 'model_code or billing_cycle is required');
  const model = input.modelCode != null ? await modelByCode(ctx.em, input.modelCode) : undefined;
  const cycle = input.billingCycle != null ? oneOf(input.billingCycle, BILLING_CYCLES, 'billingCycle', 'monthly') : undefined;
  return inBillingTx(deps(ctx, clock), async (tx) => {
    const sub = await lockOwn(tx.em, account.id, id);
    const nextModel = model ?? sub.model;
    const nextCycle = cycle ?? sub.billingCycle;
    if (nextModel.id === sub.model.id && nextCycle === sub.billingCycle) {
      fail(model ? 'modelCode' : 'billingCycle', `the subscription is already on ${sub.model.code} (${sub.billingCycle})`);
    }
    const before = arrOfRow(sub);
    const wasFree = sub.priceCents === 0;
    sub.model = nextModel;
    sub.priceCents = priceOf(nextModel, nextCycle);
    if (nextCycle !== sub.billingCycle) {
      sub.billingCycle = nextCycle;
      sub.billingAnchor = sub.currentPeriodEnd;
    }
    await applyMove(tx, sub, 'change_plan', { arrBefore: before });
    if (wasFree && sub.priceCents > 0 && sub.status === 'active') {
      startPeriod(sub, tx.now, tx.now);
      await issueInvoice(tx, sub, tx.now);
    }
    await tx.em.flush();
    return sub;
  });
}
