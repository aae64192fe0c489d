// One search: validate the request, filter (bitset), match words (match.ts), bucket-sort only as far as
// the page needs, then facets over all candidates and formatting of the page's hits.
// Paging: at most the settings' maxTotalHits (default MAX_TOTAL_HITS, 1000, Meilisearch's) ranked hits are
// reachable through offset/limit; estimatedTotalHits still counts every candidate (exact here, not estimated).
// Hybrid and vector searches (hybrid.ts) rank by fusing the keyword list with the vector list (fusion.ts).
import { and, bitset, clear, count, has, set, setAll, toIds, type Bitset } from './bitset.js';
import { bucketSort, Collector } from './bucket-sort.js';
import type { EngineState } from './state.js';
import { computeFacets, facetValueMatcher } from './facets.js';
import { compileFilter, evaluate } from './filter/evaluate.js';
import { covered, valueAt } from './fields.js';
import { geoOf, haversine } from './geo.js';
import { collectMatches, formatValue, type FormatOptions, type MatchPosition } from './highlight.js';
import { ABSENT, matchWords, type AttributesOff, type MatchData } from './match.js';
import { excludedWords, parseQuery, queryPhrases, wordTypos, type QueryWord } from './query.js';
import { withPhrases } from './phrase.js';
import { rarestFirst } from './frequency.js';
import { distinctKeys, type DistinctKeys } from './distinct.js';
import type { Analyzer } from './analyzer.js';
import type { DictionaryView } from './dictionary.js';
import type { OffsetToken } from './tokenizer.js';
import { parseSort, type SortCriterion } from './ranking.js';
import { rankingScores, round, type Scored } from './ranking-score.js';
import { buildSteps } from './steps.js';
import { fuse, fusionDepth } from './fusion.js';
import { semanticRequest, type Semantic } from './hybrid.js';
import { similarOf, withoutSimilar, type Similar } from './similar.js';
import { EngineError, type Document, type FacetOrder, type Faceting, type SearchHit, type SearchRequest, type SearchResult } from './types.js';

export const MAX_TOTAL_HITS = 1000;
export const DEFAULT_LIMIT = 20;
export const DEFAULT_CROP_LENGTH = 10;
export const MAX_VALUES_PER_FACET = 100;

function nonNegativeInt(v: unknown, fallback: number, code: 'invalid_search_offset' | 'invalid_search_limit' | 'invalid_search_hits_per_page', name: string): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new EngineError(code, `${name} must be a non-negative integer`, name);
  return v;
}

