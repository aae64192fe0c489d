import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { SearchContext } from '../context.js';
import * as analytics from './analytics.service.js';
import { requireRoles } from '../../../lib/subgraph.js';
import { SECRET_KEY } from '../../../lib/tenant.js';
import { ClickAnalytics, NoResultSearches, PopularSearches, SearchAnalyticsEvent, SearchEventInput } from './analytics.type.js';

const PERIOD = 'one of 24h, 7d (default), 30d, 90d';

@Resolver()
export class AnalyticsResolver {
  @Authorized('search:read', SECRET_KEY)
  @Directive('@cost(weight: 5)')
  @Directive('@listSize(slicingArguments: ["limit"], sizedFields: ["popularSearches"], requireOneSlicingArgument: false)')
  @Query(() => PopularSearches)
  popularSearches(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('period', () => String, { nullable: true, description: PERIOD }) period?: string,
    @Arg('limit', () => Int, { nullable: true, description: 'default 10' }) limit?: number,
  ): Promise<PopularSearches> {
    return analytics.popularSearches(ctx, indexUid, period, limit);
  }

  @Authorized('search:read', SECRET_KEY)
  @Directive('@cost(weight: 5)')
  @Directive('@listSize(slicingArguments: ["limit"], sizedFields: ["noResultSearches"], requireOneSlicingArgument: false)')
  @Query(() => NoResultSearches)
  noResultSearches(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('period', () => String, { nullable: true, description: PERIOD }) period?: string,
    @Arg('limit', () => Int, { nullable: true, description: 'default 10' }) limit?: number,
  ): Promise<NoResultSearches> {
    return analytics.noResultSearches(ctx, indexUid, period, limit);
  }

  @Authorized('search:read', SECRET_KEY)
  @Directive('@cost(weight: 5)')
  @Directive('@listSize(slicingArguments: ["limit"], sizedFields: ["clickData"], requireOneSlicingArgument: false)')
  @Query(() => ClickAnalytics)
  searchClickAnalytics(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('period', () => String, { nullable: true, description: PERIOD }) period?: string,
    @Arg('limit', () => Int, { nullable: true, description: 'default 10' }) limit?: number,
  ): Promise<ClickAnalytics> {
    return analytics.clicks(ctx, indexUid, period, limit);
  }

  /** Clicks come from the browser that searched (search:read, publishable keys too); other events need search:write. */
  @Authorized('search:read')
  @Mutation(() => SearchAnalyticsEvent, { description: 'Record a client event: click (search:read, publishable keys too); search, conversion, view (search:write)' })
  recordSearchEvent(@Ctx() ctx: SearchContext, @Arg('input', () => SearchEventInput) input: SearchEventInput): Promise<SearchAnalyticsEvent> {
    if (input.eventType !== 'click') requireRoles(ctx.tenant, ['search:write']);
    return analytics.recordEvent(ctx, input);
  }
}
