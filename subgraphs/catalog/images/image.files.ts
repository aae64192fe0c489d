// Removing the files of deleted product images: the job the database enqueues whenever image rows are
// deleted (the trigger of Migration20261130160000_product_image_files_removal), whether one image was
// deleted or a product with its images was deleted permanently. Each image's original, its
// thumbnails and its suggested crops go; a file already gone is no error, so a retried job finishes
// what an earlier attempt began.
import type { JobKind } from '../../../lib/jobs/index.js';
import type { ObjectStore } from '../../../lib/object-store.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { THUMBNAIL_NAMES, cropFolder, thumbnailKey } from './image.rules.js';

/** the kind the trigger writes (a literal there: a migration is frozen once shipped) */
export const REMOVE_FILES_JOB = 'catalog.images.remove-files';

export interface RemovedImage extends AppPartition {
  imageId: string;
  objectKey: string;
}

export interface RemoveFilesPayload {
  images: RemovedImage[];
}

/** Images whose files are removed at once (each a handful of deletes and one listing). */
const AT_ONCE = 8;

/** Every file of `images`; answers how many objects were asked to go. */
async function removeImageFiles(objects: ObjectStore, images: readonly RemovedImage[]): Promise<number> {
  let asked = 0;
  for (let i = 0; i < images.length; i += AT_ONCE) {
    await Promise.all(
      images.slice(i, i + AT_ONCE).map(async (img) => {
        const crops = (await objects.list(cropFolder(img, img.imageId))).map((o) => o.key);
        const keys = [img.objectKey, ...THUMBNAIL_NAMES.map((n) => thumbnailKey(img, img.imageId, n)), ...crops];
        await Promise.all(keys.map((k) => objects.delete(k)));
        asked += keys.length;
      }),
    );
  }
  return asked;
}

export function imageFilesRemovalJob(objects: ObjectStore): JobKind<RemoveFilesPayload> {
  return {
    kind: REMOVE_FILES_JOB,
    maxAttempts: 8,
    backoff: { baseMs: 1000, maxMs: 300_000 },
    async handle({ job }) {
      return { images: job.payload.images.length, objects: await removeImageFiles(objects, job.payload.images) };
    },
  };
}