export function runSearch(st: EngineState, req: SearchRequest): SearchResult {
  const t0 = performance.now();
  const pages = pageRequest(req);
  const offset = pages ? (pages.page - 1) * pages.hitsPerPage : nonNegativeInt(req.offset, 0, 'invalid_search_offset', 'offset');
  const limit = pages ? pages.hitsPerPage : nonNegativeInt(req.limit, DEFAULT_LIMIT, 'invalid_search_limit', 'limit');
  const similar = similarOf(st, req);
  const query = typeof req.query === 'string' && !similar ? req.query : '';
  const { filterableAttributes: filterable } = st.settings;
  const semantic = similar ? similar.semantic : semanticRequest(req, query, st.settings.embeddingAttributes);
  const sort = parseSort(req.sort, st.settings.sortableAttributes, st.rules);
  const facetSearch = facetSearchOf(req.facetSearch, st);
  const facets = facetSearch ? [facetSearch.facetName] : facetList(req.facets, filterable);
  const alsoOver = facets.length ? facetsAlsoOver(req.facetsAlsoOver) : [];
  const distinct = distinctOf(st, req.distinct);
  const { allowed, words, match, candidates } = select(st, req, query, !semantic || semantic.ratio < 1, similar);

  const doc = (id: number): Document => st.doc(id) ?? {};
  const columns = st.columns;
  const distinctKey = distinct?.keyOf;
  const maxTotalHits = st.settings.maxTotalHits ?? MAX_TOTAL_HITS;
  const need = Math.min(offset + limit, maxTotalHits);
  const ranking = semantic ? rankHybrid(st, semantic, candidates, allowed, { match, doc, columns, sort }, need, maxTotalHits, distinctKey) : null;
  let ranked: number[];
  if (ranking) ranked = ranking.ids;
  else {
    const out = new Collector(need, distinctKey);
    if (need > offset) bucketSort(candidates, buildSteps(st.rules, { match, doc, columns, sort }), out);
    ranked = out.ids;
  }

  let total = distinct ? distinctCount(candidates, distinct.keyOf, distinct.values) : candidates.length;
  if (ranking) total += ranking.extra;

  const scoring = scoreRequest(req);
  let scored: Scored | null = null;
  if (scoring) {
    scored = pageScores(st, ranked, { match, sort, semantic, doc }, scoring.details);
    const { threshold } = scoring;
    if (threshold !== null) {
      // compared as shown (rounded), so a score read off one answer is a threshold that keeps its hit
      const keep = ranked.map((_, i) => round(scored!.scores[i]) >= threshold);
      // scores fall along the ranked list: a cut within it leaves those before it as every hit
      if (keep.includes(false)) total = Math.min(total, keep.filter(Boolean).length);
      ranked = ranked.filter((_, i) => keep[i]);
      scored = { scores: scored.scores.filter((_, i) => keep[i]), ...(scored.details ? { details: scored.details.filter((_, i) => keep[i]) } : {}) };
    }
  }

  const geoSort = sort.find((s) => s.kind === 'geo');
  const analyzer = pageAnalyzer(st.analyzer);
  const format = formatOptions(req, match, analyzer);
  const hits = ranked.slice(offset, need).map((id, i) => {
    const d = doc(id);
    const hit: SearchHit = pick(d, req.attributesToRetrieve);
    if (scored && req.showRankingScore === true) hit._rankingScore = round(scored.scores[offset + i]);
    if (scored?.details) hit._rankingScoreDetails = scored.details[offset + i];
    if (format) {
      const f: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(hit)) f[k] = formatValue(v, k, format);
      hit._formatted = f;
    }
    if (req.showMatchesPosition && match) {
      const mp: Record<string, MatchPosition[]> = {};
      for (const [k, v] of searchableFields(d, st.settings.searchableAttributes)) collectMatches(v, k, match.terms, mp, [], analyzer);
      hit._matchesPosition = mp;
    }
    if (geoSort && geoSort.kind === 'geo') {
      const g = geoOf(d._geo);
      if (g) hit._geoDistance = Math.round(haversine(geoSort.lat, geoSort.lng, g.lat, g.lng));
    }
    if (semantic?.vector && st.vectors) {
      const sim = st.vectors.similarity(semantic.vector, id);
      if (sim !== undefined) hit._semanticScore = Math.round(sim * 1e6) / 1e6;
    }
    return hit;
  });

  const result: SearchResult = { hits, query, offset, limit, estimatedTotalHits: total, processingTimeMs: 0 };
  if (pages) {
    // numbered pages reach the first maxTotalHits hits, as offset/limit do; totalHits stays exact
    const reachable = Math.min(total, maxTotalHits);
    Object.assign(result, { page: pages.page, hitsPerPage: pages.hitsPerPage, totalHits: total, totalPages: pages.hitsPerPage ? Math.ceil(reachable / pages.hitsPerPage) : 0 });
  }
  if (facets.length) {
    // the keyword candidates as a bitset only if a facet scans its values (most read the forward arrays)
    let candidateBits: Bitset | (() => Bitset) = allowed;
    let candidateIds: Int32Array | undefined = ranking ? undefined : candidates;
    if (ranking) candidateBits = ranking.facetBase;
    else if (words.length) {
      candidateBits = () => {
        const bits = bitset(st.nextId);
        setAll(bits, candidates);
        return bits;
      };
    }
    if (alsoOver.length) {
      // the other requests' documents too; the page is formatted, so their matching may reuse the scratch arrays
      const bits = (typeof candidateBits === 'function' ? candidateBits() : candidateBits).slice();
      for (const other of alsoOver) setAll(bits, select(st, other, typeof other.query === 'string' ? other.query : '', true, null).candidates);
      candidateBits = bits;
      candidateIds = toIds(bits);
    }
    const f = computeFacets(
      st.segments,
      candidateBits,
      facets,
      facetSearch
        ? { maxValuesPerFacet: MAX_VALUES_PER_FACET, sortBy: 'count', keep: facetSearch.keep }
        : { maxValuesPerFacet: req.maxValuesPerFacet ?? st.settings.faceting?.maxValuesPerFacet ?? MAX_VALUES_PER_FACET, sortBy: facetOrder(req, st.settings.faceting) },
      candidateIds,
    );
    result.facetDistribution = f.distribution;
    result.facetStats = f.stats;
  }
  result.processingTimeMs = Math.round(performance.now() - t0);
  return result;
}

