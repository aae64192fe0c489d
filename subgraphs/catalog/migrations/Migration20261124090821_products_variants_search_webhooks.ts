import { Migration } from '@mikro-orm/migrations';
import { jobsTableDdl } from '../../../lib/jobs/ddl.js';

/**
 * Products with every field of the spec, the shared SKU registry (backfilled from existing products),
 * variants, related products, the product search documents with their sequence, the full-text
 * expression index of GET /v1/products?search=, and the jobs and webhook tables of lib/.
 */

export class Migration20261124090821_products_variants_search_webhooks extends Migration {
  override async up(): Promise<void> {
    for (const sql of jobsTableDdl('catalog')) this.addSql(sql);
    this.addSql("create table \"catalog\".\"product_relations\" (\"product_id\" varchar(32) not null, \"type\" varchar(20) not null, \"related_id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"position\" int not null, \"created_at\" timestamptz not null, primary key (\"product_id\", \"type\", \"related_id\"))");
    this.addSql("create index \"product_relations_app_id_index\" on \"catalog\".\"product_relations\" (\"app_id\")");
    this.addSql("create index \"product_relations_product_id_type_position_index\" on \"catalog\".\"product_relations\" (\"product_id\", \"type\", \"position\")");
    this.addSql("create table \"catalog\".\"product_search_documents\" (\"product_id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"seq\" bigint not null, \"doc\" jsonb null, \"updated_at\" timestamptz not null, primary key (\"product_id\"))");
    this.addSql("create index \"product_search_documents_app_id_index\" on \"catalog\".\"product_search_documents\" (\"app_id\")");
    this.addSql("create index \"product_search_documents_app_id_environment_seq_index\" on \"catalog\".\"product_search_documents\" (\"app_id\", \"environment\", \"seq\")");
    this.addSql("create table \"catalog\".\"skus\" (\"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"sku\" varchar(200) not null, \"owner_id\" varchar(32) not null, \"created_at\" timestamptz not null, primary key (\"app_id\", \"environment\", \"sku\"))");
    this.addSql("create table \"catalog\".\"product_variants\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"product_id\" varchar(32) not null, \"name\" varchar(500) not null, \"sku\" varchar(200) not null, \"options\" jsonb not null, \"price_modifier_type\" varchar(10) null, \"price_modifier_amount\" bigint null, \"inventory_quantity\" int not null default 0, \"track_stock\" boolean not null default true, \"weight\" jsonb null, \"position\" int not null default 0, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"product_variants_app_id_index\" on \"catalog\".\"product_variants\" (\"app_id\")");
    this.addSql("create index \"product_variants_product_id_position_index\" on \"catalog\".\"product_variants\" (\"product_id\", \"position\")");
    this.addSql("create table \"catalog\".\"webhook_attempts\" (\"id\" bigserial primary key, \"delivery_id\" varchar(32) not null, \"attempt\" int not null, \"status_code\" int null, \"error\" text null, \"duration_ms\" int not null, \"created_at\" timestamptz not null)");
    this.addSql("create index \"webhook_attempts_delivery_id_index\" on \"catalog\".\"webhook_attempts\" (\"delivery_id\")");
    this.addSql("create table \"catalog\".\"webhook_deliveries\" (\"id\" varchar(32) not null, \"owner\" varchar(160) not null, \"endpoint_id\" varchar(32) null, \"target\" varchar(100) null, \"event\" varchar(64) not null, \"event_id\" varchar(64) not null, \"display_url\" varchar(2048) null, \"url_sealed\" text null, \"secret_sealed\" text null, \"body\" text not null, \"body_sealed\" boolean not null default false, \"status\" text not null default 'pending', \"attempts\" int not null default 0, \"max_attempts\" int not null, \"next_attempt_at\" timestamptz not null, \"lease_until\" timestamptz null, \"last_attempt_at\" timestamptz null, \"last_status_code\" int null, \"last_error\" text null, \"delivered_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"webhook_deliveries_endpoint_id_created_at_index\" on \"catalog\".\"webhook_deliveries\" (\"endpoint_id\", \"created_at\")");
    this.addSql("create index \"webhook_deliveries_owner_created_at_index\" on \"catalog\".\"webhook_deliveries\" (\"owner\", \"created_at\")");
    this.addSql("create index \"webhook_deliveries_status_next_attempt_at_index\" on \"catalog\".\"webhook_deliveries\" (\"status\", \"next_attempt_at\")");
    this.addSql("create table \"catalog\".\"webhook_endpoints\" (\"id\" varchar(32) not null, \"owner\" varchar(160) not null, \"url\" text not null, \"events\" jsonb not null, \"secret_sealed\" text not null, \"active\" boolean not null default true, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"webhook_endpoints_owner_created_at_index\" on \"catalog\".\"webhook_endpoints\" (\"owner\", \"created_at\")");
    this.addSql("alter table \"catalog\".\"products\" add \"short_description\" text null, add \"cost_amount\" bigint null, add \"cost_currency\" varchar(3) null, add \"inventory_quantity\" int not null default 0, add \"inventory_reserved\" int not null default 0, add \"track_stock\" boolean not null default true, add \"allow_backorder\" boolean not null default false, add \"low_stock_threshold\" int null, add \"weight\" jsonb null, add \"dimensions\" jsonb null, add \"seo\" jsonb null, add \"options\" jsonb null, add \"bundle_items\" jsonb null, add \"bundle_pricing\" varchar(20) null");
    this.addSql("alter table \"catalog\".\"product_relations\" add constraint \"product_relations_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on delete cascade");
    this.addSql("alter table \"catalog\".\"product_relations\" add constraint \"product_relations_related_id_foreign\" foreign key (\"related_id\") references \"catalog\".\"products\" (\"id\") on delete cascade");
    this.addSql("alter table \"catalog\".\"product_variants\" add constraint \"product_variants_product_id_foreign\" foreign key (\"product_id\") references \"catalog\".\"products\" (\"id\") on delete cascade");
    this.addSql("alter table \"catalog\".\"webhook_deliveries\" add constraint \"webhook_deliveries_status_check\" check (\"status\" in ('pending', 'delivering', 'delivered', 'failed'))");
    this.addSql('create sequence "catalog"."product_search_seq"');
    this.addSql('insert into "catalog"."skus" (app_id, environment, sku, owner_id, created_at) select app_id, environment, sku, id, created_at from "catalog"."products"');
    this.addSql(`create index "products_search_index" on "catalog"."products" using gin ((setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(sku, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')))`);
    this.addSql('create index "products_app_env_price_index" on "catalog"."products" (app_id, environment, price_amount)');
    // the default list order over live products, narrow enough for index-only offset walks
    this.addSql('create index "products_live_created_index" on "catalog"."products" (app_id, environment, created_at desc, id desc) where deleted_at is null');
  }
}
