// The search engine: pure indexing and query code (no GraphQL, HTTP or database). See docs/search-engine.md.
import { SegmentedEngine } from './engine.js';
import { restoreEngine } from './restore.js';
export { restoreSteps } from './restore.js';
export { buildGraphSteps, type GraphInput, type ReadyGraph } from './graph-build.js';
export type { HnswSnapshot } from './hnsw.js';
import type { EngineFactory } from './types.js';

export const engineFactory: EngineFactory = {
  create: (settings) => new SegmentedEngine(settings),
  fromSnapshot: (snapshot, settings) => restoreEngine(snapshot, settings),
};

export { parseFilter } from './filter/parser.js';
export type { FilterNode, FilterValue } from './filter/parser.js';
export { compileFilter } from './filter/evaluate.js';
export { DEFAULT_SETTINGS } from './settings.js';
export { DEFAULT_RANKING_RULES } from './ranking.js';
export { MAX_TOTAL_HITS, MAX_VALUES_PER_FACET } from './search.js';
export { tokenize, normalize } from './tokenizer.js';
export { facetKey } from './field-index.js';
export * from './types.js';
