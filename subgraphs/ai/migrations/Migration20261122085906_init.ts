import { Migration } from '@mikro-orm/migrations';

export class Migration20261122085906_init extends Migration {
  override async up(): Promise<void> {
    this.addSql("create schema if not exists \"ai\"");
    this.addSql("create table \"ai\".\"identities\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"user_unique_id\" varchar(255) not null, \"status\" text not null default 'active', \"registered_at\" timestamptz not null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"identities_app_id_index\" on \"ai\".\"identities\" (\"app_id\")");
    this.addSql("alter table \"ai\".\"identities\" add constraint \"identities_app_id_environment_user_unique_id_unique\" unique (\"app_id\", \"environment\", \"user_unique_id\")");
    this.addSql("alter table \"ai\".\"identities\" add constraint \"identities_status_check\" check (\"status\" in ('active'))");
  }
}
