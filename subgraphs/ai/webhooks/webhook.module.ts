// The AI service's webhooks: the outbox and delivery tables (lib/webhooks), the job table deliveries,
// batches, classifier training and recommendation refreshes run on (lib/jobs), the endpoints' API and
// the webhook sender of this process (the runtime's).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { JobEntity } from '../../../lib/jobs/index.js';
import { webhookEntities } from '../../../lib/webhooks/index.js';
import { AiWebhookResolver } from './ai-webhook.js';
import { AiWebhookAdminResolver } from './ai-webhook.admin.js';

export const webhookModule: SubgraphModule<AiContext> = {
  name: 'webhooks',
  entities: [JobEntity, ...webhookEntities],
  resolvers: [AiWebhookResolver, AiWebhookAdminResolver],
  workers: async (deps) => {
    await deps.runtime.webhooks.start();
    return [{ stop: () => deps.runtime.webhooks.stop() }];
  },
};
