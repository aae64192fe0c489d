import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { SearchAnswer } from './search.service.js';

@ObjectType('IndexSearchResults')
export class IndexSearchResults {
  @Field(() => ID, { description: 'identifies this answer (one per search)' }) id!: string;
  @Field() indexUid!: string;
  @Field(() => [GraphQLJSONObject], { description: 'documents with `_formatted`, `_matchesPosition` and, for geo sorts and filters, `_geoDistance`' })
  hits!: Record<string, unknown>[];
  @Field() query!: string;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) estimatedTotalHits!: number;
  @Field(() => Int) processingTimeMs!: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'attribute → value → count, when facets were requested' }) facetDistribution!: Record<string, Record<string, number>> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'numeric facets: attribute → { min, max, avg, sum }' }) facetStats!: Record<string, unknown> | null;
  @Field(() => Int, { nullable: true, description: 'numbered pages only: the page' }) page!: number | null;
  @Field(() => Int, { nullable: true, description: 'numbered pages only: hits per page' }) hitsPerPage!: number | null;
  @Field(() => Int, { nullable: true, description: 'numbered pages only: every hit, counted exactly' }) totalHits!: number | null;
  @Field(() => Int, { nullable: true, description: 'numbered pages only: the pages reaching the first 1,000 hits' }) totalPages!: number | null;
}

@ObjectType('FacetHit')
export class FacetHit {
  @Field() value!: string;
  @Field(() => Int, { description: 'documents holding the value among those the query and filter select' }) count!: number;
}

@ObjectType('FacetSearchResults')
export class FacetSearchResults {
  @Field() indexUid!: string;
  @Field(() => [FacetHit], { description: 'most frequent first, at most 100' }) facetHits!: FacetHit[];
  @Field(() => String, { nullable: true }) facetQuery!: string | null;
  @Field(() => Int) processingTimeMs!: number;
}

@ObjectType('FederatedSearchResults')
export class FederatedSearchResults {
  @Field(() => ID, { description: 'identifies this answer' }) id!: string;
  @Field(() => [GraphQLJSONObject], { description: 'the queries\' hits as one list, best first; each carries `_federation` { indexUid, queriesPosition, weightedRankingScore }' })
  hits!: Record<string, unknown>[];
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int, { description: "the queries' totals added" }) estimatedTotalHits!: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'federation.facetsByIndex asked: index uid → { distribution, stats } (as a search\'s facetDistribution and facetStats)' })
  facetsByIndex?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'federation.mergeFacets asked: attribute → value → count, over every index named' }) facetDistribution?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'federation.mergeFacets asked: numeric facets → { min, max } over every index named' }) facetStats?: Record<string, unknown> | null;
  @Field(() => Int) processingTimeMs!: number;
}

@ObjectType('SearchSuggestion')
export class SearchSuggestion {
  @Field() suggestion!: string;
  @Field() highlighted!: string;
  @Field(() => Int, { nullable: true, description: 'how often searched, or how many matching documents hold the value; null when include_frequency is off' })
  frequency!: number | null;
}

@ObjectType('SearchSuggestions')
export class SearchSuggestions {
  @Field() indexUid!: string;
  @Field(() => [SearchSuggestion]) suggestions!: SearchSuggestion[];
  @Field(() => Int) processingTimeMs!: number;
}

export function toResults(a: SearchAnswer): IndexSearchResults {
  return {
    id: a.id,
    indexUid: a.indexUid,
    hits: a.hits,
    query: a.query,
    offset: a.offset,
    limit: a.limit,
    estimatedTotalHits: a.estimatedTotalHits,
    processingTimeMs: a.processingTimeMs,
    facetDistribution: a.facetDistribution ?? null,
    facetStats: (a.facetStats as Record<string, unknown>) ?? null,
    page: a.page ?? null,
    hitsPerPage: a.hitsPerPage ?? null,
    totalHits: a.totalHits ?? null,
    totalPages: a.totalPages ?? null,
  };
}
