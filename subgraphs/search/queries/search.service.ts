// Search and multi-search: plan rate limit, the index's engine (caught up with PostgreSQL; on a
// node that holds the index: placement/), the engine's answer, and an analytics record (buffered, off the response path).
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { normaliseQuery } from '../analytics/analytics.buffer.js';
import type { SearchContext } from '../context.js';
import type { SearchRequest, SearchResult } from '../../../lib/search-engine/types.js';
import { placedSearch } from '../placement/placed-search.js';
import { getSearchableIndex, type SearchableIndex } from '../indexes/index.service.js';
import { planLimits } from '../tenancy.js';
import { appPartition } from '../../../lib/tenant-entity.js';

export interface SearchParams extends SearchRequest {
  /** analytics: who searched (optional) */
  userId?: string | null;
  sessionId?: string | null;
}

export interface SearchAnswer extends SearchResult {
  id: string;
  indexUid: string;
  /** the index's primary key (a federated search tells documents apart by it) */
  primaryKey: string | null;
}

/** ids recorded per search as impressions (click-through rates) */
const IMPRESSIONS = 100;
export const MAX_MULTI_SEARCH_QUERIES = 100;

/** One token per search from the plan's per-second budget (1-second fixed windows, shared through Redis when configured). */
async function takeSearchBudget(ctx: SearchContext, searches: number): Promise<void> {
  const { appId, environment } = await appPartition(ctx);
  const limits = planLimits(ctx);
  if (limits.searchesPerSecond === null) return;
  const rt = ctx.runtime;
  let last;
  for (let i = 0; i < searches; i++) last = await rt.limiter.hit(`search:${appId}:${environment}`, limits.searchesPerSecond, 1000);
  if (last && !last.allowed) {
    throw new DomainError('RATE_LIMITED', `The ${limits.plan} plan allows ${limits.searchesPerSecond} searches per second; retry in ${Math.max(1, last.resetMs)} ms.`, {
      meta: { retryAfterMs: last.resetMs },
    });
  }
}

/** Spec defaults: hits carry `_formatted` and `_matchesPosition` unless the request says otherwise. */
function withDefaults(p: SearchParams): SearchRequest {
  const { userId: _u, sessionId: _s, ...req } = p;
  const clean = Object.fromEntries(Object.entries(req).filter(([, v]) => v !== undefined && v !== null)) as SearchRequest;
  return { attributesToHighlight: ['*'], showMatchesPosition: true, ...clean };
}

async function run(ctx: SearchContext, index: SearchableIndex, p: SearchParams, parameterPrefix?: string): Promise<SearchAnswer> {
  const rt = ctx.runtime;
  const result = await placedSearch(ctx, index, withDefaults(p), parameterPrefix);
  const { appId, environment } = await appPartition(ctx);
  const pk = index.primaryKey;
  rt.analytics.record({
    appId,
    environment,
    indexId: index.id,
    query: normaliseQuery(p.query ?? ''),
    hits: result.estimatedTotalHits,
    hitIds: pk ? result.hits.slice(0, IMPRESSIONS).map((h) => String(h[pk])) : null,
    userId: p.userId ?? null,
    sessionId: p.sessionId ?? null,
    at: new Date(),
  });
  return { ...result, id: newId('srch'), indexUid: index.uid, primaryKey: pk ?? null };
}

export async function search(ctx: SearchContext, uid: string, p: SearchParams): Promise<SearchAnswer> {
  const index = await getSearchableIndex(ctx, uid);
  await takeSearchBudget(ctx, 1);
  return run(ctx, index, p);
}

export interface FacetSearchParams {
  facetName: string;
  facetQuery?: string | null;
  /** the search text selecting the documents whose values are counted */
  query?: string | null;
  filter?: SearchRequest['filter'];
  matchingStrategy?: SearchRequest['matchingStrategy'];
}

export interface FacetSearchAnswer {
  indexUid: string;
  facetHits: { value: string; count: number }[];
  facetQuery: string | null;
  processingTimeMs: number;
}

