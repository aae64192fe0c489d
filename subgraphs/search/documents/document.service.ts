// Documents: writes are tasks (validated here, applied by the worker), reads come from PostgreSQL
// (the source of truth) with filters answered by the engine.
import { DomainError } from '../../../lib/errors.js';
import type { SearchContext } from '../context.js';
import type { Document } from '../../../lib/search-engine/types.js';
import { placedFilterIds } from '../placement/placed-search.js';
import { getIndex, getSearchableIndex, listIndexes, validatePrimaryKey, type SearchableIndex } from '../indexes/index.service.js';
import { MAX_DOCUMENTS_PER_BATCH } from '../plans.js';
import type { TaskRow } from '../tasks/task.queue.js';
import { enqueue, lastTaskFinished } from '../tasks/task.service.js';
import type { IndexEntity } from '../indexes/index.entity.js';
import { planLimits } from '../tenancy.js';
import { documentsPayload, type WriteMode } from './document.payload.js';
import { countLive, fieldDistributions, getDocument as readDocument, listDocuments as readDocuments } from './document.store.js';
import { documentId, inferPrimaryKey, isValidDocumentId } from './primary-key.rules.js';

export const MAX_LIST_LIMIT = 1000;

function isPlainObject(v: unknown): v is Document {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function batchSize(n: number, parameter: string): void {
  if (n > MAX_DOCUMENTS_PER_BATCH) {
    throw new DomainError('max_documents_exceeded', `A request may carry at most ${MAX_DOCUMENTS_PER_BATCH} documents (got ${n}); send batches of 100 to 1,000.`, { parameter });
  }
  if (n === 0) throw new DomainError('VALIDATION_FAILED', `${parameter} must not be empty`, { parameter });
}

/**
 * Enqueue an add-or-replace batch, or (mode `update`) an add-or-update one whose fields merge into
 * the stored documents. Shape, size and the plan's document limit are checked now; ids and
 * primary-key inference are the task's (as in Meilisearch: a bad id fails the task).
 */
export async function addDocuments(
  ctx: SearchContext,
  uid: string,
  documents: unknown[] | null | undefined,
  primaryKey?: string | null,
  mode: WriteMode = 'replace',
): Promise<TaskRow> {
  const index = await getSearchableIndex(ctx, uid);
  if (documents == null) throw new DomainError('VALIDATION_FAILED', 'documents is required (an array of objects)', { parameter: 'documents' });
  if (!Array.isArray(documents)) throw new DomainError('VALIDATION_FAILED', 'documents must be an array of objects', { parameter: 'documents' });
  batchSize(documents.length, 'documents');
  documents.forEach((d, i) => {
    if (!isPlainObject(d)) throw new DomainError('VALIDATION_FAILED', `documents[${i}] must be a JSON object`, { parameter: `documents[${i}]` });
  });
  const pk = validatePrimaryKey(primaryKey);
  const limits = planLimits(ctx);
  if (limits.documentsPerIndex !== null && index.numberOfDocuments + documents.length > limits.documentsPerIndex) {
    await checkDocumentLimit(ctx, index, documents as Document[], pk, limits.documentsPerIndex, limits.plan);
  }
  return enqueue(ctx, {
    indexId: index.id,
    indexUid: index.uid,
    type: 'document_addition_or_update',
    details: { documents_received: documents.length, documents_indexed: null, primary_key: index.primaryKey ?? pk ?? null },
    payload: documentsPayload(documents, pk ?? null, limits.plan, mode),
  });
}

/** Would the batch take the index over its plan limit? Replacements do not count; new ids do. */
async function checkDocumentLimit(ctx: SearchContext, index: SearchableIndex, docs: Document[], given: string | undefined, limit: number, plan: string): Promise<void> {
  let pk = index.primaryKey ?? given;
  if (!pk) {
    try {
      pk = inferPrimaryKey(docs[0]);
    } catch {
      return; // the task will fail with the inference error
    }
  }
  const ids = new Set<string>();
  docs.forEach((d, i) => {
    try {
      ids.add(documentId(d, pk!, i));
    } catch {
      /* an invalid id fails the task; it adds no document */
    }
  });
  const existing = await countLive(ctx.runtime.pool, index.id, [...ids]);
  const total = index.numberOfDocuments + ids.size - existing;
  if (total > limit) {
    throw new DomainError('document_limit_exceeded', `Index \`${index.uid}\` would hold ${total} documents; the ${plan} plan allows ${limit} per index.`, {
      parameter: 'documents',
    });
  }
}

export async function getDocument(ctx: SearchContext, uid: string, id: string, fields?: string[] | null): Promise<Document> {
  const index = await getIndex(ctx, uid);
  const doc = isValidDocumentId(id) ? await readDocument(ctx.runtime.pool, index.id, id) : null;
  if (!doc) throw new DomainError('document_not_found', `Document \`${id}\` not found in index \`${uid}\`.`, { parameter: 'documentId' });
  return pick(doc, fields);
}

type StatsOf = Pick<IndexEntity, 'id' | 'uid' | 'numberOfDocuments' | 'isIndexing'>;

async function statsOf(ctx: SearchContext, indexes: StatsOf[]) {
  const fields = await fieldDistributions(ctx.runtime.pool, indexes.map((i) => i.id));
  return indexes.map((i) => ({ indexUid: i.uid, numberOfDocuments: i.numberOfDocuments, isIndexing: i.isIndexing, fieldDistribution: fields.get(i.id)! }));
}

/** Meilisearch's index stats: the document count, whether a task is indexing, the field distribution. */
export async function getIndexStats(ctx: SearchContext, uid: string) {
  return (await statsOf(ctx, [await getIndex(ctx, uid)]))[0];
}

/** Meilisearch's GET /stats for the caller's partition: every index's stats and when a task last finished. */
export async function getAllStats(ctx: SearchContext) {
  const indexes = await listIndexes(ctx);
  const [stats, lastUpdate] = await Promise.all([statsOf(ctx, indexes), lastTaskFinished(ctx)]);
  return { lastUpdate, indexes: stats };
}

export interface DocumentListArgs {
  offset?: number | null;
  limit?: number | null;
  fields?: string[] | null;
  filter?: unknown;
  /** only these document ids */
  ids?: string[] | null;
}

export async function listDocuments(ctx: SearchContext, uid: string, a: DocumentListArgs) {
  const index = await getIndex(ctx, uid);
  const offset = a.offset ?? 0;
  const limit = a.limit ?? 20;
  if (!Number.isInteger(offset) || offset < 0) throw new DomainError('BAD_REQUEST', 'offset must be an integer >= 0', { parameter: 'offset' });
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw new DomainError('BAD_REQUEST', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`, { parameter: 'limit' });
  let ids: string[] | undefined;
  if (a.ids) {
    if (a.ids.length > MAX_LIST_LIMIT) throw new DomainError('BAD_REQUEST', `ids may name at most ${MAX_LIST_LIMIT} documents`, { parameter: 'ids' });
    a.ids.forEach((id, i) => {
      if (!isValidDocumentId(id)) throw new DomainError('invalid_document_id', `ids[${i}] is not a document id`, { parameter: `ids[${i}]` });
    });
    ids = a.ids;
  }
  if (a.filter !== undefined && a.filter !== null && a.filter !== '') {
    const matched = await placedFilterIds(ctx, index, a.filter as string, 'filter');
    ids = ids ? intersect(ids, matched) : matched;
  }
  const page = await readDocuments(ctx.runtime.pool, index.id, { offset, limit, ids });
  return { offset, limit, total: page.total, results: page.rows.map((r) => ({ id: r.id, fields: pick(r.body, a.fields) })) };
}

function intersect(a: string[], b: string[]): string[] {
  const keep = new Set(b);
  return a.filter((x) => keep.has(x));
}

/** Deletion by ids: a task. Ids that do not exist are simply not deleted (the task says how many were). */
export async function deleteDocuments(ctx: SearchContext, uid: string, documentIds: unknown[] | null | undefined): Promise<TaskRow> {
  const index = await getIndex(ctx, uid);
  if (documentIds == null) throw new DomainError('VALIDATION_FAILED', 'document_ids is required', { parameter: 'documentIds' });
  if (!Array.isArray(documentIds)) throw new DomainError('VALIDATION_FAILED', 'document_ids must be an array', { parameter: 'documentIds' });
  batchSize(documentIds.length, 'documentIds');
  const ids = documentIds.map((v, i) => {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
    if (typeof v === 'string' && v.length > 0 && v.length <= 511) return v;
    throw new DomainError('invalid_document_id', `document_ids[${i}] must be a string or an integer id`, { parameter: `documentIds[${i}]` });
  });
  const unique = [...new Set(ids)];
  return enqueue(ctx, {
    indexId: index.id,
    indexUid: index.uid,
    type: 'document_deletion',
    details: { provided_ids: unique.length, deleted_documents: null },
    payload: JSON.stringify({ document_ids: unique }),
  });
}

/**
 * Deletion of one document by id (Meilisearch's DELETE /documents/{id}): the same task as by ids, for
 * a document the index holds now (as of its last committed task); another id answers
 * document_not_found, as reading it does.
 */
export async function deleteDocument(ctx: SearchContext, uid: string, id: string): Promise<TaskRow> {
  const index = await getIndex(ctx, uid);
  if (!isValidDocumentId(id)) throw new DomainError('invalid_document_id', `\`${id.slice(0, 100)}\` is not a document id.`, { parameter: 'documentId' });
  if (!(await countLive(ctx.runtime.pool, index.id, [id]))) throw new DomainError('document_not_found', `Document \`${id}\` not found in index \`${uid}\`.`, { parameter: 'documentId' });
  return deleteDocuments(ctx, uid, [id]);
}

/** Deletion by filter: the expression is checked now (syntax, filterable attributes) and run by the task. */
export async function deleteByFilter(ctx: SearchContext, uid: string, filter: unknown): Promise<TaskRow> {
  const index = await getIndex(ctx, uid);
  const empty = filter === undefined || filter === null || (typeof filter === 'string' && !filter.trim()) || (Array.isArray(filter) && !filter.length);
  if (empty) throw new DomainError('VALIDATION_FAILED', 'filter is required', { parameter: 'filter', reason: 'missing' });
  if (typeof filter !== 'string' && !Array.isArray(filter)) throw new DomainError('invalid_filter_syntax', 'filter must be a string or an array', { parameter: 'filter' });
  await placedFilterIds(ctx, index, filter as string, 'filter');
  return enqueue(ctx, {
    indexId: index.id,
    indexUid: index.uid,
    type: 'document_deletion_by_filter',
    details: { original_filter: filter, deleted_documents: null },
    payload: JSON.stringify({ filter }),
  });
}

/** Keep only `fields` (top-level names, or dotted paths into objects); all fields when none given. */
export function pick(doc: Document, fields?: string[] | null): Document {
  if (!fields?.length || fields.includes('*')) return doc;
  const out: Document = {};
  for (const f of fields) {
    if (f in doc) {
      out[f] = doc[f];
      continue;
    }
    const path = f.split('.');
    let v: unknown = doc;
    for (const p of path) v = isPlainObject(v) ? v[p] : undefined;
    if (v !== undefined) out[f] = v;
  }
  return out;
}
