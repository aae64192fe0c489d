// Federated search (the spec's "federated search over several indexes"; Meilisearch's multi-search
// with `federation`): several queries, on one index or several, answered as ONE ranked list, merged
// as Meilisearch merges them: by each hit's ranking score (lib/search-engine/ranking-score.ts) times
// its query's weight, ties to the earlier query, then the earlier rank.
// Each query is run for the first offset + limit hits: no list can bring more to that page, since a
// list's later hits score no more than its earlier ones (unless a sort rule comes before the text
// rules). A document found by two queries of one index appears once, with its better score.
// Budget, analytics and errors are multi-search's. Facets: federated-facets.ts.
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { MAX_TOTAL_HITS } from '../../../lib/search-engine/index.js';
import type { SearchContext } from '../context.js';
import { multiSearch, type SearchAnswer, type SearchParams } from './search.service.js';
import { facetPlan, federatedFacets, type FederatedFacetParams, type FederatedFacets } from './federated-facets.js';

export interface FederatedQuery extends SearchParams {
  indexUid: string;
  federationOptions?: { weight?: number | null } | null;
}

export interface FederationParams extends FederatedFacetParams {
  limit?: number | null;
  offset?: number | null;
}

export interface FederatedAnswer extends FederatedFacets {
  id: string;
  hits: Record<string, unknown>[];
  offset: number;
  limit: number;
  /** the queries' totals added (a document two queries of one index find counts twice) */
  estimatedTotalHits: number;
  processingTimeMs: number;
}

const DEFAULT_LIMIT = 20;
const MAX_WEIGHT = 100;
/** paging belongs to the federation, not to its queries */
const QUERY_PAGING = ['offset', 'limit', 'page', 'hitsPerPage'] as const;

const invalid = (parameter: string, message: string) => new DomainError('VALIDATION_FAILED', message, { parameter });

function paging(v: number | null | undefined, fallback: number, max: number, parameter: string): number {
  if (v === undefined || v === null) return fallback;
  if (!Number.isInteger(v) || v < 0 || v > max) throw invalid(parameter, `${parameter} must be an integer from 0 to ${max}`);
  return v;
}

function weightOf(q: FederatedQuery, i: number): number {
  const w = q.federationOptions?.weight;
  if (w === undefined || w === null) return 1;
  if (typeof w !== 'number' || !Number.isFinite(w) || w <= 0 || w > MAX_WEIGHT) {
    throw invalid(`queries[${i}].federationOptions.weight`, `queries[${i}].federationOptions.weight must be a number above 0 and at most ${MAX_WEIGHT}`);
  }
  return w;
}

export async function federatedSearch(ctx: SearchContext, queries: FederatedQuery[], federation: FederationParams | null | undefined): Promise<FederatedAnswer> {
  const began = performance.now();
  const limit = paging(federation?.limit, DEFAULT_LIMIT, MAX_TOTAL_HITS, 'federation.limit');
  const offset = paging(federation?.offset, 0, MAX_TOTAL_HITS, 'federation.offset');
  const depth = Math.min(offset + limit, MAX_TOTAL_HITS);
  const weights = queries.map(weightOf);
  const plain = queries.map((q, i) => {
    for (const k of QUERY_PAGING) if (q[k] !== undefined && q[k] !== null) throw invalid(`queries[${i}].${k}`, `queries[${i}].${k}: a federated search pages with federation.limit and federation.offset`);
    const { federationOptions: _w, ...rest } = q;
    // past the reachable hits (offset at 1,000) only the totals are read
    return { ...rest, offset: 0, limit: depth > offset ? depth : 0, showRankingScore: true };
  });
  const plan = facetPlan(queries, federation ?? {});
  const answers = await multiSearch(ctx, plain);
  const merged = merge(answers, weights, queries.map((q) => q.showRankingScore === true));
  const facets = await federatedFacets(ctx, plain, plan);
  return {
    id: newId('srch'),
    hits: merged.slice(offset, offset + limit),
    offset,
    limit,
    estimatedTotalHits: answers.reduce((n, a) => n + a.estimatedTotalHits, 0),
    ...facets,
    processingTimeMs: Math.round(performance.now() - began),
  };
}

/**
 * The answers' hits as one list, best first, each with `_federation` (its index, query and weighted
 * score); `_rankingScore` stays only on the hits of the queries that asked for it.
 */
function merge(answers: SearchAnswer[], weights: number[], showScore: boolean[]): Record<string, unknown>[] {
  const best = new Map<string, { hit: Record<string, unknown>; score: number; query: number; rank: number }>();
  answers.forEach((a, query) => {
    a.hits.forEach(({ _rankingScore, ...rest }, rank) => {
      const score = weights[query] * (typeof _rankingScore === 'number' ? _rankingScore : 0);
      const id = a.primaryKey ? rest[a.primaryKey] : undefined;
      const key = id === undefined ? `${query}\u0000${rank}` : `${a.indexUid}\u0000${String(id)}`;
      const seen = best.get(key);
      if (seen && score <= seen.score) return;
      const hit = { ...rest, ...(showScore[query] ? { _rankingScore } : {}), _federation: { indexUid: a.indexUid, queriesPosition: query, weightedRankingScore: Math.round(score * 1e6) / 1e6 } };
      best.set(key, { hit, score, query, rank });
    });
  });
  return [...best.values()].sort((x, y) => y.score - x.score || x.query - y.query || x.rank - y.rank).map((e) => e.hit);
}
