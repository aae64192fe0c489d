// What the catalog asks of lib/vision, once for its three users (the embedding job, object detection
// on a product file, visual search): objects of a photo under a use's thresholds, the suggested crop
// of an object, the embedding of a whole photo or of one object's crop, and lib/vision's failures as
// the catalog's error codes.
import sharp from 'sharp';
import { DomainError } from '../../../lib/errors.js';
import { crop, loadImage, VisionError, type Box, type DetectedObject, type Vision, type VisionImage } from '../../../lib/vision/index.js';
import { embeddableObjects, suggestedCropBox, type DetectSettings } from './vision.rules.js';

/** The objects of `image` a use wants (its thresholds), one per thing (lib/vision), surest first; `embeddable`: only those big enough to embed. */
export async function detectObjects(vision: Vision, image: VisionImage, settings: DetectSettings, embeddable = true): Promise<DetectedObject[]> {
  const found = await vision.detect(image, settings);
  return embeddable ? embeddableObjects(found) : found;
}

/** The suggested crop of `box` (widened by CROP_MARGIN) as a new image file. */
export async function cropObject(image: VisionImage, box: Box): Promise<{ bytes: Buffer; mediaType: string; box: Box }> {
  return crop(image, suggestedCropBox(box, image));
}

/** The embedding of one object of `image`: its suggested crop, embedded like any photo. */
export async function embedObject(vision: Vision, image: VisionImage, box: Box): Promise<Float32Array> {
  const c = await cropObject(image, box);
  return vision.embed(await loadImage({ bytes: c.bytes }, { allowPrivate: false }));
}

/**
 * The photo turned clockwise by `degrees` (90, 180, 270), as displayed (EXIF orientation applied
 * first): product images are indexed turned too, so a photo taken sideways still finds its product.
 */
export async function rotatedImage(image: VisionImage, degrees: number): Promise<VisionImage> {
  const upright = await sharp(image.bytes, { limitInputPixels: false }).rotate().toBuffer();
  return loadImage({ bytes: await sharp(upright, { limitInputPixels: false }).rotate(degrees).jpeg({ quality: 90 }).toBuffer() }, { allowPrivate: false });
}

/** lib/vision's failures in the catalog's codes, naming the parameter the image came from. */
export function visionFailure(parameter: string): (e: unknown) => never {
  return (e) => {
    if (!(e instanceof VisionError)) throw e;
    switch (e.kind) {
      case 'model_unavailable':
        throw new DomainError('SERVICE_UNAVAILABLE', `${e.message}. The vision models ship in node_modules (@vladmandic/human, nsfwjs): reinstall them with npm ci and restart the catalog service.`);
      case 'image_too_large':
        throw new DomainError('PAYLOAD_TOO_LARGE', e.message, { parameter });
      case 'image_not_found':
        throw new DomainError('IMAGE_NOT_FOUND', 'The stored image file is missing', { parameter });
      default:
        throw new DomainError('VALIDATION_FAILED', e.message, { parameter });
    }
  };
}
