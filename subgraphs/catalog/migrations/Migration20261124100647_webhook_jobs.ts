// Webhook deliveries are sent by kernel jobs (lib/jobs, kind webhooks.deliver), as in the other
// subgraphs: each delivery names its job; those still to be sent get one now, and the delivery's own
// schedule and lease columns go (the job holds them).
import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueWebhookJobsOfPendingDeliveries } from '../../../lib/webhooks/migrate.js';

export class Migration20261124100647_webhook_jobs extends Migration {
  override async up(): Promise<void> {
    await enqueueWebhookJobsOfPendingDeliveries((sql, params) => this.execute(sql, params), this.getEntityManager() as unknown as EntityManager, 'catalog');
  }
}
