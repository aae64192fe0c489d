import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('PopularSearch')
export class PopularSearch {
  @Field() query!: string;
  @Field(() => Int) count!: number;
  @Field(() => Int, { description: 'distinct user_id (or session_id when no user was given)' }) uniqueUsers!: number;
  @Field(() => Float, { nullable: true, description: '1-based position of clicked hits for this query; null without clicks' }) avgClickPosition!: number | null;
}

@ObjectType('PopularSearches')
export class PopularSearches {
  @Field() indexUid!: string;
  @Field() period!: string;
  @Field(() => Int) totalSearches!: number;
  @Field(() => [PopularSearch]) popularSearches!: PopularSearch[];
}

@ObjectType('NoResultSearch')
export class NoResultSearch {
  @Field() query!: string;
  @Field(() => Int) count!: number;
  @Field() lastSearchedAt!: Date;
}

@ObjectType('NoResultSearches')
export class NoResultSearches {
  @Field() indexUid!: string;
  @Field() period!: string;
  @Field(() => Int) totalNoResultSearches!: number;
  @Field(() => [NoResultSearch]) noResultSearches!: NoResultSearch[];
}

@ObjectType('DocumentClicks')
export class DocumentClicks {
  @Field() documentId!: string;
  @Field(() => Int) clicks!: number;
  @Field(() => Int, { description: 'times the document was among the hits returned (first 100 per search)' }) impressions!: number;
  @Field(() => Float, { description: 'clicks / impressions (0 without impressions)' }) ctr!: number;
  @Field(() => Float, { nullable: true }) avgPosition!: number | null;
}

@ObjectType('ClickAnalytics')
export class ClickAnalytics {
  @Field() indexUid!: string;
  @Field() period!: string;
  @Field(() => Int) totalClicks!: number;
  @Field(() => Int) totalImpressions!: number;
  @Field(() => Float, { description: 'total_clicks / total_impressions' }) avgCtr!: number;
  @Field(() => [DocumentClicks]) clickData!: DocumentClicks[];
}

@InputType()
export class SearchEventInput {
  @Field({ description: 'click, search, conversion or view' }) eventType!: string;
  @Field() indexUid!: string;
  @Field({ nullable: true }) query?: string;
  @Field({ nullable: true }) documentId?: string;
  @Field(() => Int, { nullable: true, description: '1-based position of the clicked hit (required for clicks)' }) position?: number;
  @Field({ nullable: true }) userId?: string;
  @Field({ nullable: true }) sessionId?: string;
}

@ObjectType('SearchAnalyticsEvent')
export class SearchAnalyticsEvent {
  @Field(() => ID) id!: string;
  @Field() eventType!: string;
  @Field() indexUid!: string;
  @Field(() => String, { nullable: true }) query!: string | null;
  @Field(() => String, { nullable: true }) documentId!: string | null;
  @Field(() => Int, { nullable: true }) position!: number | null;
  @Field(() => String, { nullable: true }) userId!: string | null;
  @Field(() => String, { nullable: true }) sessionId!: string | null;
  @Field() createdAt!: Date;
}
