// Two task types: index_swap (indexes/index-swap.service.ts) and index_update (PATCH /indexes/{uid}:
// the primary key, task-kinds/task.handlers.ts).
import { Migration } from '@mikro-orm/migrations';

const TYPES = ['index_creation', 'index_deletion', 'settings_update', 'document_addition_or_update', 'document_deletion', 'document_deletion_by_filter'];
const ADDED = ['index_swap', 'index_update'];
const check = (types: string[]) => `alter table "search"."tasks" add constraint "tasks_type_check" check ("type" in (${types.map((t) => `'${t}'`).join(', ')}))`;

export class Migration20261201040000_index_swap_and_update_tasks extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "search"."tasks" drop constraint if exists "tasks_type_check"');
    this.addSql(check([...TYPES, ...ADDED]));
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "search"."tasks" where "type" in (${ADDED.map((t) => `'${t}'`).join(', ')})`);
    this.addSql('alter table "search"."tasks" drop constraint if exists "tasks_type_check"');
    this.addSql(check(TYPES));
  }
}
