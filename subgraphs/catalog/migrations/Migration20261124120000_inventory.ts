// Inventory: locations (one default per app partition), per-location levels, the append-only
// adjustment ledger (a trigger refuses updates and deletes), reservations (one live reservation per
// item and order), and the committed/reserved counters on products and variants.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261124120000_inventory extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "catalog"."inventory_locations" ("id" varchar(32) not null, "app_id" varchar(64) not null, "environment" varchar(8) not null, "name" varchar(200) not null, "code" varchar(64) not null, "type" varchar(32) not null default 'warehouse', "address" jsonb null, "is_default" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`);
    this.addSql(`create index "inventory_locations_app_id_index" on "catalog"."inventory_locations" ("app_id")`);
    this.addSql(`create index "inventory_locations_app_id_environment_created_at_index" on "catalog"."inventory_locations" ("app_id", "environment", "created_at")`);
    this.addSql(`alter table "catalog"."inventory_locations" add constraint "inventory_locations_app_id_environment_code_unique" unique ("app_id", "environment", "code")`);
    this.addSql(`create unique index "inventory_locations_one_default" on "catalog"."inventory_locations" ("app_id", "environment") where "is_default"`);

    this.addSql(`create table "catalog"."inventory_levels" ("id" varchar(32) not null, "app_id" varchar(64) not null, "environment" varchar(8) not null, "item_id" varchar(32) not null, "product_id" varchar(32) not null, "variant_id" varchar(32) null, "location_id" varchar(32) not null, "quantity" int not null default 0, "updated_at" timestamptz not null, primary key ("id"))`);
    this.addSql(`create index "inventory_levels_app_id_index" on "catalog"."inventory_levels" ("app_id")`);
    this.addSql(`create index "inventory_levels_app_id_environment_product_id_index" on "catalog"."inventory_levels" ("app_id", "environment", "product_id")`);
    this.addSql(`alter table "catalog"."inventory_levels" add constraint "inventory_levels_item_id_location_id_unique" unique ("item_id", "location_id")`);

    this.addSql(`create table "catalog"."inventory_adjustments" ("id" varchar(32) not null, "app_id" varchar(64) not null, "environment" varchar(8) not null, "item_id" varchar(32) not null, "product_id" varchar(32) not null, "variant_id" varchar(32) null, "location_id" varchar(32) not null, "delta" int not null, "quantity_before" int not null, "quantity_after" int not null, "reason" varchar(200) not null, "reference" varchar(200) null, "actor" varchar(200) not null, "created_at" timestamptz not null, primary key ("id"))`);
    this.addSql(`create index "inventory_adjustments_app_id_index" on "catalog"."inventory_adjustments" ("app_id")`);
    this.addSql(`create index "inventory_adjustments_app_id_environment_product_id_created_at_index" on "catalog"."inventory_adjustments" ("app_id", "environment", "product_id", "created_at")`);
    this.addSql(`create or replace function "catalog"."inventory_adjustments_append_only"() returns trigger language plpgsql as $$
      begin raise exception 'inventory_adjustments is append-only'; end $$`);
    this.addSql(`create trigger "inventory_adjustments_append_only" before update or delete on "catalog"."inventory_adjustments" for each row execute function "catalog"."inventory_adjustments_append_only"()`);

    this.addSql(`create table "catalog"."inventory_reservations" ("id" varchar(32) not null, "app_id" varchar(64) not null, "environment" varchar(8) not null, "item_id" varchar(32) not null, "product_id" varchar(32) not null, "variant_id" varchar(32) null, "parent_id" varchar(32) null, "is_bundle" boolean not null default false, "order_id" varchar(200) not null, "quantity" int not null, "status" varchar(16) not null default 'active', "expires_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`);
    this.addSql(`create index "inventory_reservations_app_id_index" on "catalog"."inventory_reservations" ("app_id")`);
    this.addSql(`create index "inventory_reservations_item_id_status_expires_at_index" on "catalog"."inventory_reservations" ("item_id", "status", "expires_at")`);
    this.addSql(`create index "inventory_reservations_status_expires_at_index" on "catalog"."inventory_reservations" ("status", "expires_at")`);
    this.addSql(`create unique index "inventory_reservations_live_order" on "catalog"."inventory_reservations" ("app_id", "environment", "item_id", "order_id") where "status" in ('active', 'committed')`);

    this.addSql(`alter table "catalog"."products" add column "inventory_committed" int not null default 0`);
    this.addSql(`alter table "catalog"."product_variants" add column "inventory_reserved" int not null default 0, add column "inventory_committed" int not null default 0`);
  }
}
