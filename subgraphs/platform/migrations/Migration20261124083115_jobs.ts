import { Migration } from '@mikro-orm/migrations';
import { jobsTableDdl } from '../../../lib/jobs/ddl.js';

/** The platform schema's jobs table (lib/jobs). */
export class Migration20261124083115_jobs extends Migration {
  override async up(): Promise<void> {
    for (const sql of jobsTableDdl('platform')) this.addSql(sql);
  }
}
