// The one data step the move of webhook delivery onto the job queue needs in every subgraph that
// had lib/webhooks before: a job for each delivery still to be sent. Called from each subgraph's
// migration (held once here, like lib/jobs' DDL); describes the tables as they were then.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueJob } from '../jobs/index.js';
import { DELIVERY_JOB } from './outbox.js';
import { qualified } from './sql.js';

type Execute = (sql: string, params?: unknown[]) => Promise<unknown[]>;

export async function enqueueWebhookJobsOfPendingDeliveries(execute: Execute, em: EntityManager, schema: string): Promise<void> {
  const t = qualified(schema, 'webhook_deliveries');
  await execute(`alter table ${t} add column "job_id" bigint null`);
  const open = (await execute(`select "id", "attempts", "max_attempts", "next_attempt_at" from ${t} where "status" in ('pending', 'delivering')`)) as {
    id: string;
    attempts: number;
    max_attempts: number;
    next_attempt_at: Date | string;
  }[];
  for (const d of open) {
    const job = await enqueueJob(em, schema, {
      kind: DELIVERY_JOB,
      payload: { deliveryId: d.id },
      maxAttempts: Math.max(1, d.max_attempts - d.attempts),
      runAt: new Date(d.next_attempt_at),
    });
    await execute(`update ${t} set "job_id" = ?, "status" = 'pending' where "id" = ?`, [job!.id, d.id]);
  }
  await execute(`drop index ${qualified(schema, 'webhook_deliveries_status_next_attempt_at_index')}`);
  await execute(`alter table ${t} drop column "next_attempt_at", drop column "lease_until"`);
}
