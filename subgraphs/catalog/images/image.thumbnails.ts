// Thumbnails of a product image, made by a job of the kernel queue: adding an image enqueues one
// `catalog.images.thumbnails` job in the image's own transaction, so every committed image gets its
// thumbnails even if the process stops right after answering. The job writes the three WebP files
// and marks the image `ready`; an image that cannot be decoded is marked `failed` (its thumbnail
// URLs keep serving the original). An image deleted meanwhile leaves no thumbnail behind.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueJob, type JobKind } from '../../../lib/jobs/index.js';
import { readObject, type ObjectStore } from '../../../lib/object-store.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { makeThumbnails } from './image.processing.js';
import { existingImages, markThumbnailStatus as markStatus } from './image.repository.js';
import { IMAGE_MAX_BYTES, THUMBNAIL_NAMES, thumbnailKey } from './image.rules.js';

export const THUMBNAIL_JOB = 'catalog.images.thumbnails';

export interface ThumbnailJobPayload extends AppPartition {
  imageId: string;
  objectKey: string;
}

export async function enqueueThumbnails(em: EntityManager, p: ThumbnailJobPayload): Promise<void> {
  await enqueueJob<ThumbnailJobPayload>(em, 'catalog', { kind: THUMBNAIL_JOB, payload: p });
}

/** Make and store the thumbnails of one image; answers what became of it. */
export async function runThumbnails(em: EntityManager, objects: ObjectStore, p: ThumbnailJobPayload): Promise<'ready' | 'failed' | 'gone'> {
  const original = await readObject(objects, p.objectKey, IMAGE_MAX_BYTES);
  if (!original) return 'gone';
  let thumbs: Awaited<ReturnType<typeof makeThumbnails>>;
  try {
    thumbs = await makeThumbnails(original);
  } catch {
    await markStatus(em, p.imageId, 'failed');
    return 'failed';
  }
  const keys = THUMBNAIL_NAMES.map((n) => thumbnailKey(p, p.imageId, n));
  await Promise.all(THUMBNAIL_NAMES.map((n, i) => objects.put(keys[i], thumbs[n], { contentType: 'image/webp' })));
  if (!(await existingImages(em, [p.imageId])).has(p.imageId)) {
    // deleted while we worked: its delete removed what existed then, we remove what we wrote
    await Promise.all(keys.map((k) => objects.delete(k)));
    return 'gone';
  }
  await markStatus(em, p.imageId, 'ready');
  return 'ready';
}

export function imageThumbnailJob(em: () => EntityManager, objects: ObjectStore): JobKind<ThumbnailJobPayload> {
  return {
    kind: THUMBNAIL_JOB,
    maxAttempts: 5,
    backoff: { baseMs: 500, maxMs: 30_000 },
    async handle({ job }) {
      // an undecodable image is an outcome (status failed), not a failure to retry
      return runThumbnails(em(), objects, job.payload);
    },
  };
}
