import { Arg, ArgsType, Args, Authorized, Ctx, Field, Query, Resolver, Directive } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import {
  CustomersReport,
  DashboardReport,
  EngagementReport,
  GrowthReport,
  PlatformDetailReport,
  PlatformsReport,
  RevenueReport,
} from './reporting.type.js';
import * as reports from './reporting.service.js';

@ArgsType()
class ReportArgs {
  @Field({ nullable: true, description: '7d, 30d (default), 90d or all_time' }) period?: string;
  @Field({ nullable: true, description: 'limit to one platform (code); default: every platform' }) platform?: string;
  @Field({ nullable: true, description: 'bypass the report cache' }) forceRefresh?: boolean;
}

@ArgsType()
class PlatformReportArgs {
  @Field({ nullable: true, description: '7d, 30d (default), 90d or all_time' }) period?: string;
  @Field({ nullable: true, description: 'bypass the report cache' }) forceRefresh?: boolean;
}

/** Investor reporting (platform:admin). docs/reporting.md defines every number. */
@Resolver()
export class ReportingResolver {
  @Authorized('platform:admin')
  @Directive('@cost(weight: 50)')
  @Query(() => DashboardReport, { description: 'Headline numbers across all platforms (or one)' })
  reportingDashboard(@Ctx() ctx: PlatformContext, @Args(() => ReportArgs) args: ReportArgs) {
    return reports.dashboard(ctx, args);
  }

  @Authorized('platform:admin')
  @Directive('@cost(weight: 50)')
  @Query(() => RevenueReport, { description: 'MRR, ARR, ARPA by tier, block and platform; invoicing in the period' })
  reportingRevenue(@Ctx() ctx: PlatformContext, @Args(() => ReportArgs) args: ReportArgs) {
    return reports.revenue(ctx, args);
  }

  @Authorized('platform:admin')
  @Directive('@cost(weight: 50)')
  @Query(() => CustomersReport, { description: 'Customer states, trials, logo and MRR churn, health' })
  reportingCustomers(@Ctx() ctx: PlatformContext, @Args(() => ReportArgs) args: ReportArgs) {
    return reports.customers(ctx, args);
  }

  @Authorized('platform:admin')
  @Directive('@cost(weight: 50)')
  @Query(() => GrowthReport, { description: 'New accounts, MRR movement, net new MRR, time series' })
  reportingGrowth(@Ctx() ctx: PlatformContext, @Args(() => ReportArgs) args: ReportArgs) {
    return reports.growth(ctx, args);
  }

  @Authorized('platform:admin')
  @Directive('@cost(weight: 50)')
  @Query(() => EngagementReport, { description: 'API usage, active accounts and apps, block adoption' })
  reportingEngagement(@Ctx() ctx: PlatformContext, @Args(() => ReportArgs) args: ReportArgs) {
    return reports.engagement(ctx, args);
  }

  @Authorized('platform:admin')
  @Directive('@cost(weight: 50)')
  @Query(() => PlatformsReport, { description: 'One summary row per platform' })
  reportingPlatforms(@Ctx() ctx: PlatformContext, @Args(() => ReportArgs) args: ReportArgs) {
    return reports.platforms(ctx, args);
  }

  @Authorized('platform:admin')
  @Directive('@cost(weight: 50)')
  @Query(() => PlatformDetailReport, { description: 'One platform: summary, revenue, customers, growth and engagement' })
  reportingPlatform(@Ctx() ctx: PlatformContext, @Arg('code') code: string, @Args(() => PlatformReportArgs) args: PlatformReportArgs) {
    return reports.platformDetail(ctx, code, args);
  }
}
