// Search request attributes (document 3 part B, "Search request"), plus Meilisearch's others.
import { Field, Float, InputType, Int } from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';

@InputType('HybridSearchInput')
export class HybridSearchInput {
  @Field(() => Float, { nullable: true, description: 'weight of the vector results in the fusion, 0.0 (keyword only) to 1.0 (vector only); default 0.5' })
  semanticRatio?: number;
}

@InputType()
export class SearchInput {
  @Field({ nullable: true, description: 'search text; the last word matches as a prefix' }) query?: string;
  @Field(() => Int, { nullable: true, description: 'default 20' }) limit?: number;
  @Field(() => Int, { nullable: true, description: 'default 0' }) offset?: number;
  @Field(() => Int, { nullable: true, description: 'numbered pages, from 1: with hitsPerPage, stands for offset/limit (then ignored); the result carries page, hitsPerPage, totalHits, totalPages' })
  page?: number;
  @Field(() => Int, { nullable: true, description: 'numbered pages: hits per page, 0 to 1,000 (default 20)' }) hitsPerPage?: number;
  @Field(() => GraphQLJSON, { nullable: true, description: 'filter expression, or the array form (outer AND, inner arrays OR)' }) filter?: unknown;
  @Field(() => [String], { nullable: true, description: 'attributes to count (facet_distribution, facet_stats)' }) facets?: string[];
  @Field(() => [String], { nullable: true, description: '<attribute>:asc|desc or _geoPoint(lat, lng):asc|desc' }) sort?: string[];
  @Field(() => [String], { nullable: true }) attributesToRetrieve?: string[];
  @Field(() => [String], { nullable: true, description: "default ['*'] (every retrieved field gets `_formatted`); [] for none" }) attributesToHighlight?: string[];
  @Field({ nullable: true, description: 'default <em>' }) highlightPreTag?: string;
  @Field({ nullable: true, description: 'default </em>' }) highlightPostTag?: string;
  @Field(() => [String], { nullable: true }) attributesToCrop?: string[];
  @Field(() => Int, { nullable: true }) cropLength?: number;
  @Field({ nullable: true }) cropMarker?: string;
  @Field({ nullable: true, description: 'default true: hits carry `_matchesPosition`' }) showMatchesPosition?: boolean;
  @Field({ nullable: true, description: "last (default): documents matching the query's first words also come, after those matching more; all: only documents matching every word; frequency: as last, the most frequent words dropped first" })
  matchingStrategy?: string;
  @Field(() => HybridSearchInput, { nullable: true, description: 'hybrid search: keyword and vector results fused (weighted reciprocal rank fusion, k = 60); needs embedding_attributes' })
  hybrid?: HybridSearchInput;
  @Field(() => [Float], { nullable: true, description: '100 numbers (glove-sif-100d, the AI service\'s default embedding): pure vector search, or the vector side of a hybrid search' })
  vector?: number[];
  @Field(() => [String], { nullable: true, description: "the query's words match only in these searchable attributes (default: all of them)" }) attributesToSearchOn?: string[];
  @Field({ nullable: true, description: 'hits carry `_rankingScore`, from 0 to 1, read off the ranking rules' }) showRankingScore?: boolean;
  @Field({ nullable: true, description: "hits carry `_rankingScoreDetails`: each rule's part of the score" }) showRankingScoreDetails?: boolean;
  @Field(() => Float, { nullable: true, description: 'hits scoring below it (0 to 1) are left out' }) rankingScoreThreshold?: number;
  @Field({ nullable: true, description: "a filterable attribute: at most one hit per value of it, in place of the index's distinct attribute" }) distinct?: string;
  @Field({ nullable: true, description: 'analytics: the searching user' }) userId?: string;
  @Field({ nullable: true, description: 'analytics: the search session' }) sessionId?: string;
}

@InputType()
export class FederationOptionsInput {
  @Field(() => Float, { nullable: true, description: 'the weight of this query\'s hits in the merged list, above 0 and at most 100 (default 1)' }) weight?: number;
}

@InputType()
export class MultiSearchQueryInput extends SearchInput {
  @Field() indexUid!: string;
  @Field(() => FederationOptionsInput, { nullable: true, description: 'federated search only' }) federationOptions?: FederationOptionsInput;
}

@InputType()
export class MergeFacetsInput {
  @Field(() => Int, { nullable: true, description: 'values per facet, 0 to 100 (default 100)' }) maxValuesPerFacet?: number;
}

@InputType()
export class FederationInput {
  @Field(() => Int, { nullable: true, description: 'hits of the merged list, 0 to 1,000 (default 20)' }) limit?: number;
  @Field(() => Int, { nullable: true, description: 'hits of the merged list skipped (default 0); offset + limit reach at most the first 1,000' }) offset?: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: "index uid → filterable attributes: their values counted over the documents any of that index's queries selects" })
  facetsByIndex?: Record<string, unknown>;
  @Field(() => MergeFacetsInput, { nullable: true, description: "the indexes' facets as one facetDistribution and facetStats (min, max) instead of facetsByIndex" })
  mergeFacets?: MergeFacetsInput;
}

@InputType()
export class FacetSearchInput {
  @Field({ description: 'a filterable attribute whose values are searched' }) facetName!: string;
  @Field(() => String, { nullable: true, description: 'every word begins a word of the value (case and accents ignored); none: every value' }) facetQuery?: string | null;
  @Field(() => String, { nullable: true, description: 'search text: only the documents it finds are counted' }) query?: string | null;
  @Field(() => GraphQLJSON, { nullable: true, description: 'filter expression, or the array form: only the documents it selects are counted' }) filter?: unknown;
  @Field(() => String, { nullable: true, description: 'as in a search: last (default), all or frequency' }) matchingStrategy?: string | null;
}

@InputType({ description: "Meilisearch's similar documents: the documents whose vectors are closest to one document's" })
export class SimilarInput {
  @Field(() => GraphQLJSON, { description: 'the id of a document of the index (a string or an integer)' }) id!: string | number;
  @Field(() => Int, { nullable: true, description: 'default 20' }) limit?: number;
  @Field(() => Int, { nullable: true, description: 'default 0' }) offset?: number;
  @Field(() => GraphQLJSON, { nullable: true, description: 'filter expression, or the array form: only the documents it selects are answered' }) filter?: unknown;
  @Field(() => [String], { nullable: true }) attributesToRetrieve?: string[];
  @Field({ nullable: true, description: 'hits carry `_rankingScore`: their similarity, from 0 to 1' }) showRankingScore?: boolean;
  @Field({ nullable: true, description: 'hits carry `_rankingScoreDetails`' }) showRankingScoreDetails?: boolean;
  @Field(() => Float, { nullable: true, description: 'hits scoring below it (0 to 1) are left out' }) rankingScoreThreshold?: number;
}

@InputType()
export class SuggestInput {
  @Field() query!: string;
  @Field(() => Int, { nullable: true, description: 'at most the index\'s max_suggestions' }) limit?: number;
  @Field({ nullable: true, description: 'default true: wrap the matched part in <em>…</em>' }) highlight?: boolean;
}
