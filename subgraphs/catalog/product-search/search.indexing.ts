// Product search indexing through the kernel job queue: every product write enqueues one
// `catalog.products.index` job in its own transaction (so a committed change always has its job,
// even if the process dies right after), and the job rebuilds those products' search documents.
// Jobs of one partition share a key, so they apply in commit order.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueJob, type JobKind } from '../../../lib/jobs/index.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { toSearchDocument, type IndexedProductRow } from './search.rules.js';

export const INDEX_JOB = 'catalog.products.index';

export interface IndexJobPayload {
  appId: string;
  environment: string;
  productIds: string[];
}

export async function enqueueProductIndexing(em: EntityManager, part: AppPartition, productIds: string[]): Promise<void> {
  await enqueueJob<IndexJobPayload>(em, 'catalog', {
    kind: INDEX_JOB,
    key: `products-index:${part.appId}:${part.environment}`,
    payload: { appId: part.appId, environment: part.environment, productIds },
  });
}

/** Rebuild the documents of `productIds` of one partition (raw SQL: a job has no request tenant, so it names the partition). */
export async function indexProducts(em: EntityManager, p: IndexJobPayload): Promise<number> {
  const rows = (await em.execute(
    `select p.id, p.name, p.sku, p.description, p.short_description, p.status, p.type, p.price_amount, p.price_currency,
            p.attributes, p.inventory_quantity, p.inventory_reserved, p.track_stock, p.allow_backorder, p.created_at, p.deleted_at,
            coalesce((select json_agg(c.name order by c.name) from "catalog"."product_categories" pc
                        join "catalog"."categories" c on c.id = pc.category_id where pc.product_id = p.id), '[]') as categories
       from "catalog"."products" p
      where p.app_id = ? and p.environment = ? and p.id in (select jsonb_array_elements_text(?::jsonb))`,
    [p.appId, p.environment, JSON.stringify(p.productIds)],
  )) as IndexedProductRow[];
  const docs = p.productIds.map((id) => {
    const row = rows.find((r) => r.id === id);
    return { id, doc: row && !row.deleted_at ? toSearchDocument(row) : null };
  });
  await em.execute(
    `insert into "catalog"."product_search_documents" (product_id, app_id, environment, seq, doc, updated_at)
     select d.id, ?, ?, nextval('"catalog"."product_search_seq"'), d.doc, now()
       from jsonb_to_recordset(?::jsonb) as d(id text, doc jsonb)
     on conflict (product_id) do update set seq = excluded.seq, doc = excluded.doc, updated_at = now()`,
    [p.appId, p.environment, JSON.stringify(docs)],
  );
  return docs.length;
}

export function productIndexJob(em: () => EntityManager): JobKind<IndexJobPayload> {
  return {
    kind: INDEX_JOB,
    maxAttempts: 10,
    backoff: { baseMs: 200, maxMs: 30_000 },
    async handle({ job, complete }) {
      await em().transactional(async (tx) => {
        await indexProducts(tx, job.payload);
        await complete(tx);
      });
    },
  };
}
