import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ArrayType, type Opt } from '@mikro-orm/core';

/** Plan limits of documents 2 and 3; null means "custom" (set per contract) or unlimited. */
export interface PlanLimits {
  ai: { requestsPerMinute: number | null; textCharactersPerRequest: number | null; imagesPerMinute: number | null };
  search: { searchesPerSecond: number | null; documentsPerIndex: number | null; indexes: number | null };
}

/**
 * The catalog of subscription models (plans). Seeded by a migration with stable ids and codes
 * (Migration…_seed_subscription_models); global, not platform-scoped: every platform sells the same plans.
 */
@Entity({ tableName: 'subscription_models' })
export class SubscriptionModelEntity {
  @PrimaryKey({ length: 32 })
  id!: string;

  @Unique()
  @Property({ length: 32 })
  code!: string;

  @Property({ length: 100 })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string;

  /** price of one monthly billing cycle, in cents */
  @Property()
  priceMonthlyCents!: number;

  /** price of one annual billing cycle, in cents */
  @Property()
  priceAnnualCents!: number;

  @Property({ length: 3, default: 'USD' })
  currency: string & Opt = 'USD';

  @Property({ default: 0 })
  trialDays: number & Opt = 0;

  /** block codes (auth, crm, …) the plan includes */
  @Property({ type: ArrayType })
  includedBlocks: string[] & Opt = [];

  @Property({ type: 'json' })
  limits!: PlanLimits;

  /** catalog order */
  @Property({ default: 0 })
  position: number & Opt = 0;

  @Property({ default: true })
  active: boolean & Opt = true;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
