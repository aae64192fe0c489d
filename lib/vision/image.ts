// Loading an image: from a URL through the kernel's URL guard (lib/net-guard.ts: no private or
// metadata addresses, a deadline, a byte cap), from the object store, or from bytes in hand. The
// format is decided from the first bytes (lib/media-type.ts), never from a Content-Type or a file
// name; sharp then decodes the header, so a truncated or corrupt file is refused here too.
// Dimensions are those after the EXIF orientation is applied (what a viewer shows), and every
// pixel-level helper below applies it the same way, so boxes and crops agree with width/height.
import sharp, { type Metadata, type Sharp } from 'sharp';
import { disproportion, IMAGE_WORK_SECONDS } from '../image-bounds.js';
import { MEDIA_SNIFF_BYTES, sniffMediaType, type MediaType } from '../media-type.js';
import { FetchError, guardedFetch, NetGuardError } from '../net-guard.js';
import { readObject, type ObjectStore } from '../object-store.js';
import { VisionError } from './errors.js';
import type { Box } from './nms.js';

export interface VisionImage {
  bytes: Buffer;
  mediaType: MediaType;
  /** pixels, after EXIF orientation */
  width: number;
  height: number;
}

export type ImageSource = { url: string } | { objectKey: string } | { bytes: Buffer };

export interface LoadImageOptions {
  /** ALLOW_PRIVATE_NETWORK_FETCH (config.allowPrivateNetworkFetch) */
  allowPrivate: boolean;
  /** needed for { objectKey } */
  store?: ObjectStore;
  /** byte cap (default 10 MiB) */
  maxBytes?: number;
  /** decoder pixel cap, width × height (default 40 megapixels) */
  maxPixels?: number;
  /** deadline of a URL fetch, redirects included (default 10 s) */
  timeoutMs?: number;
}

export const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_IMAGE_PIXELS = 40_000_000;
const FORMATS = 'JPEG, PNG, GIF or WebP';

export async function loadImage(source: ImageSource, opts: LoadImageOptions): Promise<VisionImage> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const bytes = 'bytes' in source ? source.bytes : 'url' in source ? await fetchImage(source.url, opts, maxBytes) : await readStored(source.objectKey, opts, maxBytes);
  if (bytes.length > maxBytes) throw new VisionError('image_too_large', `The image has ${bytes.length} bytes; at most ${maxBytes} are accepted`);
  return decodeHeader(bytes, opts.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS);
}

async function fetchImage(url: string, opts: LoadImageOptions, maxBytes: number): Promise<Buffer> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new VisionError('image_unreachable', 'image_url is not an absolute URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new VisionError('image_unreachable', 'image_url must be an http or https URL');
  try {
    const r = await guardedFetch(u.toString(), { allowPrivate: opts.allowPrivate, timeoutMs: opts.timeoutMs ?? 10_000, maxBytes: maxBytes + 1, maxRedirects: 3, headers: { accept: 'image/*' } });
    if (r.status !== 200) throw new VisionError('image_unreachable', `${u.origin} answered HTTP ${r.status} for the image`);
    if (r.truncated || r.body.length > maxBytes) throw new VisionError('image_too_large', `The image is larger than ${maxBytes} bytes`);
    return r.body;
  } catch (e) {
    if (e instanceof VisionError) throw e;
    if (e instanceof NetGuardError) throw new VisionError('image_unreachable', `image_url refused: ${e.message}`);
    if (e instanceof FetchError) throw new VisionError('image_unreachable', `image_url could not be fetched: ${e.message}`);
    throw e;
  }
}

async function readStored(key: string, opts: LoadImageOptions, maxBytes: number): Promise<Buffer> {
  if (!opts.store) throw new Error('loadImage({ objectKey }) needs opts.store');
  let bytes: Buffer | null;
  try {
    bytes = await readObject(opts.store, key, maxBytes);
  } catch (e) {
    if (/larger than/.test((e as Error).message)) throw new VisionError('image_too_large', `The image is larger than ${maxBytes} bytes`);
    throw e;
  }
  if (!bytes) throw new VisionError('image_not_found', `The object store holds no image under ${key}`);
  return bytes;
}

async function decodeHeader(bytes: Buffer, maxPixels: number): Promise<VisionImage> {
  const mediaType = sniffMediaType(bytes.subarray(0, MEDIA_SNIFF_BYTES));
  if (!mediaType) throw new VisionError('invalid_image_format', `The file is not a ${FORMATS} image (decided from its first bytes)`);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (e) {
    throw new VisionError('invalid_image_format', `The ${mediaType} file cannot be decoded: ${(e as Error).message}`);
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new VisionError('invalid_image_format', `The ${mediaType} file has no dimensions`);
  if (width * height > maxPixels) throw new VisionError('image_too_large', `The image has ${width}×${height} pixels; at most ${maxPixels} pixels are accepted`);
  const bomb = disproportion(width, height, bytes.length, mediaType);
  if (bomb) throw new VisionError('image_too_large', bomb);
  // a header can be fine while the pixel data is cut short: decode a tiny version to be sure
  try {
    await pipeline(bytes, width * height).resize(8, 8, { fit: 'fill' }).raw().toBuffer();
  } catch (e) {
    throw new VisionError('invalid_image_format', `The ${mediaType} file cannot be decoded: ${(e as Error).message}`);
  }
  return { bytes, mediaType, width, height };
}

/**
 * sharp on the image's first frame, EXIF orientation applied, transparency flattened on white;
 * the decoder refuses more than `maxPixels` (the header's count, checked in decodeHeader) and
 * libvips stops after IMAGE_WORK_SECONDS.
 */
function pipeline(bytes: Buffer, maxPixels: number): Sharp {
  return sharp(bytes, { limitInputPixels: Math.max(1, maxPixels), failOn: 'error' }).rotate().flatten({ background: '#ffffff' }).timeout({ seconds: IMAGE_WORK_SECONDS });
}

/** RGB bytes (HWC, 3 channels) of the image stretched to width × height (the detector's input). */
export async function rgbPixels(image: VisionImage, width: number, height: number): Promise<Buffer> {
  return pipeline(image.bytes, image.width * image.height).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

/** A box clamped to the image, in whole pixels; throws invalid_box when nothing is left. */
export function clampBox(image: Pick<VisionImage, 'width' | 'height'>, box: Box): Box {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const right = Math.min(image.width, Math.ceil(box.x + box.width));
  const bottom = Math.min(image.height, Math.ceil(box.y + box.height));
  if (![box.x, box.y, box.width, box.height].every(Number.isFinite) || right - x < 1 || bottom - y < 1) {
    throw new VisionError('invalid_box', `The box ${JSON.stringify(box)} has no area inside the ${image.width}×${image.height} image`);
  }
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * The pixels of `box` (in the image's oriented pixels, clamped to it) as a new image file:
 * JPEG for a JPEG source, WebP for WebP, PNG otherwise (GIF's palette would lose colours).
 */
export async function crop(image: VisionImage, box: Box): Promise<{ bytes: Buffer; mediaType: MediaType; box: Box }> {
  const b = clampBox(image, box);
  const region = pipeline(image.bytes, image.width * image.height).extract({ left: b.x, top: b.y, width: b.width, height: b.height });
  if (image.mediaType === 'image/jpeg') return { bytes: await region.jpeg({ quality: 90 }).toBuffer(), mediaType: 'image/jpeg', box: b };
  if (image.mediaType === 'image/webp') return { bytes: await region.webp({ quality: 90 }).toBuffer(), mediaType: 'image/webp', box: b };
  return { bytes: await region.png().toBuffer(), mediaType: 'image/png', box: b };
}
