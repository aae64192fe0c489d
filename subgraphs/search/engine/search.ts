// One search: validate the request, filter (bitset), match words (match.ts), bucket-sort only as far as
// the page needs, then facets over all candidates and formatting of the page's hits.
// Paging: at most MAX_TOTAL_HITS (1000, Meilisearch's default maxTotalHits) ranked hits are reachable
// through offset/limit; estimatedTotalHits still counts every candidate (exact here, not estimated).
import { and, bitset, setAll, toIds, type Bitset } from './bitset.js';
import { bucketSort, Collector } from './bucket-sort.js';
import type { EngineState } from './state.js';
import { computeFacets } from './facets.js';
import { compileFilter, evaluate } from './filter/evaluate.js';
import { covered, valueAt } from './fields.js';
import { geoOf, haversine } from './geo.js';
import { collectMatches, formatValue, type FormatOptions, type MatchPosition } from './highlight.js';
import { matchWords, type MatchData } from './match.js';
import { parseQuery } from './query.js';
import type { Analyzer } from './analyzer.js';
import { parseSort } from './ranking.js';
import { buildSteps } from './steps.js';
import { EngineError, type Document, type SearchHit, type SearchRequest, type SearchResult } from './types.js';

export const MAX_TOTAL_HITS = 1000;
export const DEFAULT_LIMIT = 20;
export const DEFAULT_CROP_LENGTH = 10;
export const MAX_VALUES_PER_FACET = 100;

function nonNegativeInt(v: unknown, fallback: number, code: 'invalid_search_offset' | 'invalid_search_limit', name: string): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new EngineError(code, `${name} must be a non-negative integer`, name);
  return v;
}

export function runSearch(st: EngineState, req: SearchRequest): SearchResult {
  const t0 = performance.now();
  const offset = nonNegativeInt(req.offset, 0, 'invalid_search_offset', 'offset');
  const limit = nonNegativeInt(req.limit, DEFAULT_LIMIT, 'invalid_search_limit', 'limit');
  const query = typeof req.query === 'string' ? req.query : '';
  const { filterableAttributes: filterable, distinctAttribute } = st.settings;
  const sort = parseSort(req.sort, st.settings.sortableAttributes, st.rules);
  const filter = compileFilter(req.filter, filterable);
  const facets = facetList(req.facets, filterable);

  let allowed: Bitset = st.alive;
  if (filter) allowed = and(evaluate(filter, { segments: st.segments, universe: st.alive }), st.alive);
  const words = parseQuery(query, st.settings, st.stopWords, st.synonyms, st.analyzer);
  let match: MatchData | null = null;
  let candidates: Int32Array;
  let candidateBits: Bitset = allowed;
  if (words.length) {
    match = matchWords(words, st.segments, allowed, st.nextId, st.scratch);
    candidates = match.candidates;
    if (facets.length) {
      candidateBits = bitset(st.nextId);
      setAll(candidateBits, candidates);
    }
  } else {
    candidates = toIds(allowed);
  }

  const doc = (id: number): Document => st.docs[id]!;
  const distinctKey = distinctAttribute ? (id: number) => keyOf(valueAt(doc(id), distinctAttribute)) : undefined;
  const need = Math.min(offset + limit, MAX_TOTAL_HITS);
  const out = new Collector(need, distinctKey);
  if (need > offset) bucketSort(candidates, buildSteps(st.rules, { match, doc, sort }), out);

  let total = candidates.length;
  if (distinctKey) {
    const seen = new Set<string>();
    let unkeyed = 0;
    for (const id of candidates) {
      const k = distinctKey(id);
      if (k === undefined) unkeyed++;
      else seen.add(k);
    }
    total = seen.size + unkeyed;
  }

  const geoSort = sort.find((s) => s.kind === 'geo');
  const format = formatOptions(req, match, st.analyzer);
  const hits = out.ids.slice(offset, need).map((id) => {
    const d = doc(id);
    const hit: SearchHit = pick(d, req.attributesToRetrieve);
    if (format) {
      const f: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(hit)) f[k] = formatValue(v, k, format);
      hit._formatted = f;
    }
    if (req.showMatchesPosition && match) {
      const mp: Record<string, MatchPosition[]> = {};
      for (const [k, v] of searchableFields(d, st.settings.searchableAttributes)) collectMatches(v, k, match.terms, mp, [], st.analyzer);
      hit._matchesPosition = mp;
    }
    if (geoSort && geoSort.kind === 'geo') {
      const g = geoOf(d._geo);
      if (g) hit._geoDistance = Math.round(haversine(geoSort.lat, geoSort.lng, g.lat, g.lng));
    }
    return hit;
  });

  const result: SearchResult = { hits, query, offset, limit, estimatedTotalHits: total, processingTimeMs: 0 };
  if (facets.length) {
    const f = computeFacets(st.segments, candidateBits, facets, {
      maxValuesPerFacet: req.maxValuesPerFacet ?? MAX_VALUES_PER_FACET,
      sortBy: req.sortFacetValuesBy === 'count' ? 'count' : 'alpha',
    });
    result.facetDistribution = f.distribution;
    result.facetStats = f.stats;
  }
  result.processingTimeMs = Math.round(performance.now() - t0);
  return result;
}

