// Product images (images/): one row per image, at most one primary per product (partial unique
// index), gone with a product deleted permanently. Hand-written: the generator would also drop the
// products' raw-SQL indexes.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261124120430_product_images extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "catalog"."product_images" (
      "id" varchar(32) not null, "app_id" varchar(64) not null, "environment" varchar(8) not null, "product_id" varchar(32) not null,
      "object_key" text not null, "content_type" varchar(32) not null, "bytes" int not null, "sha256" varchar(64) not null,
      "width" int not null, "height" int not null, "alt_text" text null, "position" int not null,
      "is_primary" boolean not null default false, "thumbnail_status" varchar(12) not null default 'pending',
      "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`);
    this.addSql('create index "product_images_app_id_index" on "catalog"."product_images" ("app_id")');
    this.addSql('create index "product_images_product_id_position_index" on "catalog"."product_images" ("product_id", "position")');
    this.addSql('create unique index "product_images_one_primary" on "catalog"."product_images" ("product_id") where "is_primary"');
    this.addSql(
      'alter table "catalog"."product_images" add constraint "product_images_product_id_foreign" foreign key ("product_id") references "catalog"."products" ("id") on delete cascade',
    );
  }
}
