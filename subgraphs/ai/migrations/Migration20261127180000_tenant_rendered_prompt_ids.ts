// Rendered-prompt ids counted per app partition (lib/tenant-sequence.ts): the API's integer id is
// now `number`, 1, 2, 3… within the partition (existing rows numbered in their id order); the
// global serial stays the table's internal key.
import { Migration } from '@mikro-orm/migrations';
import { tenantSequencesDdl } from '../../../lib/tenant-sequence.js';

export class Migration20261127180000_tenant_rendered_prompt_ids extends Migration {
  override async up(): Promise<void> {
    for (const sql of tenantSequencesDdl('ai')) this.addSql(sql);
    this.addSql('alter table "ai"."rendered_prompts" add column "number" int null');
    this.addSql(
      `update "ai"."rendered_prompts" r set number = n.number
         from (select id, row_number() over (partition by app_id, environment order by id) as number from "ai"."rendered_prompts") n
        where r.id = n.id`,
    );
    this.addSql('alter table "ai"."rendered_prompts" alter column "number" set not null');
    this.addSql('alter table "ai"."rendered_prompts" add constraint "rendered_prompts_app_id_environment_number_unique" unique ("app_id", "environment", "number")');
    this.addSql(
      `insert into "ai"."tenant_sequences" (id, name, app_id, environment, last_value)
       select 'rendered_prompt:' || app_id || ':' || environment, 'rendered_prompt', app_id, environment, max(number) from "ai"."rendered_prompts" group by app_id, environment`,
    );
  }
}