function facetList(facets: unknown, filterable: readonly string[]): string[] {
  if (facets === undefined || facets === null) return [];
  if (!Array.isArray(facets) || facets.some((f) => typeof f !== 'string')) throw new EngineError('invalid_search_facets', 'facets must be an array of attribute names', 'facets');
  if (facets.includes('*')) return filterable.filter((f) => f !== '_geo');
  for (const f of facets) {
    if (!covered(filterable, f)) {
      throw new EngineError('invalid_search_facets', `Attribute \`${f}\` is not filterable, so it cannot be a facet. Filterable attributes: ${filterable.join(', ') || 'none'}.`, 'facets');
    }
  }
  return [...new Set(facets as string[])];
}

/** Distinct key: type-tagged so 1 and "1" differ; arrays by their JSON; absent values are never duplicates. */
function keyOf(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? `s:${v}` : `${typeof v}:${JSON.stringify(v)}`;
}

/** The document restricted to `attributesToRetrieve` (top-level fields; "a.b" keeps all of "a"). */
function pick(doc: Document, attrs: string[] | undefined): SearchHit {
  if (!attrs || attrs.includes('*')) return { ...doc };
  const out: SearchHit = {};
  for (const [k, v] of Object.entries(doc)) if (attrs.some((a) => a === k || a.startsWith(`${k}.`))) out[k] = v;
  return out;
}

function searchableFields(doc: Document, searchable: string[]): Array<[string, unknown]> {
  if (searchable[0] === '*') return Object.entries(doc);
  return searchable.map((a) => [a, valueAt(doc, a)] as [string, unknown]).filter(([, v]) => v !== undefined);
}

function formatOptions(req: SearchRequest, match: MatchData | null, analyzer: Analyzer): FormatOptions | null {
  const hl = req.attributesToHighlight ?? [];
  const crop = req.attributesToCrop ?? [];
  if (!hl.length && !crop.length) return null;
  const defaultCrop = req.cropLength ?? DEFAULT_CROP_LENGTH;
  if (!Number.isInteger(defaultCrop) || defaultCrop < 0) throw new EngineError('invalid_search_limit', 'cropLength must be a non-negative integer', 'cropLength');
  const cropLengths = new Map<string, number>();
  for (const c of crop) {
    const m = /^(.+):(\d+)$/.exec(c);
    cropLengths.set(m ? m[1] : c, m ? Number(m[2]) : defaultCrop);
  }
  return {
    terms: match?.terms ?? { get: () => undefined },
    analyzer,
    highlight: (path) => covered(hl, path),
    crop: (path) => {
      for (const [attr, n] of cropLengths) if (covered([attr], path)) return n;
      return 0;
    },
    preTag: req.highlightPreTag ?? '<em>',
    postTag: req.highlightPostTag ?? '</em>',
    cropMarker: req.cropMarker ?? '…',
  };
}
