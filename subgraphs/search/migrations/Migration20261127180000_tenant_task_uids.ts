// Task uids counted per app partition (lib/tenant-sequence.ts): existing tasks are numbered 1, 2, 3…
// within their partition in their id order, and each partition's counter starts after its last.
import { Migration } from '@mikro-orm/migrations';
import { tenantNumberColumnDdl } from '../../../lib/tenant-sequence.js';

export class Migration20261127180000_tenant_task_uids extends Migration {
  override async up(): Promise<void> {
    for (const sql of tenantNumberColumnDdl('search', { table: 'tasks', column: 'uid', type: 'bigint', name: 'task' })) this.addSql(sql);
  }
}
