// Background work of the catalog process: one job worker for the product search indexing jobs and
// the catalog's webhook deliveries (lib/webhooks' delivery kind).
import { startJobWorker } from '../../lib/jobs/index.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import { productIndexJob } from './product-search/search.indexing.js';
import { imageThumbnailJob } from './images/index.js';
import { CATALOG_SCHEMA, type CatalogRuntime } from './runtime.js';
// inventory: the recurring reservation expiry run (a pending run is made sure of at start)
import { reservationExpiryKind, scheduleExpiry } from './inventory/reservation.expiry.js';

export async function startCatalogWorkers(deps: WorkerDeps & { runtime: CatalogRuntime }): Promise<Worker[]> {
  const kinds = [productIndexJob(() => deps.orm.em.fork()), deps.runtime.webhooks.kind, imageThumbnailJob(() => deps.orm.em.fork(), deps.runtime.images.objects)];
  kinds.push(reservationExpiryKind(deps));
  await scheduleExpiry(deps.orm.em.fork(), 1000);
  return [await startJobWorker(deps, { schema: CATALOG_SCHEMA, kinds, pollMs: 500 })];
}
