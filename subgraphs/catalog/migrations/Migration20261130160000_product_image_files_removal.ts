// A product image's files go wherever its row goes: deleted alone (images/image.service.ts) or with
// its product deleted permanently (the foreign key's cascade, which no service code sees). A
// statement-level trigger enqueues one job of kind catalog.images.remove-files (images/image.files.ts)
// in the deleting transaction, naming every image the statement removed: the files are removed after
// commit, and a stop right after it loses nothing. The job row is written as lib/jobs' insertJob
// writes one (the columns as first created, lib/jobs/ddl.ts) and the same NOTIFY wakes the workers at
// commit. Hand-written: the generator knows no triggers.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261130160000_product_image_files_removal extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "catalog"."product_image_files_removed"() returns trigger language plpgsql as $$
begin
  insert into "catalog"."jobs" (kind, payload, status, attempts, run_at, created_at)
    select 'catalog.images.remove-files',
           jsonb_build_object('images', jsonb_agg(jsonb_build_object('appId', app_id, 'environment', environment, 'imageId', id, 'objectKey', object_key))),
           'queued', 0, clock_timestamp(), clock_timestamp()
      from old_rows having count(*) > 0;
  if found then
    perform pg_notify('jobs_catalog', 'catalog.images.remove-files');
  end if;
  return null;
end $$`);
    this.addSql(`create trigger "product_images_files_removed" after delete on "catalog"."product_images"
      referencing old table as old_rows for each statement execute function "catalog"."product_image_files_removed"()`);
  }
}
