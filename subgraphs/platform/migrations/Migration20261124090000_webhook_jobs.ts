// Webhook deliveries are sent by kernel jobs (lib/jobs, kind webhooks.deliver): each delivery
// names its job; those still to be sent get one now (with the attempts they have left, due when
// they were due), and the delivery's own schedule and lease columns go (the job holds them).
import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueWebhookJobsOfPendingDeliveries } from '../../../lib/webhooks/migrate.js';

export class Migration20261124090000_webhook_jobs extends Migration {
  override async up(): Promise<void> {
    await enqueueWebhookJobsOfPendingDeliveries((sql, params) => this.execute(sql, params), this.getEntityManager() as unknown as EntityManager, 'platform');
  }
}
