// Background work of the catalog process: one job worker for the product search indexing jobs, the
// catalog's webhook deliveries (lib/webhooks' delivery kind), thumbnails and reservation expiry; and
// one for the visual-search embeddings of product images, whose model calls take 0.3–1 s each (10 s
// for the first, which loads the models), so they never hold up the other kinds.
import { startJobWorker } from '../../lib/jobs/index.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import { productIndexJob } from './product-search/search.indexing.js';
import { imageThumbnailJob } from './images/image.thumbnails.js';
import { imageEmbeddingJob } from './vision/embedding.job.js';
import { CATALOG_SCHEMA, type CatalogRuntime } from './runtime.js';
// inventory: the recurring reservation expiry run (a pending run is made sure of at start)
import { reservationExpiryKind, scheduleExpiry } from './inventory/reservation.expiry.js';

export async function startCatalogWorkers(deps: WorkerDeps & { runtime: CatalogRuntime }): Promise<Worker[]> {
  const kinds = [productIndexJob(() => deps.orm.em.fork()), deps.runtime.webhooks.kind, imageThumbnailJob(() => deps.orm.em.fork(), deps.runtime.images.objects)];
  kinds.push(reservationExpiryKind(deps));
  await scheduleExpiry(deps.orm.em.fork(), 1000);
  const embeddings = imageEmbeddingJob(() => deps.orm.em.fork(), deps.runtime.images.objects, deps.runtime.vision);
  return [await startJobWorker(deps, { schema: CATALOG_SCHEMA, kinds, pollMs: 500 }), await startJobWorker(deps, { schema: CATALOG_SCHEMA, kinds: [embeddings], pollMs: 500 })];
}
