// What a search reads of an engine (search.ts takes this, SegmentedEngine implements it): the
// settings in compiled form, the segments, the ranking columns and the bodies of a page's hits.
import type { Analyzer } from './analyzer.js';
import type { Bitset } from './bitset.js';
import type { TermUnion } from './dictionary.js';
import type { MatchScratch } from './match.js';
import type { SynonymIndex } from './query.js';
import type { Rule } from './ranking.js';
import type { Segment } from './segment.js';
import type { Columns } from './columns.js';
import type { VectorIndex } from './vector-index.js';
import type { Document, EngineSettings } from './types.js';

export interface EngineState {
  settings: EngineSettings;
  rules: Rule[];
  stopWords: Set<string>;
  /** typoTolerance.disableOnWords, normalised as indexed */
  noTypoWords: Set<string>;
  /** per attribute rank, 1 for the attributes `names` name (or nest under); the searchable attributes' order, or '*''s field order */
  attributeMask(names: readonly string[]): Uint8Array;
  synonyms: SynonymIndex;
  /** the index's language pipeline (DEFAULT_ANALYZER without languages) */
  analyzer: Analyzer;
  segments: Segment[];
  alive: Bitset;
  nextId: number;
  /** a live document's body (doc-store.ts: read for the page's hits only) */
  doc(id: number): Document | undefined;
  /** values sort, custom rules, distinct and geo sorting read (columns.ts) */
  columns: Columns;
  extIds: (string | undefined)[];
  /** the internal id of a live document by its id (as a string) */
  idOf(id: string): number | undefined;
  scratch: MatchScratch;
  /** the union of the segments' dictionaries, walked once per query word (dictionary.ts) */
  dictionary: TermUnion;
  /** the documents' embeddings when the index has embedding attributes */
  vectors: VectorIndex | null;
}
