// The engine's public contract: pure indexing and query code, no GraphQL, no HTTP, no database.
// The search subgraph stores documents and tasks in PostgreSQL and drives an Engine per index.
import type { GraphInput, ReadyGraph } from './graph-build.js';
import type { HnswSnapshot } from './hnsw.js';

/** The typed arrays an engine's state is made of. */
export type TypedArray = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array | Float32Array;
/** A typed array as a snapshot holds it: base64 text (stored snapshots) or the array itself (handed between threads). */
export type Encoded = string | TypedArray;
/** How a snapshot writes typed arrays (snapshot.ts): BASE64 for stored JSON; `transferCodec()` keeps them as arrays. */
export interface Codec {
  put(a: TypedArray): Encoded;
}

export type Document = Record<string, unknown>;

export interface TypoTolerance {
  enabled: boolean;
  minWordSizeForTypos: { oneTypo: number; twoTypos: number };
  /** query words matched exactly (no typo; a prefix still extends), as written: normalised as indexed */
  disableOnWords?: string[];
  /** attributes where a word matches only without typos (entries of searchableAttributes, or top-level fields with '*') */
  disableOnAttributes?: string[];
  /** query words made of digits only are matched without typos ("2024" never finds "2025") */
  disableOnNumbers?: boolean;
}

export interface EngineSettings {
  /** ['*'] = every field, in document order */
  searchableAttributes: string[];
  filterableAttributes: string[];
  sortableAttributes: string[];
  /** words, typo, proximity, attribute, sort, exactness, then `<attr>:asc|desc` */
  rankingRules: string[];
  stopWords: string[];
  distinctAttribute: string | null;
  /** two-way synonyms: term → equivalent terms */
  synonyms: Record<string, string[]>;
  /** one-way synonyms: term → terms it also matches */
  oneWaySynonyms: Record<string, string[]>;
  typoTolerance: TypoTolerance;
  /** language pipeline (analyzer.ts); absent or [] = the default tokenizer rule */
  languages?: string[];
  /** attributes embedded for hybrid and vector search (vector-index.ts); absent or [] = no vectors */
  embeddingAttributes?: string[];
  /** Meilisearch's pagination.maxTotalHits: ranked hits reachable through offset/limit and pages (absent: MAX_TOTAL_HITS) */
  maxTotalHits?: number;
  /** Meilisearch's faceting: values per facet (absent: MAX_VALUES_PER_FACET) and their order by attribute ('*': the others; absent: alpha) */
  faceting?: Faceting;
}

export type FacetOrder = 'alpha' | 'count';

export interface Faceting {
  maxValuesPerFacet?: number;
  sortFacetValuesBy?: Record<string, FacetOrder>;
}

export interface SearchRequest {
  query?: string;
  offset?: number;
  limit?: number;
  /** numbered pages (Meilisearch's page/hitsPerPage): given, they stand for offset/limit and the result counts pages */
  page?: number | null;
  hitsPerPage?: number | null;
  /** Meilisearch filter expression, or the array form (outer AND, inner arrays OR) */
  filter?: string | (string | string[])[];
  facets?: string[];
  /** `<attr>:asc|desc` or `_geoPoint(lat, lng):asc|desc` */
  sort?: string[];
  attributesToRetrieve?: string[];
  attributesToHighlight?: string[];
  highlightPreTag?: string;
  highlightPostTag?: string;
  attributesToCrop?: string[];
  cropLength?: number;
  cropMarker?: string;
  showMatchesPosition?: boolean;
  /** facet values returned per facet (default: the settings' faceting, else 100, as Meilisearch) */
  maxValuesPerFacet?: number;
  /** order of every facet's values: 'alpha' or 'count' (most frequent first); default: the settings' faceting, else alpha */
  sortFacetValuesBy?: FacetOrder;
  /** hybrid search (hybrid.ts): keyword and vector results fused with this weight on the vector side */
  hybrid?: { semanticRatio?: number | null } | null;
  /** a query vector (the index's model's dimensions): pure vector search, or the hybrid search's vector side */
  vector?: number[] | null;
  /**
   * Meilisearch's matchingStrategy: 'last' (default) also returns documents that match the query's
   * first words only, ranked after those that match more; 'all' only documents that match every word;
   * 'frequency' drops the most frequent words first instead of the last ones (frequency.ts)
   */
  matchingStrategy?: 'last' | 'all' | 'frequency';
  /**
   * Facet search (Meilisearch's facet-search): the values of `facetName` among the documents the
   * rest of the request selects, those matching `facetQuery` only (facets.ts facetValueMatcher), most
   * frequent first, at most MAX_VALUES_PER_FACET; `facets`, `maxValuesPerFacet` and `sortFacetValuesBy` are then ignored
   */
  facetSearch?: { facetName: string; facetQuery?: string | null } | null;
  /**
   * a document's id (Meilisearch's similar documents, similar.ts): the other documents ranked by how
   * close their vectors are to its; the query, sort and hybrid parameters do not apply
   */
  similarTo?: string | number | null;
  /**
   * Meilisearch's attributesToSearchOn: the query's words, phrases and -words match only in these
   * searchable attributes (or top-level fields, with '*' searchable); absent or ['*']: all of them
   */
  attributesToSearchOn?: string[] | null;
  /**
   * Federated search's facets (Meilisearch's facetsByIndex): `facets` are counted over the documents
   * this request selects and those each of these selects (by query, filter, matchingStrategy,
   * attributesToSearchOn: their keyword side; their paging, sort and facets are ignored)
   */
  facetsAlsoOver?: SearchRequest[] | null;
  /** Meilisearch's: hits carry `_rankingScore`, 0 to 1 (ranking-score.ts) */
  showRankingScore?: boolean | null;
  /** hits carry `_rankingScoreDetails`: each rule's part of the score */
  showRankingScoreDetails?: boolean | null;
  /** hits scoring below it (0 to 1) are left out */
  rankingScoreThreshold?: number | null;
  /** a filterable attribute standing in for the index's distinctAttribute in this search (distinct.ts) */
  distinct?: string | null;
}

