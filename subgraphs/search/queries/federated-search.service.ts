// Federated search (the spec's "federated search over several indexes"; Meilisearch's multi-search
// with `federation`): several queries, on one index or several, answered as ONE ranked list. The
// engines' rankings are not on one scale (bucket sort orders by rule after rule, with no score), so
// the lists are merged by weighted reciprocal rank fusion, as hybrid search merges its two
// (lib/search-engine/fusion.ts): a hit at rank r (from 1) of query i scores weight_i / (60 + r).
// Each query is run for the first offset + limit hits: no list can bring more to that page, since a
// list's later hits score less than its earlier ones. A document found by two queries of one index
// appears once, with its better score. Budget, analytics and errors are multi-search's. Facets:
// federated-facets.ts.
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { RRF_K } from '../../../lib/search-engine/fusion.js';
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
    return { ...rest, offset: 0, limit: depth > offset ? depth : 0 };
  });
  const plan = facetPlan(queries, federation ?? {});
  const answers = await multiSearch(ctx, plain);
  const merged = merge(answers, weights);
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

/** The answers' hits as one list, best first, each with `_federation` (its index, query and score). */
function merge(answers: SearchAnswer[], weights: number[]): Record<string, unknown>[] {
  const best = new Map<string, { hit: Record<string, unknown>; score: number; query: number; rank: number }>();
  answers.forEach((a, query) => {
    a.hits.forEach((hit, r) => {
      const score = weights[query] / (RRF_K + r + 1);
      const id = a.primaryKey ? hit[a.primaryKey] : undefined;
      const key = id === undefined ? `${query}\u0000${r}` : `${a.indexUid}\u0000${String(id)}`;
      const seen = best.get(key);
      if (!seen || score > seen.score) best.set(key, { hit: { ...hit, _federation: { indexUid: a.indexUid, queriesPosition: query, weightedRankingScore: Math.round(score * 1e9) / 1e9 } }, score, query, rank: r });
    });
  });
  return [...best.values()].sort((x, y) => y.score - x.score || x.query - y.query || x.rank - y.rank).map((e) => e.hit);
}
