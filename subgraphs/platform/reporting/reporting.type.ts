// API shapes of the investor reports. Money is in cents as Float (ARR over many accounts passes the
// 32-bit Int range; Float holds whole numbers exactly up to 2^53). Rates are fractions (0.25 = 25%),
// null when their denominator is 0. Definitions: docs/reporting.md.
import { Field, Float, Int, ObjectType } from 'type-graphql';

/** Fields every report starts with (inherited by each report type). */
@ObjectType()
export abstract class ReportHeader {
  @Field({ description: '7d, 30d, 90d or all_time' }) period!: string;
  @Field(() => String, { nullable: true, description: 'platform code the report is limited to; null: every platform' }) platform!: string | null;
  @Field({ description: 'when the numbers were computed' }) generatedAt!: Date;
  @Field({ description: 'true when served from the report cache (force_refresh bypasses it)' }) cached!: boolean;
  @Field() currency!: string;
}

@ObjectType()
export class TierRevenue {
  @Field({ description: 'subscription model code' }) tier!: string;
  @Field() name!: string;
  @Field(() => Int) payingAccounts!: number;
  @Field(() => Float) mrrCents!: number;
  @Field(() => Float) arrCents!: number;
  @Field(() => Float) arpaCents!: number;
  @Field(() => Float, { nullable: true, description: 'share of total MRR' }) share!: number | null;
}

@ObjectType()
export class BlockRevenue {
  @Field({ description: 'block code' }) block!: string;
  @Field(() => Int, { description: 'paying accounts whose plan includes the block' }) payingAccounts!: number;
  @Field(() => Float, { description: 'MRR of those accounts (a plan counts in full for each of its blocks)' }) mrrCents!: number;
  @Field(() => Float) arpaCents!: number;
}

@ObjectType()
export class PlatformRevenue {
  @Field() platform!: string;
  @Field() name!: string;
  @Field(() => Int) payingAccounts!: number;
  @Field(() => Float) mrrCents!: number;
  @Field(() => Float) arrCents!: number;
  @Field(() => Float) arpaCents!: number;
}

@ObjectType()
export class RevenueReport extends ReportHeader {
  @Field(() => Float, { description: 'monthly recurring revenue now: active and past-due subscriptions, annual prices / 12, trials excluded' }) mrrCents!: number;
  @Field(() => Float, { description: 'MRR × 12' }) arrCents!: number;
  @Field(() => Int) payingAccounts!: number;
  @Field(() => Float, { description: 'average revenue per paying account: MRR / paying accounts' }) arpaCents!: number;
  @Field(() => Float, { description: 'MRR at the start of the period (0 for all_time)' }) mrrAtPeriodStartCents!: number;
  @Field(() => Float, { nullable: true }) mrrGrowthRate!: number | null;
  @Field(() => Float, { description: 'invoices issued in the period (void ones excluded)' }) invoicedCents!: number;
  @Field(() => Float, { description: 'payments recorded in the period' }) collectedCents!: number;
  @Field(() => Float, { description: 'due invoices now' }) outstandingCents!: number;
  @Field(() => Float, { description: 'due invoices past their due date now' }) overdueCents!: number;
  @Field(() => [TierRevenue]) byTier!: TierRevenue[];
  @Field(() => [BlockRevenue]) byBlock!: BlockRevenue[];
  @Field(() => [PlatformRevenue]) byPlatform!: PlatformRevenue[];
}

@ObjectType()
export class TrialStats {
  @Field(() => Int, { description: 'trials started in the period' }) started!: number;
  @Field(() => Int, { description: 'trials that became paid in the period' }) converted!: number;
  @Field(() => Int, { description: 'trials canceled or expired unpaid in the period' }) lost!: number;
  @Field(() => Float, { nullable: true, description: 'converted / (converted + lost)' }) conversionRate!: number | null;
}