export interface SearchHit {
  /** the document (restricted to attributesToRetrieve), plus `_formatted`, `_matchesPosition`, `_geoDistance`, `_semanticScore` when asked/applicable */
  [field: string]: unknown;
}

export interface FacetStats {
  min: number;
  max: number;
  avg: number;
  sum: number;
}

export interface SearchResult {
  hits: SearchHit[];
  query: string;
  offset: number;
  limit: number;
  estimatedTotalHits: number;
  processingTimeMs: number;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, FacetStats>;
  /** with numbered pages: the page, its size, every hit counted, and the pages reaching the first MAX_TOTAL_HITS */
  page?: number;
  hitsPerPage?: number;
  totalHits?: number;
  totalPages?: number;
}

export type EngineErrorCode =
  | 'invalid_filter_syntax'
  | 'attribute_not_filterable'
  | 'invalid_sort_attribute'
  | 'invalid_search_facets'
  | 'invalid_search_offset'
  | 'invalid_search_limit'
  | 'invalid_document_id'
  | 'missing_document_id'
  | 'invalid_settings'
  | 'invalid_search_hybrid_query'
  | 'invalid_search_semantic_ratio'
  | 'invalid_search_vector'
  | 'invalid_search_matching_strategy'
  | 'invalid_search_ranking_score_threshold'
  | 'invalid_search_distinct'
  | 'invalid_facet_search_facet_name'
  | 'invalid_search_attributes_to_search_on'
  | 'invalid_search_page'
  | 'invalid_search_hits_per_page'
  | 'invalid_facet_search_facet_query'
  | 'invalid_similar_id'
  | 'not_found_similar_id'
  | 'invalid_similar_embedder';

/** Thrown for client mistakes; `parameter` names the request field, `position` the offset in a filter. */
export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly parameter?: string,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** One in-memory index (derived data: rebuilt from PostgreSQL rows or from a snapshot). */
export interface Engine {
  readonly size: number;
  /**
   * add or replace by primary key; returns how many were indexed. `texts[i]`, when given, is
   * JSON.stringify(docs[i]) already written (a task's payload), kept as the body instead of serialising again
   */
  addDocuments(docs: Document[], primaryKey: string, texts?: readonly string[]): number;
  /** returns how many existed and were deleted */
  deleteDocuments(ids: string[]): number;
  /** ids of the documents the filter matches (for delete-by-filter and document listing) */
  filterIds(filter: SearchRequest['filter']): string[];
  getDocument(id: string): Document | undefined;
  updateSettings(settings: EngineSettings): void;
  search(req: SearchRequest): SearchResult;
  /**
   * merge small segments (background compaction); true when it also built or dropped the vector graph
   * (a snapshot is due). `rebuildGraph` false leaves a graph that answers but is due again as it is.
   */
  compact(rebuildGraph?: boolean): boolean;
  /** the vector graph answers but wants building again (an older builder's, or many dead nodes): compact() would */
  graphDue(): boolean;
  /** the live vectors, copied out in steps, for a graph built elsewhere (graph-build.ts); undefined without embedding attributes */
  graphInputSteps(): Generator<void, GraphInput> | undefined;
  /**
   * a graph built elsewhere from graphInputSteps' rows, restored and given the vectors added since the
   * copy, in steps that need no lock (the engine may answer and change between them); false when over
   * `maxInserts` were missing or the vectors were embedded again
   */
  readyGraphSteps(graph: HnswSnapshot, maxInserts: number): Generator<void, ReadyGraph | false>;
  /**
   * put a graph from readyGraphSteps in place, inserting the vectors added since, in steps (the vectors
   * must not change between them; the graph is replaced at the last): the count inserted, or false
   * when over `maxInserts` were missing or the index has no graph now
   */
  placeGraphSteps(ready: ReadyGraph, maxInserts: number): Generator<void, number | false>;
  /**
   * compact()'s segment merges in steps, the engine answering and changing between them (peak memory:
   * the engine plus one merged segment); returns the merges done
   */
  compactSteps(): Generator<void, number>;
  /**
   * The engine's state for fast restarts (snapshot.ts): typed arrays as base64 (JSON-safe), or, with
   * `transferCodec()`, as arrays to hand to another thread.
   */
  toSnapshot(codec?: Codec): unknown;
  /** estimated bytes held (memory.ts): typed arrays exactly, strings and documents estimated */
  memoryBytes(): number;
  /** immutable segments held (compaction merges them; each costs a dictionary lookup per query word) */
  readonly segmentCount: number;
}

export interface EngineFactory {
  create(settings: EngineSettings): Engine;
  fromSnapshot(snapshot: unknown, settings: EngineSettings): Engine;
}