const EMPTY = new Int32Array(0);

/** showRankingScore, showRankingScoreDetails and rankingScoreThreshold, checked; null when none asks for scores. */
function scoreRequest(req: SearchRequest): { details: boolean; threshold: number | null } | null {
  const t = req.rankingScoreThreshold;
  if (t !== undefined && t !== null && (typeof t !== 'number' || !(t >= 0 && t <= 1))) {
    throw new EngineError('invalid_search_ranking_score_threshold', 'rankingScoreThreshold must be a number from 0 to 1', 'rankingScoreThreshold');
  }
  const threshold = typeof t === 'number' ? t : null;
  const details = req.showRankingScoreDetails === true;
  return req.showRankingScore === true || details || threshold !== null ? { details, threshold } : null;
}

/**
 * The ranked documents' ranking scores (ranking-score.ts). With a vector side, a document's score is
 * the better of its keyword score (0 when the words did not find it) and its vector similarity.
 */
function pageScores(
  st: EngineState,
  ranked: number[],
  { match, sort, semantic, doc }: { match: MatchData | null; sort: SortCriterion[]; semantic: Semantic | null; doc: (id: number) => Document },
  details: boolean,
): Scored {
  const sortValue = (c: SortCriterion, id: number): unknown => {
    if (c.kind === 'field') return valueAt(doc(id), c.attr);
    const g = geoOf(doc(id)._geo);
    return g ? Math.round(haversine(c.lat, c.lng, g.lat, g.lng)) : null;
  };
  const ctx = { rules: st.rules, match, sort, attributes: st.attributeMask([]).length, sortValue };
  if (!semantic) return rankingScores(ctx, ranked, details);
  const keywordSide = semantic.ratio < 1 && match !== null;
  const found = keywordSide ? ranked.filter((id) => match.typo[0][id] !== ABSENT) : [];
  const byKeyword = rankingScores(ctx, found, details);
  const at = new Map(found.map((id, i) => [id, i]));
  const scores = Float64Array.from(ranked, (id) => {
    const k = at.get(id);
    const sim = semantic.vector && st.vectors ? (st.vectors.similarity(semantic.vector, id) ?? 0) : 0;
    return Math.max(k === undefined ? 0 : byKeyword.scores[k], Math.min(1, Math.max(0, sim)));
  });
  if (!details) return { scores };
  return {
    scores,
    details: ranked.map((id, i) => {
      const k = at.get(id);
      return { ...(k === undefined ? {} : byKeyword.details![k]), vectorSort: { order: ctx.rules.length, similarity: scores[i] } };
    }),
  };
}

interface Selection {
  /** the filter's documents, less those a -word or -"phrase" leaves out and those lacking a "phrase" */
  allowed: Bitset;
  words: QueryWord[];
  match: MatchData | null;
  /** the keyword side's candidates, ascending (empty for a pure vector search) */
  candidates: Int32Array;
}

