// Notifications: account events, notification settings and the apps' webhook secrets, with their API;
// the outbox and delivery tables (lib/webhooks) and the job table deliveries and the billing renewal
// run on (lib/jobs); and the webhook sender of this process (the runtime's, started as a worker).
import { JobEntity } from '../../../lib/jobs/index.js';
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import { webhookEntities } from '../../../lib/webhooks/index.js';
import type { PlatformContext } from '../context.js';
import { startWebhookSender } from '../runtime.js';
import { AccountEventEntity } from './account-event.entity.js';
import { AppWebhookSecretEntity } from './app-webhook-secret.entity.js';
import { NotificationSettingsEntity } from './notification-settings.entity.js';
import { NotificationsResolver } from './notifications.resolver.js';

export const notificationsModule: SubgraphModule<PlatformContext> = {
  name: 'notifications',
  entities: [NotificationSettingsEntity, AccountEventEntity, ...webhookEntities, AppWebhookSecretEntity, JobEntity],
  resolvers: [NotificationsResolver],
  // first among the workers: the renewal job records account events that wake it
  workers: async (deps) => [await startWebhookSender(deps.runtime)],
};