/**
 * Meilisearch's facet search: the values of a filterable attribute matching `facetQuery`, counted
 * over the documents `query` and `filter` select, most frequent first (at most 100). One search
 * against the plan's rate; not recorded in analytics (no one searched documents).
 */
export async function facetSearch(ctx: SearchContext, uid: string, p: FacetSearchParams): Promise<FacetSearchAnswer> {
  const index = await getSearchableIndex(ctx, uid);
  await takeSearchBudget(ctx, 1);
  const request: SearchRequest = {
    query: p.query ?? '',
    limit: 0,
    attributesToHighlight: [],
    showMatchesPosition: false,
    facetSearch: { facetName: p.facetName, facetQuery: p.facetQuery ?? null },
    ...(p.filter !== undefined && p.filter !== null ? { filter: p.filter } : {}),
    ...(p.matchingStrategy ? { matchingStrategy: p.matchingStrategy } : {}),
  };
  const result = await placedSearch(ctx, index, request);
  const values = result.facetDistribution?.[p.facetName] ?? {};
  return {
    indexUid: index.uid,
    facetHits: Object.entries(values).map(([value, count]) => ({ value, count })),
    facetQuery: p.facetQuery ?? null,
    processingTimeMs: result.processingTimeMs,
  };
}

export interface SimilarParams {
  id: string | number;
  limit?: number | null;
  offset?: number | null;
  filter?: SearchRequest['filter'];
  attributesToRetrieve?: string[] | null;
  showRankingScore?: boolean | null;
  showRankingScoreDetails?: boolean | null;
  rankingScoreThreshold?: number | null;
}

/**
 * Meilisearch's similar documents (lib/search-engine/similar.ts): one search against the plan's rate,
 * on a node holding the index; not recorded in analytics (no one typed a query). Hits carry neither
 * `_formatted` nor `_matchesPosition`: there are no query words to mark.
 */
export async function similar(ctx: SearchContext, uid: string, p: SimilarParams): Promise<SearchAnswer> {
  const index = await getSearchableIndex(ctx, uid);
  await takeSearchBudget(ctx, 1);
  const { id, ...rest } = p;
  const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null)) as SearchRequest;
  const result = await placedSearch(ctx, index, { ...given, similarTo: id, attributesToHighlight: [], showMatchesPosition: false });
  return { ...result, id: newId('srch'), indexUid: index.uid, primaryKey: index.primaryKey ?? null };
}

/** Several searches in one call, answered in order; one invalid query fails the call, naming it (queries[i]). */
export async function multiSearch(ctx: SearchContext, queries: (SearchParams & { indexUid: string })[]): Promise<SearchAnswer[]> {
  if (queries.length > MAX_MULTI_SEARCH_QUERIES) {
    throw new DomainError('VALIDATION_FAILED', `queries accepts at most ${MAX_MULTI_SEARCH_QUERIES} searches`, { parameter: 'queries' });
  }
  const indexes: SearchableIndex[] = [];
  for (const [i, q] of queries.entries()) {
    try {
      indexes.push(await getSearchableIndex(ctx, q.indexUid));
    } catch (e) {
      if (e instanceof DomainError) throw new DomainError(e.code, e.message, { parameter: `queries[${i}].indexUid` });
      throw e;
    }
  }
  if (queries.length) await takeSearchBudget(ctx, queries.length);
  const out: SearchAnswer[] = [];
  for (const [i, q] of queries.entries()) {
    const { indexUid: _uid, federationOptions, ...params } = q as typeof q & { federationOptions?: unknown };
    if (federationOptions !== undefined && federationOptions !== null) {
      throw new DomainError('VALIDATION_FAILED', `queries[${i}].federationOptions needs a federated search (federatedSearch, POST /search/v1/federated-search)`, { parameter: `queries[${i}].federationOptions` });
    }
    out.push(await run(ctx, indexes[i], params, `queries[${i}]`));
  }
  return out;
}