/** The documents a request's query, filter, matchingStrategy and attributesToSearchOn select. */
function select(st: EngineState, req: SearchRequest, query: string, keywordSide: boolean, similar: Similar | null): Selection {
  const filter = compileFilter(req.filter, st.settings.filterableAttributes);
  const strategy = matchingStrategy(req.matchingStrategy);
  let allowed: Bitset = st.alive;
  if (filter) allowed = and(evaluate(filter, { segments: st.segments, universe: st.alive }), st.alive);
  allowed = withoutSimilar(allowed, similar);
  const dictionary = st.dictionary.view(st.segments);
  const off = attributesOff(st, req.attributesToSearchOn);
  const phrases = queryPhrases(query, st.analyzer);
  if (phrases.length) allowed = withPhrases(st.segments, allowed, phrases, off?.all ?? null);
  const excluded = excludedWords(query, st.analyzer, phrases);
  if (excluded.length) allowed = withoutWords(st, allowed, excluded, dictionary, off);
  const words = parseQuery(query, st, phrases);
  let match: MatchData | null = null;
  let candidates: Int32Array = EMPTY;
  if (words.length) {
    // a pure vector search still matches the words: highlighting marks them on its hits
    const order = strategy === 'frequency' && words.length > 1 ? rarestFirst(words, st.segments, dictionary) : null;
    match = matchWords(order ? order.map((w) => words[w]) : words, st.segments, allowed, st.nextId, st.scratch, dictionary, off, order);
    if (keywordSide) candidates = strategy === 'all' ? matchingEveryWord(match) : match.candidates;
  } else if (keywordSide) {
    candidates = toIds(allowed);
  }
  return { allowed, words, match, candidates };
}

/** The request's facetsAlsoOver (federated search's facets over several queries of one index), checked. */
function facetsAlsoOver(v: SearchRequest['facetsAlsoOver']): SearchRequest[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) {
    throw new EngineError('invalid_search_facets', 'facetsAlsoOver must be an array of search requests', 'facetsAlsoOver');
  }
  return v;
}

/** `allowed` less the documents that contain any of `terms` exactly (no typo, no prefix, no synonym): the query's `-word`s. */
function withoutWords(st: EngineState, allowed: Bitset, terms: readonly string[], dictionary: DictionaryView, off: AttributesOff | null): Bitset {
  const out = allowed === st.alive ? allowed.slice() : allowed;
  for (const text of terms) {
    const m = matchWords([{ text, prefix: false, maxTypos: 0, synonyms: [] }], st.segments, out, st.nextId, st.scratch, dictionary, off);
    for (const d of m.candidates) clear(out, d);
  }
  return out;
}

/** The request's matchingStrategy: 'last' (default), 'all' or 'frequency' (frequency.ts). */
function matchingStrategy(v: unknown): 'last' | 'all' | 'frequency' {
  if (v === undefined || v === null || v === 'last') return 'last';
  if (v === 'all' || v === 'frequency') return v;
  throw new EngineError('invalid_search_matching_strategy', `matchingStrategy must be last, all or frequency (got ${JSON.stringify(v).slice(0, 40)})`, 'matchingStrategy');
}

/** The candidates that match every query word (matched counts the words matched from the first). */
function matchingEveryWord(m: MatchData): Int32Array {
  const n = m.words.length;
  let k = 0;
  const out = new Int32Array(m.candidates.length);
  for (const d of m.candidates) if (m.matched[d] === n) out[k++] = d;
  return out.subarray(0, k);
}

/**
 * The index's analyzer with its offsets memoised for one page: `_formatted` and `_matchesPosition`
 * tokenise the same field values, so each string of a hit is tokenised once.
 */
function pageAnalyzer(a: Analyzer): Analyzer {
  const memo = new Map<string, OffsetToken[]>();
  return {
    key: a.key,
    tokenize: (text) => a.tokenize(text),
    isStopWord: (term) => a.isStopWord(term),
    tokenizeWithOffsets: (text) => {
      let tokens = memo.get(text);
      if (!tokens) memo.set(text, (tokens = a.tokenizeWithOffsets(text)));
      return tokens;
    },
  };
}

/**
 * The distinct rule of a search: its `distinct` attribute (filterable; read off the field indexes,
 * distinct.ts), else the index's distinctAttribute (a column), else none.
 */
