import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { SubscriptionModelEntity } from './subscription-model.entity.js';
import { BILLING_CYCLES, SUBSCRIPTION_STATUSES, type BillingCycle, type SubscriptionStatus } from './subscription.rules.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/**
 * An account's subscription to a model. The price is copied from the model when the subscription
 * starts or changes plan, so later catalog price changes never rewrite what a customer pays (or the
 * MRR history). At most one non-canceled subscription per account: a partial unique index
 * (subscriptions_one_live_per_account, added by migration) enforces it under concurrency.
 * `platform` duplicates account.platform so the platform filter needs no join.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'subscriptions' })
@Index({
  name: 'subscriptions_one_live_per_account',
  expression: `create unique index "subscriptions_one_live_per_account" on "platform"."subscriptions" ("account_id") where "status" <> 'canceled'`,
})
@Index({ properties: ['account', 'createdAt'] })
@Index({ properties: ['platform', 'status'] })
export class SubscriptionEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('sub');

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @ManyToOne(() => SubscriptionModelEntity)
  model!: SubscriptionModelEntity;

  @Enum({ items: () => SUBSCRIPTION_STATUSES })
  status!: SubscriptionStatus;

  @Enum({ items: () => BILLING_CYCLES })
  billingCycle!: BillingCycle;

  /** price of one billing cycle, in cents (copied from the model) */
  @Property()
  priceCents!: number;

  @Property({ length: 3 })
  currency!: string;

  @Property({ default: true })
  autoRenew: boolean & Opt = true;

  @Property({ default: false })
  cancelAtPeriodEnd: boolean & Opt = false;

  @Property({ length: 32 })
  processor!: string;

  @Property({ type: 'timestamptz', nullable: true })
  trialStart?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  trialEnd?: Date | null;

  /** the date periods are counted from, so short months do not drift the billing day */
  @Property({ type: 'timestamptz' })
  billingAnchor!: Date;

  @Property({ type: 'timestamptz' })
  currentPeriodStart!: Date;

  @Index()
  @Property({ type: 'timestamptz' })
  currentPeriodEnd!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  pausedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  canceledAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  endedAt?: Date | null;

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
