import { Migration } from '@mikro-orm/migrations';

export class Migration20261122085603_init extends Migration {
  override async up(): Promise<void> {
    this.addSql("create schema if not exists \"catalog\"");
    this.addSql("create table \"catalog\".\"products\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"name\" varchar(500) not null, \"sku\" varchar(200) not null, \"description\" text null, \"status\" text not null default 'draft', \"type\" text not null default 'physical', \"price_amount\" bigint null, \"price_currency\" varchar(3) null, \"compare_at_amount\" bigint null, \"attributes\" jsonb null, \"metadata\" jsonb null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, \"deleted_at\" timestamptz null, primary key (\"id\"))");
    this.addSql("create index \"products_app_id_index\" on \"catalog\".\"products\" (\"app_id\")");
    this.addSql("create index \"products_app_id_environment_created_at_index\" on \"catalog\".\"products\" (\"app_id\", \"environment\", \"created_at\")");
    this.addSql("alter table \"catalog\".\"products\" add constraint \"products_app_id_environment_sku_unique\" unique (\"app_id\", \"environment\", \"sku\")");
    this.addSql("alter table \"catalog\".\"products\" add constraint \"products_status_check\" check (\"status\" in ('active', 'draft', 'archived'))");
    this.addSql("alter table \"catalog\".\"products\" add constraint \"products_type_check\" check (\"type\" in ('physical', 'digital', 'service', 'bundle'))");
  }
}
