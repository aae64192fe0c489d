// A federated search's facets (Meilisearch's federation.facetsByIndex and mergeFacets): for each index
// named, its attributes' values counted over the documents ANY of the queries on that index selects
// (each document once: one engine call with the other queries as facetsAlsoOver), by each query's
// keyword side (query, filter, matching_strategy, attributes_to_search_on; a vector-only query: every
// document its filter allows). With mergeFacets, the indexes' distributions are added into one
// (values as written, counts summed) and their stats into min and max, as Meilisearch merges them.
// Part of the federated search's budget: no search is counted for them, none is recorded.
import { DomainError } from '../../../lib/errors.js';
import { facetKey, MAX_VALUES_PER_FACET } from '../../../lib/search-engine/index.js';
import type { FacetStats, SearchRequest } from '../../../lib/search-engine/types.js';
import type { SearchContext } from '../context.js';
import { getSearchableIndex } from '../indexes/index.service.js';
import { placedSearch } from '../placement/placed-search.js';

export interface FederatedFacetParams {
  /** index uid → attributes (each filterable in that index) */
  facetsByIndex?: Record<string, unknown> | null;
  mergeFacets?: { maxValuesPerFacet?: number | null } | null;
}

export interface IndexFacets {
  distribution: Record<string, Record<string, number>>;
  stats: Record<string, FacetStats>;
}

export interface FederatedFacets {
  facetsByIndex?: Record<string, IndexFacets>;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, { min: number; max: number }>;
}

const invalid = (parameter: string, message: string) => new DomainError('VALIDATION_FAILED', message, { parameter });

/** the parts of a query that select documents */
function selection(q: SearchRequest): SearchRequest {
  const { query, filter, matchingStrategy, attributesToSearchOn } = q;
  return Object.fromEntries(Object.entries({ query, filter, matchingStrategy, attributesToSearchOn }).filter(([, v]) => v !== undefined && v !== null));
}

function facetLists(byIndex: Record<string, unknown>, queried: ReadonlySet<string>): [string, string[]][] {
  if (typeof byIndex !== 'object' || Array.isArray(byIndex)) throw invalid('federation.facetsByIndex', 'federation.facetsByIndex must map index uids to lists of attributes');
  return Object.entries(byIndex).map(([uid, facets]) => {
    if (!queried.has(uid)) throw invalid('federation.facetsByIndex', `federation.facetsByIndex names ${JSON.stringify(uid)}, which no query searches`);
    if (!Array.isArray(facets) || facets.some((f) => typeof f !== 'string')) {
      throw invalid('federation.facetsByIndex', `federation.facetsByIndex[${JSON.stringify(uid)}] must be a list of filterable attributes`);
    }
    return [uid, facets as string[]];
  });
}

/** What the federation asks of facets, checked before any search runs; null for none. */
export interface FacetPlan {
  lists: [string, string[]][];
  /** mergeFacets' maxValuesPerFacet; null: facets by index */
  mergeMax: number | null;
}

export function facetPlan(queries: readonly { indexUid: string }[], p: FederatedFacetParams): FacetPlan | null {
  if (!p.facetsByIndex) {
    if (p.mergeFacets) throw invalid('federation.mergeFacets', 'federation.mergeFacets merges the facets federation.facetsByIndex asks for: name some');
    return null;
  }
  return { lists: facetLists(p.facetsByIndex, new Set(queries.map((q) => q.indexUid))), mergeMax: p.mergeFacets ? maxValues(p.mergeFacets.maxValuesPerFacet) : null };
}

export async function federatedFacets(ctx: SearchContext, queries: (SearchRequest & { indexUid: string })[], plan: FacetPlan | null): Promise<FederatedFacets> {
  if (!plan) return {};
  const facetsByIndex: Record<string, IndexFacets> = {};
  for (const [uid, facets] of plan.lists) {
    const [first, ...others] = queries.filter((q) => q.indexUid === uid).map(selection);
    const request: SearchRequest = { ...first, limit: 0, attributesToHighlight: [], showMatchesPosition: false, facets, facetsAlsoOver: others };
    try {
      const result = await placedSearch(ctx, await getSearchableIndex(ctx, uid), request);
      facetsByIndex[uid] = { distribution: result.facetDistribution ?? {}, stats: result.facetStats ?? {} };
    } catch (e) {
      // the queries themselves passed: what fails here is the facet list (not filterable)
      if (e instanceof DomainError) throw invalid('federation.facetsByIndex', `federation.facetsByIndex[${JSON.stringify(uid)}]: ${e.message}`);
      throw e;
    }
  }
  return plan.mergeMax === null ? { facetsByIndex } : merged(Object.values(facetsByIndex), plan.mergeMax);
}

function maxValues(v: number | null | undefined): number {
  if (v === undefined || v === null) return MAX_VALUES_PER_FACET;
  if (!Number.isInteger(v) || v < 0 || v > MAX_VALUES_PER_FACET) {
    throw invalid('federation.mergeFacets.maxValuesPerFacet', `federation.mergeFacets.maxValuesPerFacet must be an integer from 0 to ${MAX_VALUES_PER_FACET}`);
  }
  return v;
}

/**
 * The indexes' facets as one: the counts of a value added (values compared as a search's facets compare
 * them, facetKey: case, accents and outer spaces aside, shown as the first index writes it), sorted as a search's (by value), at
 * most `max` a facet.
 */
function merged(all: IndexFacets[], max: number): FederatedFacets {
  const counts: Record<string, Map<string, { display: string; count: number }>> = {};
  const facetStats: Record<string, { min: number; max: number }> = {};
  for (const { distribution, stats } of all) {
    for (const [attr, values] of Object.entries(distribution)) {
      const m = (counts[attr] ??= new Map());
      for (const [value, n] of Object.entries(values)) {
        const key = facetKey(value);
        const e = m.get(key);
        if (e) e.count += n;
        else m.set(key, { display: value, count: n });
      }
    }
    for (const [attr, s] of Object.entries(stats)) {
      const cur = facetStats[attr];
      facetStats[attr] = cur ? { min: Math.min(cur.min, s.min), max: Math.max(cur.max, s.max) } : { min: s.min, max: s.max };
    }
  }
  const facetDistribution: Record<string, Record<string, number>> = {};
  for (const [attr, m] of Object.entries(counts)) {
    const sorted = [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, max);
    facetDistribution[attr] = Object.fromEntries(sorted.map(([, e]) => [e.display, e.count]));
  }
  return { facetDistribution, facetStats };
}
