// What a search reads of an engine (search.ts takes this, SegmentedEngine implements it): the
// settings in compiled form, the segments, and the document store.
import type { Analyzer } from './analyzer.js';
import type { Bitset } from './bitset.js';
import type { MatchScratch } from './match.js';
import type { SynonymIndex } from './query.js';
import type { Rule } from './ranking.js';
import type { Segment } from './segment.js';
import type { VectorIndex } from './vector-index.js';
import type { Document, EngineSettings } from './types.js';

export interface EngineState {
  settings: EngineSettings;
  rules: Rule[];
  stopWords: Set<string>;
  synonyms: SynonymIndex;
  /** the index's language pipeline (DEFAULT_ANALYZER without languages) */
  analyzer: Analyzer;
  segments: Segment[];
  alive: Bitset;
  nextId: number;
  docs: (Document | undefined)[];
  extIds: (string | undefined)[];
  scratch: MatchScratch;
  /** the documents' embeddings when the index has embedding attributes */
  vectors: VectorIndex | null;
}