function distinctOf(st: EngineState, attr: unknown): DistinctKeys | undefined {
  if (attr === undefined || attr === null) {
    const { columns } = st;
    return st.settings.distinctAttribute ? { keyOf: (id) => columns.distinctOf(id), values: columns.distinctValues } : undefined;
  }
  const filterable = st.settings.filterableAttributes;
  if (typeof attr !== 'string' || !attr) throw new EngineError('invalid_search_distinct', 'distinct must be the name of a filterable attribute', 'distinct');
  if (!covered(filterable, attr) || attr === '_geo') {
    throw new EngineError('invalid_search_distinct', `Attribute \`${attr}\` is not filterable, so it cannot be the distinct attribute. Filterable attributes: ${filterable.join(', ') || 'none'}.`, 'distinct');
  }
  return distinctKeys(st, st.segments, attr);
}

/** Candidates after `distinctAttribute`: distinct values (codes, counted in a bitset), plus every document without one. */
function distinctCount(candidates: Int32Array, distinctKey: (id: number) => number | undefined, values: number): number {
  const seen = bitset(values);
  let distinct = 0;
  let unkeyed = 0;
  for (const id of candidates) {
    const k = distinctKey(id);
    if (k === undefined) unkeyed++;
    else if (!has(seen, k)) {
      set(seen, k);
      distinct++;
    }
  }
  return distinct + unkeyed;
}

interface HybridRanking {
  /** fused order (distinct applied), to the page's end */
  ids: number[];
  /** documents the vector list added to the keyword candidates (counted in estimatedTotalHits) */
  extra: number;
  /** documents facets count over: the keyword candidates and the vector list */
  facetBase: Bitset;
}

/**
 * Keyword list and vector list, each to the fusion depth, fused by weighted RRF (fusion.ts). The
 * filter applies to both: the vector list only holds allowed documents. A pure vector search's
 * candidates are all allowed documents with a vector.
 */
function rankHybrid(
  st: EngineState,
  semantic: Semantic,
  candidates: Int32Array,
  allowed: Bitset,
  rules: Parameters<typeof buildSteps>[1],
  need: number,
  maxTotalHits: number,
  distinctKey: ((id: number) => number | undefined) | undefined,
): HybridRanking {
  const depth = fusionDepth(need, maxTotalHits);
  let keyword: number[] = [];
  if (semantic.ratio < 1 && need > 0) {
    const out = new Collector(depth);
    bucketSort(candidates, buildSteps(st.rules, rules), out);
    keyword = out.ids;
  }
  const facetBase = bitset(st.nextId);
  setAll(facetBase, candidates);
  let vector: number[] = [];
  let extra = 0;
  if (semantic.ratio > 0 && semantic.vector && st.vectors) {
    if (semantic.ratio === 1) {
      const all = st.vectors.candidates(allowed);
      extra = count(all);
      for (let i = 0; i < facetBase.length && i < all.length; i++) facetBase[i] |= all[i];
    }
    if (need > 0) vector = st.vectors.nearest(semantic.vector, allowed, depth).ids;
    if (semantic.ratio < 1) {
      for (const id of vector) {
        if (has(facetBase, id)) continue;
        set(facetBase, id);
        extra++;
      }
    }
  }
  const ids: number[] = [];
  const seen = new Set<number>();
  for (const f of fuse(keyword, vector, semantic.ratio)) {
    if (ids.length >= need) break;
    const k = distinctKey?.(f.id);
    if (k !== undefined) {
      if (seen.has(k)) continue;
      seen.add(k);
    }
    ids.push(f.id);
  }
  return { ids, extra, facetBase };
}

/** Each facet's value order: the request's for all, else the settings' for the attribute or '*', else alpha. */
function facetOrder(req: SearchRequest, faceting: Faceting | undefined): FacetOrder | ((attr: string) => FacetOrder) {
  if (req.sortFacetValuesBy === 'count' || req.sortFacetValuesBy === 'alpha') return req.sortFacetValuesBy;
  const by = faceting?.sortFacetValuesBy;
  if (!by) return 'alpha';
  return (attr) => by[attr] ?? by['*'] ?? 'alpha';
}

/**
 * Meilisearch's numbered pages: `page` (from 1) and/or `hitsPerPage` (default 20) stand for
 * offset/limit, which are then ignored; null when neither is given.
 */
