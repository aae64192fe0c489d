// The catalog's webhooks: the outbox and delivery tables (lib/webhooks), the job table their
// deliveries and every other catalog job run on (lib/jobs), the webhook endpoints' API, and the
// delivery job kind (run on the catalog's default job worker, not a sender of its own).
import { JobEntity } from '../../../lib/jobs/index.js';
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import { webhookEntities } from '../../../lib/webhooks/index.js';
import type { CatalogContext } from '../context.js';
import { CatalogWebhookResolver } from './webhook.resolver.js';

export const webhookModule: SubgraphModule<CatalogContext> = {
  name: 'webhooks',
  entities: [JobEntity, ...webhookEntities],
  resolvers: [CatalogWebhookResolver],
  jobs: (deps) => [deps.runtime.webhooks.kind],
};
