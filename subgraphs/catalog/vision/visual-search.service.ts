// Visual search (POST /v1/products/search, multipart `image` + `use_object_detection`; GraphQL
// visualProductSearch by URL). The query photo is embedded like product images (lib/vision embed);
// with detection on, 0 or 1 objects → one search with the whole photo, 2 or more → one search per
// object (its suggested crop), results grouped per object. Each search scans every vector of the
// partition (scan.calc.ts: whole images and their objects, a product scoring its best) in 8 bits,
// then rescores its shortlist with the exact float32 vectors.
// The multipart route streams the photo into the object store under a grant (purpose
// visual_search_image, made with the caller's key and scope); the search reads it and deletes it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { readObject } from '../../../lib/object-store.js';
import { acceptStoredUpload, type StoredUploadInput } from '../../../lib/stored-upload.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import { signUploadToken, type UploadGrant } from '../../../lib/upload-token.js';
import { loadImage, VISION_METHODS, type Box, type DetectedObject, type Vision, type VisionImage } from '../../../lib/vision/index.js';
import type { CatalogContext } from '../context.js';
import { ProductImageEntity } from '../images/image.entity.js';
import { IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, imageUrls } from '../images/image.rules.js';
import { ProductEntity } from '../products/product.entity.js';
import { activeProductIds, exactVectors } from './embedding.repository.js';
import type { PartitionVectors } from './vector-cache.js';
import { rescore, scan, shortlistSize, type ScanHit } from './scan.calc.js';
import { detectObjects, embedObject, visionFailure } from './vision.regions.js';
import {
  DETECT_FOR_SEARCH,
  round4,
  VISUAL_SEARCH_DEFAULT_PER_PAGE,
  VISUAL_SEARCH_MAX_PER_PAGE,
  VISUAL_SEARCH_PURPOSE,
  VISUAL_SEARCH_UPLOAD_TTL_SEC,
  visualSearchKey,
} from './vision.rules.js';

export interface VisualSearchOptions {
  useObjectDetection?: boolean | null;
  perPage?: number | null;
}

/** Which object a search was for: null fields for a whole-photo search without a detected object. */
export interface SearchDetection {
  objectIndex: number | null;
  totalObjects: number;
  class: string | null;
  confidence: number | null;
  bbox: Box | null;
}

export interface VisualSearchHit {
  product: ProductEntity;
  similarityScore: number;
  detectionMetadata: SearchDetection;
  matchedImageId: string;
  matchedImageUrl: string;
  /** the part of the matched image that scored: "image", "image turned 90°" (180°, 270°) or the detected object's class */
  matchedRegion: string;
}

export interface VisualSearchGroup {
  detection: SearchDetection;
  results: VisualSearchHit[];
}

export interface VisualSearchOutcome {
  mode: 'single' | 'multi_object';
  useObjectDetection: boolean;
  objectsDetected: number;
  /** ms of the detector pass (one per search; 0 without detection) */
  averageDetectionTime: number;
  embeddingTimeMs: number;
  scanTimeMs: number;
  totalTimeMs: number;
  /** vectors compared per query */
  scanned: number;
  model: string;
  groups: VisualSearchGroup[];
}

/** A grant to stream one query photo into the store (the REST bridge's multipart route asks it with the caller's key). */
export async function presignVisualSearch(ctx: CatalogContext) {
  const part = await appPartition(ctx);
  const uploadId = newId('upl');
  const grant: UploadGrant = {
    uploadId,
    purpose: VISUAL_SEARCH_PURPOSE,
    owner: { app: part.appId, environment: part.environment },
    key: visualSearchKey(part, uploadId),
    maxBytes: IMAGE_MAX_BYTES,
    expiresAt: Math.floor(Date.now() / 1000) + VISUAL_SEARCH_UPLOAD_TTL_SEC,
  };
  return { token: signUploadToken(grant, ctx.runtime.images.uploadSecret), expiresAt: new Date(grant.expiresAt * 1000), maxBytes: grant.maxBytes };
}

/** Search with a photo the bridge stored (the token and receipt are the credentials); the photo is deleted either way. */
export async function visualSearchUpload(ctx: CatalogContext, token: string, object: StoredUploadInput, opts: VisualSearchOptions): Promise<VisualSearchOutcome> {
  checkOptions(opts);
  const { objects, uploadSecret } = ctx.runtime.images;
  const { grant, stored } = await acceptStoredUpload(objects, uploadSecret, VISUAL_SEARCH_PURPOSE, token, object);
  const { app, environment } = grant.owner;
  if (!app || !environment) throw new DomainError('UPLOAD_SIGNATURE_INVALID', 'This upload URL is not for a visual search', { parameter: 'token' });
  let bytes: Buffer | null;
  try {
    bytes = await readObject(objects, stored.key, IMAGE_MAX_BYTES);
  } finally {
    await objects.delete(stored.key);
  }
  if (!bytes) throw new DomainError('UPLOAD_NOT_FOUND', 'The uploaded image is no longer stored', { parameter: 'image' });
  const image = await loadImage({ bytes }, { allowPrivate: false, maxPixels: IMAGE_MAX_PIXELS }).catch(visionFailure('image'));
  return visualSearch(ctx.em, searchDeps(ctx), { appId: app, environment } as AppPartition, image, opts);
}

/** Search with a photo at a URL (GraphQL clients), fetched through the kernel's URL guard. */
export async function visualSearchByUrl(ctx: CatalogContext, imageUrl: string, opts: VisualSearchOptions): Promise<VisualSearchOutcome> {
  checkOptions(opts);
  const part = await appPartition(ctx);
  if (!imageUrl?.trim()) throw new DomainError('VALIDATION_FAILED', 'image_url must not be empty', { parameter: 'imageUrl' });
  const image = await loadImage({ url: imageUrl.trim() }, { allowPrivate: ctx.runtime.allowPrivate, maxPixels: IMAGE_MAX_PIXELS }).catch(visionFailure('imageUrl'));
  return visualSearch(ctx.em, searchDeps(ctx), part, image, opts);
}

