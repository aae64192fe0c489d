// Background work of the catalog process: the job worker that indexes products for search, and the
// sender of catalog webhook deliveries (lib/webhooks).
import { startJobWorker } from '../../lib/jobs/index.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import { toSql, WebhookRuntime } from '../../lib/webhooks/index.js';
import { CATALOG_SCHEMA } from './events/catalog.events.js';
import { catalogWebhookSettings } from './events/catalog.settings.js';
import { productIndexJob } from './product-search/search.indexing.js';

export async function startCatalogWorkers(deps: WorkerDeps): Promise<Worker[]> {
  const s = catalogWebhookSettings();
  const webhooks = new WebhookRuntime({
    schema: CATALOG_SCHEMA,
    service: 'catalog',
    secrets: s.secrets,
    allowPrivate: s.allowPrivate,
    log: deps.log.child({ component: 'catalog-webhooks' }),
    sql: toSql(deps.orm.em.fork()),
    maxAttempts: s.maxAttempts,
    retryBaseMs: s.retryBaseMs,
    pollMs: s.pollMs,
  });
  webhooks.start();
  const jobs = await startJobWorker(deps, { schema: CATALOG_SCHEMA, kinds: [productIndexJob(() => deps.orm.em.fork())], pollMs: 500 });
  return [jobs, { stop: () => webhooks.stop() }];
}
