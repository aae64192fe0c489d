// API shape of a subscription. Named AccountSubscription in GraphQL: `Subscription` is the root
// operation type of the supergraph. REST shows it as data.type "subscriptions".
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { SubscriptionEntity } from './subscription.entity.js';
import type { SubscriptionModelEntity } from './subscription-model.entity.js';
import { mrrOf } from './subscription.rules.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@ObjectType('AccountSubscription', { description: "An account's subscription to a plan (see docs/billing.md for the state machine)" })
export class AccountSubscription {
  @Field(() => ID) id!: string;
  @Field({ description: 'code of the subscription model (plan)' }) modelCode!: string;
  @Field({ description: 'trialing, active, past_due, paused, canceled' }) status!: string;
  @Field({ description: 'monthly or annual' }) billingCycle!: string;
  @Field(() => Int, { description: 'price of one billing cycle, in cents' }) priceCents!: number;
  @Field() currency!: string;
  @Field(() => Float, { description: 'monthly recurring revenue in cents: annual prices / 12; 0 while trialing, paused or canceled' }) mrrCents!: number;
  @Field() autoRenew!: boolean;
  @Field({ description: 'true: ends at currentPeriodEnd instead of renewing' }) cancelAtPeriodEnd!: boolean;
  @Field({ description: 'payment processor: manual' }) processor!: string;
  @Field({ nullable: true }) trialStart?: Date;
  @Field({ nullable: true }) trialEnd?: Date;
  @Field() currentPeriodStart!: Date;
  @Field() currentPeriodEnd!: Date;
  @Field({ nullable: true }) pausedAt?: Date;
  @Field({ nullable: true }) canceledAt?: Date;
  @Field({ nullable: true }) endedAt?: Date;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  /** for the field resolvers; not GraphQL fields */
  accountId!: string;
  modelRow!: SubscriptionModelEntity;
}

export function toSubscription(e: SubscriptionEntity): AccountSubscription {
  const s = new AccountSubscription();
  s.id = e.id;
  s.modelCode = e.model.code;
  s.status = e.status;
  s.billingCycle = e.billingCycle;
  s.priceCents = e.priceCents;
  s.currency = e.currency;
  s.mrrCents = Math.round(mrrOf(e.status, e.billingCycle, e.priceCents) * 100) / 100;
  s.autoRenew = e.autoRenew;
  s.cancelAtPeriodEnd = e.cancelAtPeriodEnd;
  s.processor = e.processor;
  s.trialStart = e.trialStart ?? undefined;
  s.trialEnd = e.trialEnd ?? undefined;
  s.currentPeriodStart = e.currentPeriodStart;
  s.currentPeriodEnd = e.currentPeriodEnd;
  s.pausedAt = e.pausedAt ?? undefined;
  s.canceledAt = e.canceledAt ?? undefined;
  s.endedAt = e.endedAt ?? undefined;
  s.extraAttributes = e.extraAttributes ?? {};
  s.createdAt = e.createdAt;
  s.updatedAt = e.updatedAt;
  s.accountId = e.account.id;
  s.modelRow = e.model;
  return s;
}

/** The snake_case snapshot account events carry (what REST shows). */
export function subscriptionSnapshot(e: SubscriptionEntity): Record<string, unknown> {
  return {
    id: e.id,
    account_id: e.account.id,
    model_code: e.model.code,
    status: e.status,
    billing_cycle: e.billingCycle,
    price_cents: e.priceCents,
    currency: e.currency,
    auto_renew: e.autoRenew,
    cancel_at_period_end: e.cancelAtPeriodEnd,
    trial_end: e.trialEnd?.toISOString() ?? null,
    current_period_start: e.currentPeriodStart.toISOString(),
    current_period_end: e.currentPeriodEnd.toISOString(),
    canceled_at: e.canceledAt?.toISOString() ?? null,
  };
}
