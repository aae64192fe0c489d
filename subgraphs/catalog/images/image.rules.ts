// Pure rules of product images: limits, thumbnail sizes, object keys and public file names.
import { MiB } from '../../../lib/http.js';
import type { MediaType } from '../../../lib/media-type.js';

/** the largest image file taken (the spec's upload limit for product images) */
export const IMAGE_MAX_BYTES = 10 * MiB;
/** the grant purpose of product image uploads: upload routes take only these */
export const IMAGE_UPLOAD_PURPOSE = 'product_image';
/** a presigned product image upload URL stays valid this long */
export const IMAGE_UPLOAD_TTL_SEC = 15 * 60;
/** decoded images above this many pixels are refused (a small file can decode to gigabytes) */
export const IMAGE_MAX_PIXELS = 60_000_000;
export const IMAGE_MAX_SIDE = 16_000;
export const ALT_TEXT_MAX = 512;
/** images per product */
export const IMAGES_PER_PRODUCT = 50;

/** Thumbnails: WebP, fitted inside a square of this many pixels a side, never enlarged. */
export const THUMBNAIL_SIZES = { small: 150, medium: 480, large: 1024 } as const;
export type ThumbnailName = keyof typeof THUMBNAIL_SIZES;
export const THUMBNAIL_NAMES = Object.keys(THUMBNAIL_SIZES) as ThumbnailName[];
export type ThumbnailStatus = 'pending' | 'ready' | 'failed';
/** the image embedding of visual search (subgraphs/catalog/vision): made by a job like the thumbnails */
export type EmbeddingStatus = 'pending' | 'ready' | 'failed';

export const ORIGINAL_EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };
export const IMAGE_TYPES: readonly MediaType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** The object-store folder of one image: catalog/<app>/<environment>/images/<image id>. */
export function imageFolder(p: { appId: string; environment: string }, imageId: string): string {
  return `catalog/${p.appId}/${p.environment}/images/${imageId}`;
}

export const originalKey = (p: { appId: string; environment: string }, imageId: string) => `${imageFolder(p, imageId)}/original`;
export const thumbnailKey = (p: { appId: string; environment: string }, imageId: string, name: ThumbnailName) => `${imageFolder(p, imageId)}/${name}.webp`;

/**
 * A suggested crop of an image (object detection on a product file): named after its box, so the
 * same box of the same image is the same file (the bytes under its URL never change) and a second
 * run of the detector rewrites what it wrote before.
 */
export const cropFile = (box: { x: number; y: number; width: number; height: number }, contentType: string) =>
  `crop-${box.x}-${box.y}-${box.width}-${box.height}.${ORIGINAL_EXTENSIONS[contentType] ?? 'bin'}`;
export const cropFolder = (p: { appId: string; environment: string }, imageId: string) => `${imageFolder(p, imageId)}/crops`;
export const cropKey = (p: { appId: string; environment: string }, imageId: string, file: string) => `${cropFolder(p, imageId)}/${file}`;
const CROP_FILE = /^crop-\d{1,5}-\d{1,5}-\d{1,5}-\d{1,5}\.(jpg|png|webp)$/;
const CROP_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** The public file name of the original (`original.jpg`). */
export const originalFile = (contentType: string) => `original.${ORIGINAL_EXTENSIONS[contentType] ?? 'bin'}`;

/** The public URL of one file of an image. */
export const imageFileUrl = (publicUrl: string, imageId: string, file: string) => `${publicUrl}/v1/product-images/${imageId}/${file}`;

/** Public URLs of an image's files: PUBLIC_URL/v1/product-images/<image id>/<file>. */
export function imageUrls(publicUrl: string, img: { id: string; contentType: string }): { url: string; thumbnails: Record<ThumbnailName, string> } {
  const base = `${publicUrl}/v1/product-images/${img.id}`;
  return {
    url: `${base}/${originalFile(img.contentType)}`,
    thumbnails: { small: `${base}/small.webp`, medium: `${base}/medium.webp`, large: `${base}/large.webp` },
  };
}

/** What a public file name asks for: the original (with its own extension), a thumbnail or a suggested crop; null otherwise. */
export function parseImageFile(
  file: string,
  contentType: string,
): { kind: 'original' } | { kind: 'thumbnail'; name: ThumbnailName } | { kind: 'crop'; contentType: string } | null {
  if (file === originalFile(contentType)) return { kind: 'original' };
  const crop = CROP_FILE.exec(file);
  if (crop) return { kind: 'crop', contentType: CROP_TYPES[crop[1]] };
  const m = /^(small|medium|large)\.webp$/.exec(file);
  return m ? { kind: 'thumbnail', name: m[1] as ThumbnailName } : null;
}

/** Where an image lands among `count` others: a requested position is clamped into 0..count; none appends. */
export function insertPosition(requested: number | null | undefined, count: number): number {
  if (requested === null || requested === undefined) return count;
  return Math.max(0, Math.min(requested, count));
}

/** A reorder must name every image of the product exactly once; the first problem otherwise. */
export function checkReorder(current: readonly string[], ordered: readonly string[]): string | null {
  if (new Set(ordered).size !== ordered.length) return 'image_ids names an image twice';
  const known = new Set(current);
  const unknown = ordered.find((id) => !known.has(id));
  if (unknown) return `image ${unknown} is not an image of this product`;
  if (ordered.length !== current.length) return `image_ids must list all ${current.length} images of the product (got ${ordered.length})`;
  return null;
}
