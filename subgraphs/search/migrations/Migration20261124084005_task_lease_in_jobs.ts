import { Migration } from '@mikro-orm/migrations';

/** Tasks run as jobs of lib/jobs, which hold their leases: unfinished tasks get their job, in task order. */
export class Migration20261124084005_task_lease_in_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `insert into "search"."jobs" (kind, key, payload, status, attempts, run_at, created_at)
       select 'search.task', 'index:' || index_id, jsonb_build_object('taskId', id::text), 'queued', 0, now(), now()
         from "search"."tasks" where status in ('enqueued', 'processing') and index_id is not null order by id`,
    );
    this.addSql("alter table \"search\".\"tasks\" drop column \"lease_until\"");
  }
}
