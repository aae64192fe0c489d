// The semantic part of a search request: `hybrid: { semanticRatio }` and/or `vector`.
//  - neither: a keyword search (nothing here runs);
//  - `hybrid` alone: the query is embedded with the index's model and both lists are fused
//    (fusion.ts) with weight semanticRatio (default 0.5) on the vector list; 0 = keyword only,
//    1 = vector only;
//  - `vector` alone: pure vector search (semanticRatio 1) with that vector instead of the query's;
//  - both: the hybrid search with `vector` standing for the query's embedding.
// Errors name the parameter: an index without embedding attributes, `sort` combined with it, a ratio
// outside [0, 1], a vector that is not `dims` finite numbers or is all zeros.
import { EMBEDDING_DIMENSIONS, embed } from './vector-index.js';
import { EngineError, type SearchRequest } from './types.js';

export const DEFAULT_SEMANTIC_RATIO = 0.5;

export interface Semantic {
  ratio: number;
  /** unit query vector; null when there is nothing to embed (empty query): the vector side is empty */
  vector: Float32Array | null;
}

export function semanticRequest(req: SearchRequest, query: string, embeddingAttributes: readonly string[] | undefined): Semantic | null {
  const { hybrid, vector } = req;
  if ((hybrid === undefined || hybrid === null) && (vector === undefined || vector === null)) return null;
  const parameter = hybrid != null ? 'hybrid' : 'vector';
  if (hybrid != null && (typeof hybrid !== 'object' || Array.isArray(hybrid))) {
    throw new EngineError('invalid_search_hybrid_query', 'hybrid must be an object: { semanticRatio }', 'hybrid');
  }
  if (!embeddingAttributes?.length) {
    throw new EngineError('invalid_search_hybrid_query', `This index has no embedding attributes, so it cannot answer \`${parameter}\`: set embedding_attributes in its settings first.`, parameter);
  }
  if (req.sort?.length) throw new EngineError('invalid_search_hybrid_query', '`sort` cannot be combined with hybrid or vector search.', 'sort');
  let ratio = vector != null && hybrid == null ? 1 : DEFAULT_SEMANTIC_RATIO;
  const given = hybrid?.semanticRatio;
  if (given !== undefined && given !== null) {
    if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given > 1) {
      throw new EngineError('invalid_search_semantic_ratio', 'hybrid.semanticRatio must be a number from 0.0 to 1.0', 'hybrid.semanticRatio');
    }
    ratio = given;
  }
  return { ratio, vector: vector != null ? unitVector(vector) : query.trim() ? embed(query) : null };
}

function unitVector(v: unknown): Float32Array {
  if (!Array.isArray(v) || v.length !== EMBEDDING_DIMENSIONS || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
    throw new EngineError('invalid_search_vector', `vector must be an array of ${EMBEDDING_DIMENSIONS} finite numbers (the index's model, glove-sif-100d)`, 'vector');
  }
  const norm = Math.sqrt((v as number[]).reduce((s, x) => s + x * x, 0));
  if (!norm) throw new EngineError('invalid_search_vector', 'vector must not be all zeros', 'vector');
  return Float32Array.from(v as number[], (x) => x / norm);
}
