// Shared helpers for the search engine unit tests.
import { engineFactory, DEFAULT_SETTINGS, type Document, type Engine, type EngineSettings, type SearchRequest } from '../../lib/search-engine/index.js';

export function engineWith(docs: Document[], settings: Partial<EngineSettings> = {}, primaryKey = 'id'): Engine {
  const e = engineFactory.create({ ...DEFAULT_SETTINGS, ...settings });
  if (docs.length) e.addDocuments(docs, primaryKey);
  return e;
}

/** Ids of the hits, in order. */
export function ids(e: Engine, req: SearchRequest): string[] {
  return e.search({ limit: 100, ...req }).hits.map((h) => String(h.id));
}

/** The EngineError a call throws (fails the test when it does not throw). */
export function errorOf(fn: () => unknown): { code: string; message: string; parameter?: string; position?: number } {
  try {
    fn();
  } catch (e) {
    return e as { code: string; message: string; parameter?: string; position?: number };
  }
  throw new Error('expected an error');
}
