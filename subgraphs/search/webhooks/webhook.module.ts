// Search webhooks: the outbox and delivery tables (lib/webhooks) and the endpoints' API (the sender
// runs with the task worker: ../workers.ts).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { webhookEntities } from '../../../lib/webhooks/index.js';
import { WebhookResolver } from './webhook.resolver.js';

export const webhookModule: SubgraphModule<SearchContext> = {
  name: 'webhooks',
  entities: [...webhookEntities],
  resolvers: [WebhookResolver],
};
