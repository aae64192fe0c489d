// The statements of product search: the products an indexing job reads, the search documents it
// writes, and the documents an engine catches up on. Each names the app partition explicitly (a job
// and a process-wide engine have no request tenant; the ORM's filter does not apply to raw SQL).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import type { IndexedProductRow } from './search.rules.js';

/** a partition as a job's payload carries it (its environment as written) */
type Partition = { appId: string; environment: string };

/** The products `ids` of a partition as a search document is built from them (deleted ones included: their documents go). */
export async function productsToIndex(em: EntityManager, part: Partition, ids: readonly string[]): Promise<IndexedProductRow[]> {
  return (await em.execute(
    `select p.id, p.name, p.sku, p.description, p.short_description, p.status, p.type, p.price_amount, p.price_currency,
            p.attributes, p.inventory_quantity, p.inventory_reserved, p.track_stock, p.allow_backorder, p.created_at, p.deleted_at,
            coalesce((select json_agg(c.name order by c.name) from "catalog"."product_categories" pc
                        join "catalog"."categories" c on c.id = pc.category_id where pc.product_id = p.id), '[]') as categories
       from "catalog"."products" p
      where p.app_id = ? and p.environment = ? and p.id in (select jsonb_array_elements_text(?::jsonb))`,
    [part.appId, part.environment, JSON.stringify(ids)],
  )) as IndexedProductRow[];
}

/** Each product's new document (null: it left the index), stamped with the next sequence number. */
export async function writeSearchDocuments(em: EntityManager, part: Partition, docs: readonly { id: string; doc: Record<string, unknown> | null }[]): Promise<void> {
  await em.execute(
    `insert into "catalog"."product_search_documents" (product_id, app_id, environment, seq, doc, updated_at)
     select d.id, ?, ?, nextval('"catalog"."product_search_seq"'), d.doc, now()
       from jsonb_to_recordset(?::jsonb) as d(id text, doc jsonb)
     on conflict (product_id) do update set seq = excluded.seq, doc = excluded.doc, updated_at = now()`,
    [part.appId, part.environment, JSON.stringify(docs)],
  );
}

export interface SearchDocumentRow {
  product_id: string;
  /** the bigint sequence number, as text */
  seq_text: string;
  doc: Record<string, unknown> | null;
}

/** The partition's documents written after `afterSeq`, in sequence order, `limit` at most. */
export async function documentsAfter(em: EntityManager, part: AppPartition, afterSeq: bigint, limit: number): Promise<SearchDocumentRow[]> {
  return (await em.execute(
    // seq travels as text (a bigint); ordered by the column, not by the text alias
    `select d.product_id, d.seq::text as seq_text, d.doc from "catalog"."product_search_documents" d
      where d.app_id = ? and d.environment = ? and d.seq > ?::bigint order by d.seq limit ?`,
    [part.appId, part.environment, afterSeq.toString(), limit],
    'all',
  )) as SearchDocumentRow[];
}
