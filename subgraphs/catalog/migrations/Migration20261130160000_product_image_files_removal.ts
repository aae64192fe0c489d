// A product image's files go wherever its row goes: deleted alone (images/image.service.ts) or with
// its product deleted permanently (the foreign key's cascade, which no service code sees). A
// statement-level trigger enqueues one job of kind catalog.images.remove-files (images/image.files.ts)
// in the deleting transaction, naming every image the statement removed: the files are removed after
// commit, and a stop right after it loses nothing. The job row and the NOTIFY that wakes the workers
// are lib/jobs' (enqueueJobSql). Hand-written: the generator knows no triggers.
import { Migration } from '@mikro-orm/migrations';
import { enqueueJobSql } from '../../../lib/jobs/ddl.js';

const IMAGES = `jsonb_build_object('images', jsonb_agg(jsonb_build_object('appId', app_id, 'environment', environment, 'imageId', id, 'objectKey', object_key)))`;

export class Migration20261130160000_product_image_files_removal extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "catalog"."product_image_files_removed"() returns trigger language plpgsql as $$
begin
  ${enqueueJobSql('catalog', 'catalog.images.remove-files', IMAGES, 'old_rows having count(*) > 0')}
  return null;
end $$`);
    this.addSql(`create trigger "product_images_files_removed" after delete on "catalog"."product_images"
      referencing old table as old_rows for each statement execute function "catalog"."product_image_files_removed"()`);
  }
}