@ObjectType()
export class ChurnStats {
  @Field(() => Int, { description: 'accounts paying at the period start (all_time: accounts that ever paid)' }) payingAtPeriodStart!: number;
  @Field(() => Int, { description: 'of those, accounts not paying now (canceled or paused)' }) churnedAccounts!: number;
  @Field(() => Float, { nullable: true }) logoChurnRate!: number | null;
  @Field(() => Float, { description: 'MRR lost to cancellations and pauses in the period' }) churnedMrrCents!: number;
  @Field(() => Float, { description: 'MRR lost to downgrades in the period' }) contractionMrrCents!: number;
  @Field(() => Float, { nullable: true, description: '(churned + contraction MRR) / MRR at the period start (all_time: / all MRR ever gained)' }) grossMrrChurnRate!: number | null;
}

@ObjectType()
export class AccountHealth {
  @Field() accountId!: string;
  @Field() code!: string;
  @Field() platform!: string;
  @Field() plan!: string;
  @Field(() => Int) score!: number;
}

@ObjectType()
export class HealthStats {
  @Field(() => Float, { description: 'mean health score (0-100) of all live accounts' }) averageScore!: number;
  @Field(() => Float, { description: 'mean health score of paying accounts' }) averagePayingScore!: number;
  @Field(() => Int, { description: 'score ≥ 70' }) healthy!: number;
  @Field(() => Int, { description: '40 ≤ score < 70' }) atRisk!: number;
  @Field(() => Int, { description: 'score < 40' }) critical!: number;
  @Field(() => [AccountHealth], { description: 'the lowest-scoring paying accounts under 70 (at most 10)' }) lowestPaying!: AccountHealth[];
}

@ObjectType()
export class CustomersReport extends ReportHeader {
  @Field(() => Int, { description: 'live (not deleted) accounts' }) totalAccounts!: number;
  @Field(() => Int) trialingAccounts!: number;
  @Field(() => Int, { description: 'accounts with MRR > 0 (active or past due on a paid plan)' }) payingAccounts!: number;
  @Field(() => Int) pastDueAccounts!: number;
  @Field(() => Int) pausedAccounts!: number;
  @Field(() => Int, { description: 'on the free plan, or never subscribed' }) freeAccounts!: number;
  @Field(() => Int, { description: 'every subscription canceled' }) churnedAccounts!: number;
  @Field(() => TrialStats) trials!: TrialStats;
  @Field(() => ChurnStats) churn!: ChurnStats;
  @Field(() => HealthStats) health!: HealthStats;
}

@ObjectType()
export class MrrMovement {
  @Field(() => Float, { description: 'first MRR of a subscription: paid sign-up or trial conversion' }) newCents!: number;
  @Field(() => Float, { description: 'upgrades' }) expansionCents!: number;
  @Field(() => Float, { description: 'downgrades (positive number)' }) contractionCents!: number;
  @Field(() => Float, { description: 'cancellations, lapses and pauses (positive number)' }) churnCents!: number;
  @Field(() => Float, { description: 'resumed after a pause' }) reactivationCents!: number;
  @Field(() => Float, { description: 'new + expansion + reactivation − contraction − churn' }) netNewCents!: number;
}

@ObjectType()
export class GrowthPoint {
  @Field({ description: 'start of the bucket (UTC)' }) bucket!: Date;
  @Field(() => Int) newAccounts!: number;
  @Field(() => Float) netNewMrrCents!: number;
}

@ObjectType()
export class GrowthReport extends ReportHeader {
  @Field(() => Int) newAccounts!: number;
  @Field(() => Int) accountsAtPeriodStart!: number;
  @Field(() => Int) totalAccounts!: number;
  @Field(() => Float, { nullable: true }) accountGrowthRate!: number | null;
  @Field(() => Int) newSubscriptions!: number;
  @Field(() => Int) newTrials!: number;
  @Field(() => MrrMovement) mrrMovement!: MrrMovement;
  @Field(() => Float) mrrAtPeriodStartCents!: number;
  @Field(() => Float) mrrCents!: number;
  @Field({ description: 'day (7d, 30d), week (90d) or month (all_time)' }) bucketUnit!: string;
  @Field(() => [GrowthPoint]) series!: GrowthPoint[];
}

