// Pure rules of the catalog's product-photo features (docs/catalog-images.md, "Object detection" and
// "Visual search"): detector thresholds per use, the suggested crop around a detected box, which
// detected objects are worth an embedding, and the limits of a visual search.
import type { Box } from '../../../lib/vision/index.js';

export interface DetectSettings {
  minConfidence: number;
  maxObjects: number;
}

/** Object detection on a product file: every object a merchant may want cut out. */
export const DETECT_FOR_PROCESSING: DetectSettings = { minConfidence: 0.3, maxObjects: 20 };
/** Objects of a product image indexed on their own (beside the whole image). */
export const DETECT_FOR_INDEX: DetectSettings = { minConfidence: 0.4, maxObjects: 4 };
/** Objects of a visual-search photo searched on their own: each costs one embedding (≈100–300 ms). */
export const DETECT_FOR_SEARCH: DetectSettings = { minConfidence: 0.4, maxObjects: 5 };

/**
 * Turns of the whole product image indexed beside it (clockwise degrees): a query photo taken
 * sideways or upside down then meets an upright copy (docs/catalog-images.md, Retrieval quality).
 */
export const INDEXED_ROTATIONS = [90, 180, 270] as const;

/** An object narrower or lower than this many pixels is too small to embed (MobileNetV2 sees 224×224). */
export const MIN_OBJECT_SIDE = 32;
/** The suggested crop adds this share of the box's width and height on each side (clamped to the image). */
export const CROP_MARGIN = 0.05;

/** The processing modes of POST /v1/products/:id/files/:file_id/process. */
export const PROCESSING_MODES = ['object_detection'] as const;
export type ProcessingMode = (typeof PROCESSING_MODES)[number];

/**
 * Visual search: results per search (per object in a multi-object search). At most 20, so that 5
 * searches of 20 products stay within the gateway's query cost limit (docs/catalog-images.md).
 */
export const VISUAL_SEARCH_DEFAULT_PER_PAGE = 10;
export const VISUAL_SEARCH_MAX_PER_PAGE = 20;
/** the grant purpose of visual-search query images (rest-bridge multipart route) */
export const VISUAL_SEARCH_PURPOSE = 'visual_search_image';
/** a query image is kept only while its search runs; its upload grant is valid this long */
export const VISUAL_SEARCH_UPLOAD_TTL_SEC = 5 * 60;

/** Where a query image waits for its search: catalog/<app>/<env>/visual-search/<upload id>. */
export const visualSearchKey = (p: { appId: string; environment: string }, uploadId: string) => `catalog/${p.appId}/${p.environment}/visual-search/${uploadId}`;

/** `box` widened by CROP_MARGIN on each side, in whole pixels, inside the image. */
export function suggestedCropBox(box: Box, image: { width: number; height: number }): Box {
  const mx = box.width * CROP_MARGIN;
  const my = box.height * CROP_MARGIN;
  const x = Math.max(0, Math.floor(box.x - mx));
  const y = Math.max(0, Math.floor(box.y - my));
  const right = Math.min(image.width, Math.ceil(box.x + box.width + mx));
  const bottom = Math.min(image.height, Math.ceil(box.y + box.height + my));
  return { x, y, width: Math.max(1, right - x), height: Math.max(1, bottom - y) };
}


/** Objects big enough to embed on their own. */
export function embeddableObjects<T extends { bbox: Box }>(objects: readonly T[]): T[] {
  return objects.filter((o) => o.bbox.width >= MIN_OBJECT_SIDE && o.bbox.height >= MIN_OBJECT_SIDE);
}

/** A rounded score (4 decimals), as every similarity and confidence is answered. */
export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
