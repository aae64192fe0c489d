import { Migration } from '@mikro-orm/migrations';

export class Migration20261122085826_init extends Migration {
  override async up(): Promise<void> {
    this.addSql("create schema if not exists \"search\"");
    this.addSql("create table \"search\".\"indexes\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"uid\" varchar(400) collate \"C\" not null, \"primary_key\" varchar(512) null, \"settings\" jsonb not null, \"number_of_documents\" int not null default 0, \"is_indexing\" boolean not null default false, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"indexes_app_id_index\" on \"search\".\"indexes\" (\"app_id\")");
    this.addSql("alter table \"search\".\"indexes\" add constraint \"indexes_app_id_environment_uid_unique\" unique (\"app_id\", \"environment\", \"uid\")");
  }
}
