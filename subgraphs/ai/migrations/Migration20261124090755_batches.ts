import { Migration } from '@mikro-orm/migrations';
import { jobsTableDdl } from '../../../lib/jobs/ddl.js';

/** AI batches and the ai schema's jobs table (lib/jobs). */
export class Migration20261124090755_batches extends Migration {
  override async up(): Promise<void> {
    for (const sql of jobsTableDdl('ai')) this.addSql(sql);
    this.addSql("create table \"ai\".\"batches\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"operation\" text not null, \"status\" text not null default 'queued', \"user_unique_id\" varchar(255) not null, \"inputs\" jsonb not null, \"options\" jsonb not null, \"results\" jsonb null, \"processed\" int not null default 0, \"error\" text null, \"created_at\" timestamptz not null, \"completed_at\" timestamptz null, primary key (\"id\"))");
    this.addSql("create index \"batches_app_id_index\" on \"ai\".\"batches\" (\"app_id\")");
    this.addSql("alter table \"ai\".\"batches\" add constraint \"batches_operation_check\" check (\"operation\" in ('sentiment', 'entities', 'key_phrases', 'language', 'summarize', 'moderation'))");
    this.addSql("alter table \"ai\".\"batches\" add constraint \"batches_status_check\" check (\"status\" in ('queued', 'processing', 'completed', 'failed'))");
  }
}
