// Document rows in bulk: one statement per batch, inside the task's transaction. The worker
// serialises tasks per index, so no other writer touches these rows while a batch runs.
import type { Db } from '../db.js';
import { one, rows, run } from '../db.js';
import type { Document } from '../../../lib/search-engine/types.js';
import { T } from '../sql.js';

/** How many of `ids` are live documents of the index now. */
export async function countLive(db: Db, indexId: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await one<{ n: string }>(db, `select count(*) as n from ${T.documents} where index_id = $1 and doc_id = any($2::text[]) and not deleted`, [indexId, ids]);
  return Number(r!.n);
}

/**
 * Add or replace documents, reading their bodies from the task's payload row (`slots`: id → its
 * document's position in the payload's `documents`), so the batch is not serialised and sent back
 * to PostgreSQL. New ids (and revived tombstones) take their listing position from the task
 * (task id × 100,000 + position among the ids); replaced documents keep theirs. Returns how many
 * documents the index gained: the rows whose position is this task's (a replaced live row keeps an
 * earlier task's), so no separate count of the ids that were live is needed (that count, planned on
 * stale statistics, scanned every row of a growing index per batch: see refreshDocumentStats).
 */
export async function upsertDocumentsFromPayload(db: Db, indexId: string, taskId: number, slots: Map<string, number>): Promise<number> {
  const r = await one<{ added: string }>(
    db,
    `with p as materialized (select (body::jsonb) -> 'documents' as docs from ${T.payloads} where task_id = $2),
     up as (
       insert into ${T.documents} (index_id, doc_id, body, task_id, pos, deleted)
       select $1, u.i, p.docs -> u.k, $2, $2::bigint * 100000 + u.n - 1, false
         from p, unnest($3::text[], $4::int[]) with ordinality as u(i, k, n)
       on conflict (index_id, doc_id) do update
          set body = excluded.body, task_id = excluded.task_id, deleted = false,
              pos = case when documents.deleted then excluded.pos else documents.pos end
       returning pos)
     select count(*) filter (where pos >= $2::bigint * 100000) as added from up`,
    [indexId, taskId, [...slots.keys()], [...slots.values()]],
  );
  return Number(r!.added);
}

/** Below this many documents an index's rows are few enough for any plan. */
const STATS_FLOOR = 8192;

/**
 * Should the documents table's statistics be refreshed after an index went from `before` to
 * `after` documents? Yes each time it crosses a power of two from STATS_FLOOR up (8,192, 16,384, …:
 * ~7 times on the way to 1,000,000). PostgreSQL plans `index_id = $1 and doc_id = any($2)` from its
 * statistics; for an index that grew since the last ANALYZE (a new one always has), it expects a
 * few hundred rows and scans all of them instead of probing the primary key: 0.6 s per batch at
 * 250,000 documents, and growing (measured; 20 ms after ANALYZE). Autovacuum may be off, or lag a
 * bulk import by minutes; refreshing at each doubling keeps the estimate within 2× of the truth.
 */
export function statsStale(before: number, after: number): boolean {
  if (after < STATS_FLOOR || after <= before) return false;
  return Math.floor(Math.log2(Math.max(before, STATS_FLOOR / 2))) !== Math.floor(Math.log2(after));
}

/** ANALYZE the documents table (a sample of ~30,000 rows; takes no lock that blocks writes). */
/**
 * Add or update documents (`docs`: id → the fields to write, duplicates of a batch already merged):
 * a stored live document keeps its other top-level fields and takes these (jsonb `||`, a shallow
 * merge as Meilisearch's); a new id or a tombstone takes the document as given. Positions as in
 * upsertDocumentsFromPayload. Returns how many documents the index gained and each id's document as
 * stored now, for the engine.
 */
export async function mergeDocuments(db: Db, indexId: string, taskId: number, docs: Map<string, Document>): Promise<{ added: number; stored: Map<string, Document> }> {
  const r = await rows<{ doc_id: string; body: Document; pos: string }>(
    db,
    `insert into ${T.documents} (index_id, doc_id, body, task_id, pos, deleted)
     select $1, u.i, u.b::jsonb, $2, $2::bigint * 100000 + u.n - 1, false
       from unnest($3::text[], $4::text[]) with ordinality as u(i, b, n)
     on conflict (index_id, doc_id) do update
        set body = case when documents.deleted then excluded.body else documents.body || excluded.body end,
            task_id = excluded.task_id, deleted = false,
            pos = case when documents.deleted then excluded.pos else documents.pos end
     returning doc_id, body, pos`,
    [indexId, taskId, [...docs.keys()], [...docs.values()].map((d) => JSON.stringify(d))],
  );
  const added = r.filter((x) => Number(x.pos) >= taskId * 100000).length;
  return { added, stored: new Map(r.map((x) => [x.doc_id, x.body])) };
}

export async function refreshDocumentStats(db: Db): Promise<void> {
  await run(db, `analyze ${T.documents}`);
}

/** Mark live documents deleted (tombstones stamped with the task); returns the ids that were live. */
export async function tombstone(db: Db, indexId: string, taskId: number, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const r = await rows<{ doc_id: string }>(
    db,
    `update ${T.documents} set deleted = true, body = null, task_id = $1
      where index_id = $2 and doc_id = any($3::text[]) and not deleted
      returning doc_id`,
    [taskId, indexId, ids],
  );
  return r.map((x) => x.doc_id);
}

export async function deleteAllOfIndex(db: Db, indexId: string): Promise<number> {
  return run(db, `delete from ${T.documents} where index_id = $1`, [indexId]);
}

export async function getDocument(db: Db, indexId: string, id: string): Promise<Document | null> {
  const r = await one<{ body: Document }>(db, `select body from ${T.documents} where index_id = $1 and doc_id = $2 and not deleted`, [indexId, id]);
  return r?.body ?? null;
}

/** Per index of `indexIds`: how many live documents hold each top-level field, fields in byte order; fields at 0 left out. */
export async function fieldDistributions(db: Db, indexIds: string[]): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>(indexIds.map((id) => [id, {}]));
  const r = await rows<{ index_id: string; field: string; documents: string }>(
    db,
    `select index_id, field, documents from ${T.documentFields} where index_id = any($1::text[]) and documents > 0 order by index_id, field`,
    [indexIds],
  );
  for (const x of r) out.get(x.index_id)![x.field] = Number(x.documents);
  return out;
}

/** A page of documents in listing order; `ids` restricts it (a filter's matches). */
export async function listDocuments(
  db: Db,
  indexId: string,
  opts: { offset: number; limit: number; ids?: string[] },
): Promise<{ total: number; rows: { id: string; body: Document }[] }> {
  const restrict = opts.ids ? ' and doc_id = any($4::text[])' : '';
  const args: unknown[] = [indexId, opts.offset, opts.limit, ...(opts.ids ? [opts.ids] : [])];
  const page = await rows<{ doc_id: string; body: Document; total: string }>(
    db,
    `select doc_id, body, count(*) over () as total from ${T.documents}
      where index_id = $1 and not deleted${restrict}
      order by pos offset $2 limit $3`,
    args,
  );
  let total = page.length ? Number(page[0].total) : 0;
  if (!page.length && opts.offset > 0) {
    const c = await one<{ n: string }>(
      db,
      `select count(*) as n from ${T.documents} where index_id = $1 and not deleted${opts.ids ? ' and doc_id = any($2::text[])' : ''}`,
      opts.ids ? [indexId, opts.ids] : [indexId],
    );
    total = Number(c!.n);
  }
  return { total, rows: page.map((r) => ({ id: r.doc_id, body: r.body })) };
}
