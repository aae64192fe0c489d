import { Migration } from '@mikro-orm/migrations';
import { jobsTableDdl } from '../../../lib/jobs/ddl.js';

/** The search schema's jobs table (lib/jobs). */
export class Migration20261124083110_jobs extends Migration {
  override async up(): Promise<void> {
    for (const sql of jobsTableDdl('search')) this.addSql(sql);
  }
}
