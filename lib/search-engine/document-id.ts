// Document ids, as Meilisearch: an integer, or a string of 1-511 characters from a-z, A-Z, 0-9, - and _.
import { EngineError, type Document } from './types.js';

const DOC_ID = /^[A-Za-z0-9_-]{1,511}$/;

export function documentId(doc: Document, pk: string, i: number): string {
  const v = doc[pk];
  if (v === undefined || v === null) throw new EngineError('missing_document_id', `Document ${i} has no primary key \`${pk}\``, 'documents');
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && DOC_ID.test(v)) return v;
  throw new EngineError(
    'invalid_document_id',
    `Document ${i} has an invalid \`${pk}\` ${JSON.stringify(v)}: an id is an integer or a string of 1-511 characters from a-z, A-Z, 0-9, - and _`,
    'documents',
  );
}
