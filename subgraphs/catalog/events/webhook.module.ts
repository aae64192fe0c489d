// The catalog's webhooks: the outbox and delivery tables (lib/webhooks), the job table their
// deliveries and every other catalog job run on (lib/jobs), and the webhook endpoints' API.
import { JobEntity } from '../../../lib/jobs/index.js';
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import { webhookEntities } from '../../../lib/webhooks/index.js';
import type { CatalogContext } from '../context.js';
import { CatalogWebhookResolver } from './webhook.resolver.js';

export const webhookModule: SubgraphModule<CatalogContext> = {
  name: 'webhooks',
  entities: [JobEntity, ...webhookEntities],
  resolvers: [CatalogWebhookResolver],
};
