// Similar documents (Meilisearch's POST /indexes/{uid}/similar): the documents whose vectors are
// closest to one document's, as a pure vector search (hybrid.ts, semantic ratio 1) with that
// document's stored vector as the query vector and the document itself left out. The filter, paging,
// ranking score and retrieval parameters apply as to a search; query, sort and hybrid do not.
import { clear, has, type Bitset } from './bitset.js';
import type { Semantic } from './hybrid.js';
import type { EngineState } from './state.js';
import { EngineError, type SearchRequest } from './types.js';

export interface Similar {
  /** the document's internal id (left out of the results) */
  id: number;
  semantic: Semantic;
}

/** The request's similarTo resolved, or null without one. */
export function similarOf(st: EngineState, req: SearchRequest): Similar | null {
  const ref = req.similarTo;
  if (ref === undefined || ref === null) return null;
  if ((typeof ref !== 'string' && typeof ref !== 'number') || (typeof ref === 'number' && !Number.isSafeInteger(ref)) || String(ref) === '') {
    throw new EngineError('invalid_similar_id', 'id must be a document id: a string or an integer', 'id');
  }
  if (!st.vectors) {
    throw new EngineError('invalid_similar_embedder', 'This index has no embedding attributes, so it cannot find similar documents: set embedding_attributes in its settings first.', 'id');
  }
  const id = st.idOf(String(ref));
  if (id === undefined) throw new EngineError('not_found_similar_id', `Document \`${String(ref)}\` not found.`, 'id');
  // a document without text in its embedding attributes has no vector: nothing is close to it
  const vector = st.vectors.vector(id);
  return { id, semantic: { ratio: 1, vector: vector ? Float32Array.from(vector) : null } };
}

/** `allowed` without the document itself (a copy when it held it). */
export function withoutSimilar(allowed: Bitset, similar: Similar | null): Bitset {
  if (!similar || !has(allowed, similar.id)) return allowed;
  const out = allowed.slice();
  clear(out, similar.id);
  return out;
}
