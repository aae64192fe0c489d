// Visual search (vision/): the embeddings of product images (the whole image and its detected
// objects, float32 bytes), gone with their image; each image's embedding status; and an embedding
// job for every image that existed before (the job kind of vision/embedding.job.ts). Hand-written:
// the generator would also drop the products' raw-SQL indexes.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261124160000_product_image_embeddings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "catalog"."product_images" add column "embedding_status" varchar(12) not null default 'pending'`);
    this.addSql(`create table "catalog"."product_image_embeddings" (
      "image_id" varchar(32) not null, "region" smallint not null, "rotation" smallint not null default 0, "app_id" varchar(64) not null, "environment" varchar(8) not null,
      "product_id" varchar(32) not null, "label" varchar(32) null, "confidence" real null, "bbox" jsonb null, "model" varchar(120) not null,
      "vector" bytea not null, "created_at" timestamptz not null, primary key ("image_id", "region"))`);
    this.addSql('create index "product_image_embeddings_app_id_index" on "catalog"."product_image_embeddings" ("app_id")');
    this.addSql('create index "product_image_embeddings_app_id_environment_index" on "catalog"."product_image_embeddings" ("app_id", "environment")');
    this.addSql(
      'alter table "catalog"."product_image_embeddings" add constraint "product_image_embeddings_image_id_foreign" foreign key ("image_id") references "catalog"."product_images" ("id") on delete cascade',
    );
    this.addSql(`insert into "catalog"."jobs" (kind, dedupe_key, payload, status, attempts, run_at, created_at)
      select 'catalog.images.embedding', 'embedding:' || id,
             jsonb_build_object('appId', app_id, 'environment', environment, 'imageId', id, 'objectKey', object_key), 'queued', 0, now(), now()
        from "catalog"."product_images"`);
  }
}
