import { Migration } from '@mikro-orm/migrations';

export class Migration20261124082432_taxonomy_and_pricing extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"catalog\".\"categories\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"name\" varchar(200) not null, \"slug\" varchar(200) not null, \"description\" text null, \"parent_id\" varchar(32) null, \"position\" int not null default 0, \"seo\" jsonb null, \"metadata\" jsonb null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"categories_app_id_index\" on \"catalog\".\"categories\" (\"app_id\")");
    this.addSql("create index \"categories_app_id_environment_parent_id_position_index\" on \"catalog\".\"categories\" (\"app_id\", \"environment\", \"parent_id\", \"position\")");
    this.addSql("alter table \"catalog\".\"categories\" add constraint \"categories_app_id_environment_slug_unique\" unique (\"app_id\", \"environment\", \"slug\")");
    this.addSql("create table \"catalog\".\"collections\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"name\" varchar(200) not null, \"slug\" varchar(200) not null, \"description\" text null, \"type\" text not null, \"status\" text not null default 'active', \"start_date\" timestamptz null, \"end_date\" timestamptz null, \"rules\" jsonb null, \"seo\" jsonb null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"collections_app_id_index\" on \"catalog\".\"collections\" (\"app_id\")");
    this.addSql("create index \"collections_app_id_environment_created_at_index\" on \"catalog\".\"collections\" (\"app_id\", \"environment\", \"created_at\")");
    this.addSql("alter table \"catalog\".\"collections\" add constraint \"collections_app_id_environment_slug_unique\" unique (\"app_id\", \"environment\", \"slug\")");
    this.addSql("create table \"catalog\".\"product_categories\" (\"category_id\" varchar(32) not null, \"product_id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"created_at\" timestamptz not null, primary key (\"category_id\", \"product_id\"))");
    this.addSql("create index \"product_categories_app_id_index\" on \"catalog\".\"product_categories\" (\"app_id\")");
    this.addSql("create index \"product_categories_product_id_index\" on \"catalog\".\"product_categories\" (\"product_id\")");
    this.addSql("create table \"catalog\".\"price_tiers\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"product_id\" varchar(32) not null, \"currency\" varchar(3) not null, \"min_quantity\" int not null, \"max_quantity\" int null, \"amount\" bigint not null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"price_tiers_app_id_index\" on \"catalog\".\"price_tiers\" (\"app_id\")");
    this.addSql("create index \"price_tiers_product_id_currency_min_quantity_index\" on \"catalog\".\"price_tiers\" (\"product_id\", \"currency\", \"min_quantity\")");
    this.addSql("create table \"catalog\".\"customer_prices\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"product_id\" varchar(32) not null, \"customer_id\" varchar(200) null, \"customer_group_id\" varchar(200) null, \"currency\" varchar(3) not null, \"amount\" bigint not null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"customer_prices_app_id_index\" on \"catalog\".\"customer_prices\" (\"app_id\")");
    this.addSql("create index \"customer_prices_product_id_currency_customer_group_id_index\" on \"catalog\".\"customer_prices\" (\"product_id\", \"currency\", \"customer_group_id\")");
    this.addSql("create index \"customer_prices_product_id_currency_customer_id_index\" on \"catalog\".\"customer_prices\" (\"product_id\", \"currency\", \"customer_id\")");
    this.addSql("create table \"catalog\".\"collection_products\" (\"collection_id\" varchar(32) not null, \"product_id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"position\" int not null, \"created_at\" timestamptz not null, primary key (\"collection_id\", \"product_id\"))");
    this.addSql("create index \"collection_products_app_id_index\" on \"catalog\".\"collection_products\" (\"app_id\")");
    this.addSql("create index \"collection_products_product_id_index\" on \"catalog\".\"collection_products\" (\"product_id\")");
    this.addSql("create index \"collection_products_collection_id_position_index\" on \"catalog\".\"collection_products\" (\"collection_id\", \"position\")");
    this.addSql("create table \"catalog\".\"product_prices\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"product_id\" varchar(32) not null, \"currency\" varchar(3) not null, \"amount\" bigint not null, \"compare_at_amount\" bigint null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"product_prices_app_id_index\" on \"catalog\".\"product_prices\" (\"app_id\")");
    this.addSql("alter table \"catalog\".\"product_prices\" add constraint \"product_prices_product_id_currency_unique\" unique (\"product_id\", \"currency\")");
    this.addSql("create table \"catalog\".\"scheduled_prices\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"product_id\" varchar(32) not null, \"name\" varchar(200) null, \"currency\" varchar(3) not null, \"amount\" bigint not null, \"compare_at_amount\" bigint null, \"starts_at\" timestamptz not null, \"ends_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"scheduled_prices_app_id_index\" on \"catalog\".\"scheduled_prices\" (\"app_id\")");
    this.addSql("create index \"scheduled_prices_product_id_currency_starts_at_index\" on \"catalog\".\"scheduled_prices\" (\"product_id\", \"currency\", \"starts_at\")");
    this.addSql("alter table \"catalog\".\"categories\" add constraint \"categories_parent_id_foreign\" foreign key (\"parent_id\") references \"catalog\".\"categories\" (\"id\") on delete restrict");
    this.addSql("alter table \"catalog\".\"collections\" add constraint \"collections_type_check\" check (\"type\" in ('manual', 'automated'))");
    this.addSql("alter table \"catalog\".\"collections\" add constraint \"collections_status_check\" check (\"status\" in ('active', 'draft', 'archived'))");
    this.addSql("alter table \"catalog\".\"product_categories\" add constraint \"product_categories_category_id_foreign\" foreign key (\"category_id\") references \"catalog\".\"categories\" (\"id\") on update cascade on delete cascade");
    this.addSql("alter table \"catalog\".\"product_categories\" add constraint \"product_categories_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on update cascade on delete cascade");
    this.addSql("alter table \"catalog\".\"price_tiers\" add constraint \"price_tiers_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on delete cascade");
    this.addSql("alter table \"catalog\".\"customer_prices\" add constraint \"customer_prices_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on delete cascade");
    this.addSql("alter table \"catalog\".\"collection_products\" add constraint \"collection_products_collection_id_foreign\" foreign key (\"collection_id\") references \"catalog\".\"collections\" (\"id\") on update cascade on delete cascade");
    this.addSql("alter table \"catalog\".\"collection_products\" add constraint \"collection_products_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on update cascade on delete cascade");
    this.addSql("alter table \"catalog\".\"product_prices\" add constraint \"product_prices_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on delete cascade");
    this.addSql("alter table \"catalog\".\"scheduled_prices\" add constraint \"scheduled_prices_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on delete cascade");
  }
}
