// Task uids counted per app partition (lib/tenant-sequence.ts): existing tasks are numbered 1, 2, 3…
// within their partition in their id order, and each partition's counter starts after its last.
import { Migration } from '@mikro-orm/migrations';
import { tenantSequencesDdl } from '../../../lib/tenant-sequence.js';

export class Migration20261127180000_tenant_task_uids extends Migration {
  override async up(): Promise<void> {
    for (const sql of tenantSequencesDdl('search')) this.addSql(sql);
    this.addSql('alter table "search"."tasks" add column "uid" bigint null');
    this.addSql(
      `update "search"."tasks" t set uid = n.uid
         from (select id, row_number() over (partition by app_id, environment order by id) as uid from "search"."tasks") n
        where t.id = n.id`,
    );
    this.addSql('alter table "search"."tasks" alter column "uid" set not null');
    this.addSql('alter table "search"."tasks" add constraint "tasks_app_id_environment_uid_unique" unique ("app_id", "environment", "uid")');
    this.addSql(
      `insert into "search"."tenant_sequences" (id, name, app_id, environment, last_value)
       select 'task:' || app_id || ':' || environment, 'task', app_id, environment, max(uid) from "search"."tasks" group by app_id, environment`,
    );
  }
}