function pageRequest(req: SearchRequest): { page: number; hitsPerPage: number } | null {
  if ((req.page === undefined || req.page === null) && (req.hitsPerPage === undefined || req.hitsPerPage === null)) return null;
  const page = req.page ?? 1;
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1) throw new EngineError('invalid_search_page', 'page must be an integer from 1', 'page');
  const hitsPerPage = nonNegativeInt(req.hitsPerPage, DEFAULT_LIMIT, 'invalid_search_hits_per_page', 'hitsPerPage');
  if (hitsPerPage > MAX_TOTAL_HITS) throw new EngineError('invalid_search_hits_per_page', `hitsPerPage must be an integer from 0 to ${MAX_TOTAL_HITS}`, 'hitsPerPage');
  return { page, hitsPerPage };
}

/**
 * Where words do not match (match.ts AttributesOff): outside the request's attributesToSearchOn, and
 * for typos also in typoTolerance.disableOnAttributes; null when neither applies.
 */
function attributesOff(st: EngineState, on: unknown): AttributesOff | null {
  const names = searchOn(st, on);
  const typoOff = st.settings.typoTolerance.disableOnAttributes;
  if (!names && !typoOff?.length) return null;
  let all: Uint8Array | null = null;
  if (names) {
    all = st.attributeMask(names);
    for (let i = 0; i < all.length; i++) all[i] ^= 1;
  }
  let typo = all;
  if (typoOff?.length) {
    typo = st.attributeMask(typoOff);
    if (all) for (let i = 0; i < typo.length; i++) typo[i] |= all[i];
  }
  return { all, typo };
}

/** The request's attributesToSearchOn, checked; null when every searchable attribute is searched. */
function searchOn(st: EngineState, on: unknown): string[] | null {
  if (on === undefined || on === null) return null;
  const bad = (message: string) => new EngineError('invalid_search_attributes_to_search_on', message, 'attributesToSearchOn');
  if (!Array.isArray(on) || on.some((a) => typeof a !== 'string' || !a)) throw bad('attributesToSearchOn must be an array of attribute names');
  if (on.includes('*')) return null;
  const searchable = st.settings.searchableAttributes;
  for (const a of on as string[]) {
    const ok = searchable[0] === '*' ? !a.includes('.') : searchable.some((s) => s === a || s.startsWith(`${a}.`));
    if (!ok) {
      const which = searchable[0] === '*' ? 'a top-level field (every field is searchable)' : `one of the searchable attributes (${searchable.join(', ')})`;
      throw bad(`Attribute \`${a}\` cannot be searched on: it must be ${which}.`);
    }
  }
  return on as string[];
}

/** The request's facet search, checked: a filterable facetName and a string (or no) facetQuery. */
function facetSearchOf(fs: SearchRequest['facetSearch'], st: EngineState): { facetName: string; keep?: (display: string) => boolean } | null {
  if (fs === undefined || fs === null) return null;
  const filterable = st.settings.filterableAttributes;
  const { facetName, facetQuery } = fs;
  if (typeof facetName !== 'string' || !facetName) throw new EngineError('invalid_facet_search_facet_name', 'facetName must be the name of a filterable attribute', 'facetName');
  if (facetName === '_geo' || !covered(filterable, facetName)) {
    throw new EngineError('invalid_facet_search_facet_name', `Attribute \`${facetName}\` is not filterable, so its values cannot be searched. Filterable attributes: ${filterable.join(', ') || 'none'}.`, 'facetName');
  }
  if (facetQuery !== undefined && facetQuery !== null && (typeof facetQuery !== 'string' || facetQuery.length > MAX_FACET_QUERY)) {
    throw new EngineError('invalid_facet_search_facet_query', `facetQuery must be a string of at most ${MAX_FACET_QUERY} characters`, 'facetQuery');
  }
  // the index's typo rules, none where typoTolerance.disableOnAttributes names the facet
  const typoFree = covered(st.settings.typoTolerance.disableOnAttributes ?? [], facetName);
  return { facetName, keep: facetValueMatcher(facetQuery, (w) => (typoFree ? 0 : wordTypos(w, st))) };
}

const MAX_FACET_QUERY = 512;

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
