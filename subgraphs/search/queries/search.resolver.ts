import { Arg, Authorized, Ctx, Query, Resolver, Directive } from 'type-graphql';
import type { SearchContext } from '../context.js';
import { suggest } from '../suggestions/suggestion.service.js';
import { FacetSearchInput, FederationInput, MultiSearchQueryInput, SearchInput, SimilarInput, SuggestInput } from './search.inputs.js';
import { federatedSearch, type FederatedQuery } from './federated-search.service.js';
import * as searching from './search.service.js';
import { FacetSearchResults, FederatedSearchResults, IndexSearchResults, SearchSuggestions, toResults } from './search.type.js';

@Resolver(() => IndexSearchResults)
export class SearchResolver {
  @Authorized('search:read')
  @Directive('@cost(weight: 10)')
  @Query(() => IndexSearchResults, { description: 'Search one index (counts against the plan\'s searches per second)' })
  async searchIndex(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('input', () => SearchInput, { nullable: true }) input?: SearchInput,
  ): Promise<IndexSearchResults> {
    return toResults(await searching.search(ctx, indexUid, { ...(input ?? {}) } as searching.SearchParams));
  }

  @Authorized('search:read')
  @Directive('@cost(weight: 10)')
  @Directive('@listSize(assumedSize: 10)')
  @Query(() => [IndexSearchResults], { description: `Several searches in one call, answered in order (at most ${searching.MAX_MULTI_SEARCH_QUERIES})` })
  async multiSearch(@Ctx() ctx: SearchContext, @Arg('queries', () => [MultiSearchQueryInput]) queries: MultiSearchQueryInput[]): Promise<IndexSearchResults[]> {
    return (await searching.multiSearch(ctx, queries.map((q) => ({ ...q }) as searching.SearchParams & { indexUid: string }))).map(toResults);
  }

  @Authorized('search:read')
  @Directive('@cost(weight: 100)')
  @Query(() => FederatedSearchResults, {
    description: `Several queries (one index or several) answered as one list, merged by each hit's ranking score times its query's weight (at most ${searching.MAX_MULTI_SEARCH_QUERIES} queries; each counts against the plan's searches per second)`,
  })
  async federatedSearch(
    @Ctx() ctx: SearchContext,
    @Arg('queries', () => [MultiSearchQueryInput]) queries: MultiSearchQueryInput[],
    @Arg('federation', () => FederationInput, { nullable: true }) federation?: FederationInput,
  ): Promise<FederatedSearchResults> {
    return federatedSearch(ctx, queries.map((q) => ({ ...q }) as FederatedQuery), federation ? { ...federation } : null);
  }

  @Authorized('search:read')
  @Directive('@cost(weight: 10)')
  @Query(() => IndexSearchResults, {
    description: "The documents whose vectors are closest to one document's (Meilisearch's similar documents; the index needs embedding attributes; counts against the plan's searches per second)",
  })
  async similarDocuments(@Ctx() ctx: SearchContext, @Arg('indexUid', () => String) indexUid: string, @Arg('input', () => SimilarInput) input: SimilarInput): Promise<IndexSearchResults> {
    return toResults(await searching.similar(ctx, indexUid, { ...input } as searching.SimilarParams));
  }

  @Authorized('search:read')
  @Directive('@cost(weight: 10)')
  @Query(() => FacetSearchResults, { description: "Search the values of a filterable attribute among the documents a query and filter select (counts against the plan's searches per second)" })
  async facetSearch(@Ctx() ctx: SearchContext, @Arg('indexUid', () => String) indexUid: string, @Arg('input', () => FacetSearchInput) input: FacetSearchInput): Promise<FacetSearchResults> {
    return searching.facetSearch(ctx, indexUid, { ...input } as searching.FacetSearchParams);
  }

  @Authorized('search:read')
  @Directive('@cost(weight: 5)')
  @Query(() => SearchSuggestions, { description: 'Suggestions for a partial query, per the index\'s suggestion settings' })
  async indexSuggestions(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('input', () => SuggestInput) input: SuggestInput,
  ): Promise<SearchSuggestions> {
    return { indexUid, ...(await suggest(ctx, indexUid, input)) };
  }
}
