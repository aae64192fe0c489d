// The product search indexing job as a product or category write enqueues it (in the write's
// transaction): its kind and payload. Products own the enqueue; product-search/search.indexing.ts
// runs the kind, so product search reads products and categories, and neither imports it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueJob } from '../../../lib/jobs/index.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';

export const INDEX_JOB = 'catalog.products.index';

export interface IndexJobPayload {
  appId: string;
  environment: string;
  productIds: string[];
}

/** Jobs of one partition share a key, so they apply in commit order. */
export async function enqueueProductIndexing(em: EntityManager, part: AppPartition, productIds: string[]): Promise<void> {
  await enqueueJob<IndexJobPayload>(em, 'catalog', {
    kind: INDEX_JOB,
    key: `products-index:${part.appId}:${part.environment}`,
    payload: { appId: part.appId, environment: part.environment, productIds },
  });
}
