// Document rows in bulk: one statement per batch, inside the task's transaction. The worker
// serialises tasks per index, so no other writer touches these rows while a batch runs.
import type { Db } from '../db.js';
import { one, rows, run } from '../db.js';
import type { Document } from '../engine/types.js';
import { T } from '../sql.js';

/** How many of `ids` are live documents of the index now. */
export async function countLive(db: Db, indexId: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await one<{ n: string }>(db, `select count(*) as n from ${T.documents} where index_id = $1 and doc_id = any($2::text[]) and not deleted`, [indexId, ids]);
  return Number(r!.n);
}

/**
 * Add or replace documents. New ids (and revived tombstones) take their listing position from the
 * task (task id × 100,000 + position in the batch); replaced documents keep theirs.
 */
export async function upsertDocuments(db: Db, indexId: string, taskId: number, docs: Map<string, Document>): Promise<void> {
  const out: { i: string; p: number; d: Document }[] = [];
  let n = 0;
  for (const [id, d] of docs) out.push({ i: id, p: taskId * 100_000 + n++, d });
  await run(
    db,
    `insert into ${T.documents} (index_id, doc_id, body, task_id, pos, deleted)
     select $1, u.i, u.d, $2, u.p, false from jsonb_to_recordset($3::jsonb) as u(i text, p bigint, d jsonb)
     on conflict (index_id, doc_id) do update
        set body = excluded.body, task_id = excluded.task_id, deleted = false,
            pos = case when documents.deleted then excluded.pos else documents.pos end`,
    [indexId, taskId, JSON.stringify(out)],
  );
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
