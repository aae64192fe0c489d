// API shape of the plan catalog. Limits are typed (not a JSON blob) so clients see every name; null
// means "custom" (Enterprise: set per contract) or unlimited.
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { SubscriptionModelEntity } from './subscription-model.entity.js';

@ObjectType({ description: 'AI service plan limits (document 2); null: custom' })
export class AiPlanLimits {
  @Field(() => Int, { nullable: true }) requestsPerMinute!: number | null;
  @Field(() => Int, { nullable: true }) textCharactersPerRequest!: number | null;
  @Field(() => Int, { nullable: true }) imagesPerMinute!: number | null;
}

@ObjectType({ description: 'Search service plan limits (document 3); null: custom or unlimited' })
export class SearchPlanLimits {
  @Field(() => Int, { nullable: true }) searchesPerSecond!: number | null;
  @Field(() => Int, { nullable: true }) documentsPerIndex!: number | null;
  @Field(() => Int, { nullable: true }) indexes!: number | null;
}

@ObjectType()
export class PlanLimitsType {
  @Field(() => AiPlanLimits) ai!: AiPlanLimits;
  @Field(() => SearchPlanLimits) search!: SearchPlanLimits;
}

@Directive('@key(fields: "id")')
@ObjectType({ description: 'A plan of the catalog (Free, Starter, Growth, Enterprise)' })
export class SubscriptionModel {
  @Field(() => ID) id!: string;
  @Field({ description: 'stable code: free, starter, growth, enterprise' }) code!: string;
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field(() => Int, { description: 'price of one monthly billing cycle, in cents' }) priceMonthlyCents!: number;
  @Field(() => Int, { description: 'price of one annual billing cycle, in cents' }) priceAnnualCents!: number;
  @Field() currency!: string;
  @Field(() => Int) trialDays!: number;
  @Field(() => [String], { description: 'codes of the blocks the plan includes' }) includedBlocks!: string[];
  @Field(() => PlanLimitsType) limits!: PlanLimitsType;
}

export function toSubscriptionModel(e: SubscriptionModelEntity): SubscriptionModel {
  const m = new SubscriptionModel();
  m.id = e.id;
  m.code = e.code;
  m.name = e.name;
  m.description = e.description ?? undefined;
  m.priceMonthlyCents = e.priceMonthlyCents;
  m.priceAnnualCents = e.priceAnnualCents;
  m.currency = e.currency;
  m.trialDays = e.trialDays;
  m.includedBlocks = e.includedBlocks ?? [];
  m.limits = {
    ai: Object.assign(new AiPlanLimits(), e.limits.ai),
    search: Object.assign(new SearchPlanLimits(), e.limits.search),
  };
  return m;
}
