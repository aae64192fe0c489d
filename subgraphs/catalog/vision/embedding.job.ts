// The visual-search embeddings of a product image, made by a job of the kernel queue: adding an
// image enqueues one `catalog.images.embedding` job in the image's own transaction (like its
// thumbnails), so every committed image is indexed even if the process stops right after answering.
// The job embeds the whole image (region 0), the whole image turned by 90°, 180° and 270° (regions
// 1–3: a sideways query photo then meets an upright copy), and each object the detector finds in it
// (regions 4…, DETECT_FOR_INDEX), then replaces the image's rows and marks it `ready` in one transaction. An
// image that cannot be decoded is marked `failed`; one deleted meanwhile leaves nothing (its rows
// would go with it: foreign key, cascade). The kind runs on a queue of its own (vision.module.ts), so a
// model load or a slow embedding never delays reservation expiry or webhooks.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobKind } from '../../../lib/jobs/index.js';
import { readObject, type ObjectStore } from '../../../lib/object-store.js';
import { loadImage, VISION_METHODS, VisionError, type Vision } from '../../../lib/vision/index.js';
import { EMBEDDING_JOB, type EmbeddingJobPayload } from '../images/image.embedding-queue.js';
import { IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS } from '../images/image.rules.js';
import { markEmbeddingFailed, markEmbeddingStatus, replaceEmbeddings, type RegionEmbedding } from './embedding.repository.js';
import { detectObjects, embedObject, rotatedImage } from './vision.regions.js';
import { DETECT_FOR_INDEX, INDEXED_ROTATIONS, round4 } from './vision.rules.js';

/** Embed one image and its objects; answers what became of it. */
export async function runEmbedding(em: EntityManager, objects: ObjectStore, vision: Vision, p: EmbeddingJobPayload): Promise<'ready' | 'failed' | 'gone'> {
  const bytes = await readObject(objects, p.objectKey, IMAGE_MAX_BYTES);
  if (!bytes) return 'gone';
  let regions: RegionEmbedding[];
  try {
    const image = await loadImage({ bytes }, { allowPrivate: false, maxPixels: IMAGE_MAX_PIXELS });
    // CenterNet and MobileNetV2 run in their own workers: detection overlaps the whole-image embeddings
    const [wholes, found] = await Promise.all([
      Promise.all([vision.embed(image), ...INDEXED_ROTATIONS.map(async (deg) => vision.embed(await rotatedImage(image, deg)))]),
      detectObjects(vision, image, DETECT_FOR_INDEX),
    ]);
    const parts = await Promise.all(found.map((o) => embedObject(vision, image, o.bbox)));
    const turns = [0, ...INDEXED_ROTATIONS];
    regions = [
      ...wholes.map((vector, i) => ({ region: i, rotation: turns[i], label: null, confidence: null, bbox: null, vector })),
      ...found.map((o, i) => ({ region: wholes.length + i, rotation: 0, label: o.label, confidence: round4(o.confidence), bbox: o.bbox, vector: parts[i] })),
    ];
  } catch (e) {
    // a file the decoder refuses is an outcome (status failed); a model that failed to load is retried
    if (e instanceof VisionError && e.kind !== 'model_unavailable') {
      await markEmbeddingStatus(em, p.imageId, 'failed');
      return 'failed';
    }
    throw e;
  }
  return (await replaceEmbeddings(em, p, p.imageId, VISION_METHODS.embedding, regions)) ? 'ready' : 'gone';
}

export function imageEmbeddingJob(em: () => EntityManager, objects: ObjectStore, vision: Vision): JobKind<EmbeddingJobPayload> {
  return {
    kind: EMBEDDING_JOB,
    maxAttempts: 5,
    backoff: { baseMs: 1000, maxMs: 60_000 },
    // the first call of a process loads both models (MobileNetV2 takes 5–10 s); the heartbeat extends the lease while it runs
    leaseMs: 120_000,
    handle: ({ job }) => runEmbedding(em(), objects, vision, job.payload),
    async onDead(job, _error, tx) {
      await markEmbeddingFailed(tx, job.payload.imageId);
    },
  };
}
