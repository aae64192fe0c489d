// Product search indexing through the kernel job queue: every product write enqueues one
// `catalog.products.index` job in its own transaction (products/product.indexing-queue.ts: so a
// committed change always has its job, even if the process dies right after), and the job rebuilds
// those products' search documents. Jobs of one partition share a key, so they apply in commit order.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobKind } from '../../../lib/jobs/index.js';
import { INDEX_JOB, type IndexJobPayload } from '../products/product.indexing-queue.js';
import { productsToIndex, writeSearchDocuments } from './search.repository.js';
import { toSearchDocument } from './search.rules.js';

/** Rebuild the documents of `productIds` of one partition (a job has no request tenant: the statements name the partition). */
export async function indexProducts(em: EntityManager, p: IndexJobPayload): Promise<number> {
  const rows = await productsToIndex(em, p, p.productIds);
  const docs = p.productIds.map((id) => {
    const row = rows.find((r) => r.id === id);
    return { id, doc: row && !row.deleted_at ? toSearchDocument(row) : null };
  });
  await writeSearchDocuments(em, p, docs);
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
