import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SearchContext } from '../context.js';
import * as analytics from './analytics.service.js';
import { ClickAnalytics, NoResultSearches, PopularSearches, SearchAnalyticsEvent, SearchEventInput } from './analytics.type.js';

const PERIOD = 'one of 24h, 7d (default), 30d, 90d';

@Resolver()
export class AnalyticsResolver {
  @Authorized('search:read')
  @Query(() => PopularSearches)
  popularSearches(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('period', () => String, { nullable: true, description: PERIOD }) period?: string,
    @Arg('limit', () => Int, { nullable: true, description: 'default 10' }) limit?: number,
  ): Promise<PopularSearches> {
    return analytics.popularSearches(ctx, indexUid, period, limit);
  }

  @Authorized('search:read')
  @Query(() => NoResultSearches)
  noResultSearches(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('period', () => String, { nullable: true, description: PERIOD }) period?: string,
    @Arg('limit', () => Int, { nullable: true, description: 'default 10' }) limit?: number,
  ): Promise<NoResultSearches> {
    return analytics.noResultSearches(ctx, indexUid, period, limit);
  }

  @Authorized('search:read')
  @Query(() => ClickAnalytics)
  searchClickAnalytics(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('period', () => String, { nullable: true, description: PERIOD }) period?: string,
    @Arg('limit', () => Int, { nullable: true, description: 'default 10' }) limit?: number,
  ): Promise<ClickAnalytics> {
    return analytics.clicks(ctx, indexUid, period, limit);
  }

  @Authorized('search:write')
  @Mutation(() => SearchAnalyticsEvent, { description: 'Record a client event (click, search, conversion, view)' })
  recordSearchEvent(@Ctx() ctx: SearchContext, @Arg('input', () => SearchEventInput) input: SearchEventInput): Promise<SearchAnalyticsEvent> {
    return analytics.recordEvent(ctx, input);
  }
}
