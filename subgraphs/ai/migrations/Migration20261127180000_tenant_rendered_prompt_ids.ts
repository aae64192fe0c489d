// Rendered-prompt ids counted per app partition (lib/tenant-sequence.ts): the API's integer id is
// now `number`, 1, 2, 3… within the partition (existing rows numbered in their id order); the
// global serial stays the table's internal key.
import { Migration } from '@mikro-orm/migrations';
import { tenantNumberColumnDdl } from '../../../lib/tenant-sequence.js';

export class Migration20261127180000_tenant_rendered_prompt_ids extends Migration {
  override async up(): Promise<void> {
    for (const sql of tenantNumberColumnDdl('ai', { table: 'rendered_prompts', column: 'number', type: 'int', name: 'rendered_prompt' })) this.addSql(sql);
  }
}
