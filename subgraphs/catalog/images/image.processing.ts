// The pixels of product images, through sharp (libvips): what an upload is (format and displayed
// size, read from its header without decoding it; refused when its pixels are out of proportion to
// its bytes, lib/image-bounds.ts) and its WebP thumbnails (decoded once, shrunk on load where the
// format allows, EXIF orientation applied, bounded in pixels and time).
import sharp, { type Metadata } from 'sharp';
import { DomainError } from '../../../lib/errors.js';
import { disproportion, IMAGE_WORK_SECONDS } from '../../../lib/image-bounds.js';
import { IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE, THUMBNAIL_NAMES, THUMBNAIL_SIZES, type ThumbnailName } from './image.rules.js';

const FORMAT_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

export interface ImageHeader {
  contentType: string;
  /** as displayed: EXIF orientation applied */
  width: number;
  height: number;
}

const refused = (reason: string, message: string) => new DomainError('IMAGE_UPLOAD_FAILED', message, { parameter: 'file', meta: { reason } });

/** The header of an uploaded image; IMAGE_UPLOAD_FAILED (parameter `file`, meta.reason) when it is not one we can use. */
export async function inspectImage(bytes: Buffer, declaredType: string): Promise<ImageHeader> {
  let m: Metadata;
  try {
    m = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refused('undecodable', `The file starts like ${declaredType} but cannot be read as an image`);
  }
  const contentType = FORMAT_TYPES[m.format ?? ''];
  if (!contentType || contentType !== declaredType) throw refused('unsupported_type', `The file is ${m.format ?? 'of an unknown format'}; product images are JPEG, PNG, WebP or GIF`);
  const width = m.autoOrient?.width ?? m.width;
  const height = m.autoOrient?.height ?? m.height;
  if (!width || !height) throw refused('undecodable', 'The image has no size');
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE || width * height > IMAGE_MAX_PIXELS) {
    throw refused('too_many_pixels', `The image is ${width}×${height}; product images are at most ${IMAGE_MAX_SIDE} pixels a side and ${IMAGE_MAX_PIXELS / 1e6} megapixels`);
  }
  const bomb = disproportion(width, height, bytes.length, contentType);
  if (bomb) throw refused('disproportionate', bomb);
  return { contentType, width, height };
}

/**
 * The three WebP thumbnails of an image. The original is decoded once (shrunk on load where the
 * format allows, EXIF orientation applied) into the raw pixels of the largest thumbnail; every
 * thumbnail is encoded from those pixels.
 */
export async function makeThumbnails(bytes: Buffer): Promise<Record<ThumbnailName, Buffer>> {
  const largest = Math.max(...Object.values(THUMBNAIL_SIZES));
  const { data, info } = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, animated: false })
    .rotate()
    .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true })
    .timeout({ seconds: IMAGE_WORK_SECONDS })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const encoded = await Promise.all(
    THUMBNAIL_NAMES.map((name) => {
      const side = THUMBNAIL_SIZES[name];
      return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80, effort: 2 })
        .timeout({ seconds: IMAGE_WORK_SECONDS })
        .toBuffer();
    }),
  );
  return Object.fromEntries(THUMBNAIL_NAMES.map((n, i) => [n, encoded[i]])) as Record<ThumbnailName, Buffer>;
}
