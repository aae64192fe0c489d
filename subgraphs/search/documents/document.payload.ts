// The payload of a document addition task, written at enqueue and read by the task: JSON text with
// the documents first, so the task finds each document's text in it without serialising it again.
import { arrayElementTexts } from '../../../lib/json-text.js';

const DOCUMENTS_OPEN = '{"documents":[';

/** How a batch meets a stored document of the same id: replaces it (POST), or merges into it (PUT). */
export type WriteMode = 'replace' | 'update';

export function documentsPayload(documents: unknown[], primaryKey: string | null, plan: string, mode: WriteMode = 'replace'): string {
  return JSON.stringify({ documents, primary_key: primaryKey, plan, ...(mode === 'update' ? { update: true } : {}) });
}

/**
 * The JSON texts of an addition task's documents as its payload holds them (JSON.stringify of each
 * document), for the engine to keep as bodies; undefined when the payload is not of that shape or
 * holds another count.
 */
export function payloadDocumentTexts(payload: string | null, count: number): string[] | undefined {
  if (!payload?.startsWith(DOCUMENTS_OPEN)) return undefined;
  const texts = arrayElementTexts(payload, DOCUMENTS_OPEN.length - 1);
  return texts?.length === count ? texts : undefined;
}
