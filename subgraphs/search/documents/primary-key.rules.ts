// Document identifiers, as Meilisearch rules them:
//  - an index without a primary key infers it from the FIRST document of the first batch: the one
//    attribute whose name ends with "id" (case-insensitive); none or several → the task fails;
//  - a document id is an integer, or a string of A–Z a–z 0–9 "-" "_" of at most 511 bytes.
import { DomainError } from '../../../lib/errors.js';
import type { Document } from '../../../lib/search-engine/types.js';

const ID_STRING = /^[A-Za-z0-9_-]{1,511}$/;

export function inferPrimaryKey(first: Document | undefined): string {
  const candidates = first ? Object.keys(first).filter((k) => k.toLowerCase().endsWith('id')) : [];
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) {
    throw new DomainError(
      'index_primary_key_no_candidate_found',
      'The primary key could not be inferred: the first document has no attribute ending with "id". Give primary_key with the documents or when creating the index.',
      { parameter: 'primaryKey' },
    );
  }
  throw new DomainError(
    'index_primary_key_multiple_candidates_found',
    `The primary key could not be inferred: the first document has several candidates (${candidates.join(', ')}). Give primary_key with the documents or when creating the index.`,
    { parameter: 'primaryKey' },
  );
}

/** The id of a document as a string; `position` (0-based in the batch) makes the message findable. */
export function documentId(doc: Document, primaryKey: string, position: number): string {
  const v = doc[primaryKey];
  if (v === undefined || v === null) {
    throw new DomainError('missing_document_id', `Document at position ${position} has no value for the primary key \`${primaryKey}\`.`, {
      parameter: `documents[${position}].${primaryKey}`,
    });
  }
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && ID_STRING.test(v)) return v;
  throw new DomainError(
    'invalid_document_id',
    `Document at position ${position} has an invalid id ${JSON.stringify(v).slice(0, 100)}: a document id is an integer or a string of alphanumeric characters, hyphens (-) and underscores (_), at most 511 bytes.`,
    { parameter: `documents[${position}].${primaryKey}` },
  );
}

/** A document id given in a path or a deletion list (always a string there). */
export function isValidDocumentId(id: string): boolean {
  return ID_STRING.test(id);
}

/**
 * Where each id's document sits in the batch: the LAST occurrence of an id wins (Meilisearch), ids
 * in the order they first appeared.
 */
export function documentSlots(docs: Document[], primaryKey: string): Map<string, number> {
  const out = new Map<string, number>();
  docs.forEach((d, i) => {
    if (typeof d !== 'object' || d === null || Array.isArray(d)) {
      throw new DomainError('VALIDATION_FAILED', `Document at position ${i} is not a JSON object.`, { parameter: `documents[${i}]` });
    }
    out.set(documentId(d, primaryKey, i), i);
  });
  return out;
}

/** An update batch by id (checked as documentSlots checks it): a later document of an id merges into the earlier one. */
export function mergedById(docs: Document[], primaryKey: string): Map<string, Document> {
  documentSlots(docs, primaryKey);
  const out = new Map<string, Document>();
  docs.forEach((d, i) => {
    const id = documentId(d, primaryKey, i);
    out.set(id, { ...out.get(id), ...d });
  });
  return out;
}