const searchDeps = (ctx: CatalogContext): SearchDeps => ({ vision: ctx.runtime.vision, publicUrl: ctx.runtime.images.publicUrl, vectors: ctx.runtime.vectors });

function checkOptions(o: VisualSearchOptions): void {
  const n = o.perPage;
  if (n != null && (!Number.isInteger(n) || n < 1 || n > VISUAL_SEARCH_MAX_PER_PAGE)) {
    throw new DomainError('VALIDATION_FAILED', `per_page must be an integer from 1 to ${VISUAL_SEARCH_MAX_PER_PAGE}`, { parameter: 'perPage' });
  }
}

const since = (t: number) => Math.round(performance.now() - t);

/** What a search needs from its process: the models and the public base URL of image files. */
interface SearchDeps {
  vision: Vision;
  publicUrl: string;
  vectors: PartitionVectors;
}

async function visualSearch(em: EntityManager, deps: SearchDeps, part: AppPartition, image: VisionImage, opts: VisualSearchOptions): Promise<VisualSearchOutcome> {
  const { vision } = deps;
  const began = performance.now();
  const useObjectDetection = opts.useObjectDetection ?? true;
  const perPage = opts.perPage ?? VISUAL_SEARCH_DEFAULT_PER_PAGE;
  // the partition's vectors (cached, version-checked) and its active products load while the photo is looked at
  const vectors = Promise.all([deps.vectors.get(em, part, VISION_METHODS.embedding), activeProductIds(em, part)]);
  vectors.catch(() => undefined);
  // the whole photo is embedded on the MobileNetV2 worker while CenterNet looks for objects on its
  // own (the two run in parallel on two cores): a single search needs it, a multi-object one drops it
  const whole = vision.embed(image);
  whole.catch(() => undefined);
  let found: DetectedObject[] = [];
  let detectionMs = 0;
  if (useObjectDetection) {
    const t = performance.now();
    found = await detectObjects(vision, image, DETECT_FOR_SEARCH).catch(visionFailure('image'));
    detectionMs = since(t);
  }
  const multi = found.length >= 2;
  const detections: SearchDetection[] = multi
    ? found.map((o, i) => detectionOf(o, i, found.length))
    : [found[0] ? detectionOf(found[0], 0, 1) : { objectIndex: null, totalObjects: 0, class: null, confidence: null, bbox: null }];
  const te = performance.now(); // embedding_ms: what the embeddings add after detection
  const queries = await (multi ? Promise.all(found.map((o) => embedObject(vision, image, o.bbox))) : Promise.all([whole])).catch(visionFailure('image'));
  const embeddingTimeMs = since(te);
  const ts = performance.now();
  const [chunks, active] = await vectors;
  // the 8-bit scan's shortlists, then their rows' exact cosines (scan.calc.ts)
  const shortlists = scan(chunks, queries, shortlistSize(perPage), active);
  const hits = rescore(shortlists, queries, await exactVectors(em, part, VISION_METHODS.embedding, shortlists.flat()), perPage);
  const scanTimeMs = since(ts);
  const groups = await toGroups(em, deps.publicUrl, part, detections, hits);
  return {
    mode: multi ? 'multi_object' : 'single',
    useObjectDetection,
    objectsDetected: found.length,
    averageDetectionTime: detectionMs,
    embeddingTimeMs,
    scanTimeMs,
    totalTimeMs: since(began),
    scanned: chunks.reduce((n, c) => c.rows.reduce((m, r) => m + (active.has(r.productId) ? 1 : 0), n), 0),
    model: VISION_METHODS.embedding,
    groups,
  };
}

function detectionOf(o: DetectedObject, objectIndex: number, totalObjects: number): SearchDetection {
  return { objectIndex, totalObjects, class: o.label, confidence: round4(o.confidence), bbox: o.bbox };
}

/** What matched: "image", "image turned 90°" or the class of the image's object. */
const regionName = (h: ScanHit) => h.label ?? (h.rotation ? `image turned ${h.rotation}°` : 'image');

/** The hits as products with their matched image, one group per search. */
async function toGroups(em: EntityManager, publicUrl: string, part: AppPartition, detections: SearchDetection[], hits: ScanHit[][]): Promise<VisualSearchGroup[]> {
  const productIds = [...new Set(hits.flat().map((h) => h.productId))];
  const imageIds = [...new Set(hits.flat().map((h) => h.imageId))];
  const scope = { appId: part.appId, environment: part.environment };
  const products = productIds.length ? await em.find(ProductEntity, { id: { $in: productIds }, ...scope, deletedAt: null }, { filters: false }) : [];
  const images = imageIds.length ? await em.find(ProductImageEntity, { id: { $in: imageIds }, ...scope }, { filters: false }) : [];
  const productById = new Map(products.map((p) => [p.id, p]));
  const imageById = new Map(images.map((i) => [i.id, i]));
  return detections.map((detection, g) => ({
    detection,
    results: hits[g].flatMap((h): VisualSearchHit[] => {
      const product = productById.get(h.productId);
      const img = imageById.get(h.imageId);
      if (!product || !img) return []; // deleted between the scan and now
      return [{ product, similarityScore: round4(h.score), detectionMetadata: detection, matchedImageId: img.id, matchedImageUrl: imageUrls(publicUrl, img).url, matchedRegion: regionName(h) }];
    }),
  }));
}
