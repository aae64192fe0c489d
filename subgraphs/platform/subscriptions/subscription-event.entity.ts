import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { SubscriptionRowEntity } from './subscription-row.entity.js';
import type { BillingCycle, MrrMovement, SubscriptionStatus } from './subscription.rules.js';

/**
 * Append-only history of a subscription: one row per state or price change (and per creation), with
 * the subscription's recurring revenue before and after. Growth reporting sums these rows over a period, so MRR
 * movement (new, expansion, contraction, churn, reactivation) needs no snapshots.
 */
@Entity({ tableName: 'subscription_events' })
@Index({ properties: ['platform', 'occurredAt'] })
@Index({ properties: ['subscription', 'occurredAt'] })
@Index({ properties: ['occurredAt'] })
export class SubscriptionEventEntity extends SubscriptionRowEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('sev');

  /** the move (create, cancel, renew, …) that caused the change */
  @Property({ length: 32 })
  type!: string;

  @Property({ length: 16, nullable: true })
  fromStatus?: SubscriptionStatus | null;

  @Property({ length: 16 })
  toStatus!: SubscriptionStatus;

  @Property({ length: 32 })
  modelCode!: string;

  @Property({ length: 16 })
  billingCycle!: BillingCycle;

  /** recurring revenue before and after, as ARR in cents (whole numbers; MRR = ARR / 12) */
  @Property()
  arrBeforeCents!: number;

  @Property()
  arrAfterCents!: number;

  @Property({ length: 16, nullable: true })
  movement?: MrrMovement | null;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;
}