@ObjectType()
export class BlockAdoption {
  @Field() block!: string;
  @Field(() => Int, { description: 'live accounts holding a license of the block' }) accounts!: number;
  @Field(() => Int, { description: 'live apps the block is provisioned to' }) apps!: number;
  @Field(() => Float, { nullable: true, description: 'accounts / live accounts' }) adoptionRate!: number | null;
}

@ObjectType()
export class AccountUsage {
  @Field() accountId!: string;
  @Field() code!: string;
  @Field() platform!: string;
  @Field(() => Float) requests!: number;
}

@ObjectType()
export class EngagementReport extends ReportHeader {
  @Field(() => Float, { description: "API requests counted on the accounts' keys (cumulative usage_count)" }) apiRequests!: number;
  @Field(() => Int) totalAccounts!: number;
  @Field(() => Int, { description: 'accounts with a key used in the period' }) activeAccounts!: number;
  @Field(() => Float, { nullable: true }) activeAccountRate!: number | null;
  @Field(() => Int) totalApps!: number;
  @Field(() => Int, { description: 'apps with a key used in the period' }) activeApps!: number;
  @Field(() => Int) totalKeys!: number;
  @Field(() => Int, { description: 'keys used in the period' }) keysUsed!: number;
  @Field(() => Float, { nullable: true }) requestsPerAccount!: number | null;
  @Field(() => [BlockAdoption]) blockAdoption!: BlockAdoption[];
  @Field(() => [AccountUsage], { description: 'the 10 accounts with the most requests' }) topAccounts!: AccountUsage[];
}

@ObjectType()
export class PlatformSummary {
  @Field() code!: string;
  @Field() name!: string;
  @Field() status!: string;
  @Field(() => Int) totalAccounts!: number;
  @Field(() => Int) newAccounts!: number;
  @Field(() => Int) payingAccounts!: number;
  @Field(() => Int) trialingAccounts!: number;
  @Field(() => Float) mrrCents!: number;
  @Field(() => Float) arrCents!: number;
  @Field(() => Float) arpaCents!: number;
  @Field(() => Float) netNewMrrCents!: number;
  @Field(() => Float) apiRequests!: number;
}

@ObjectType()
export class PlatformsReport extends ReportHeader {
  @Field(() => [PlatformSummary]) platforms!: PlatformSummary[];
}

@ObjectType()
export class PlatformDetailReport extends ReportHeader {
  @Field(() => PlatformSummary) summary!: PlatformSummary;
  @Field(() => RevenueReport) revenue!: RevenueReport;
  @Field(() => CustomersReport) customers!: CustomersReport;
  @Field(() => GrowthReport) growth!: GrowthReport;
  @Field(() => EngagementReport) engagement!: EngagementReport;
}

@ObjectType()
export class DashboardReport extends ReportHeader {
  @Field(() => Int) platforms!: number;
  @Field(() => Int) totalAccounts!: number;
  @Field(() => Int) newAccounts!: number;
  @Field(() => Int) payingAccounts!: number;
  @Field(() => Int) trialingAccounts!: number;
  @Field(() => Float) mrrCents!: number;
  @Field(() => Float) arrCents!: number;
  @Field(() => Float) arpaCents!: number;
  @Field(() => Float) netNewMrrCents!: number;
  @Field(() => Float, { nullable: true }) mrrGrowthRate!: number | null;
  @Field(() => Float, { nullable: true }) logoChurnRate!: number | null;
  @Field(() => Float, { nullable: true }) grossMrrChurnRate!: number | null;
  @Field(() => Float, { nullable: true }) trialConversionRate!: number | null;
  @Field(() => Float) apiRequests!: number;
  @Field(() => Int) activeAccounts!: number;
}
