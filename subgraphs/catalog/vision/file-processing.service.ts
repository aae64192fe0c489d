// POST /v1/products/:id/files/:file_id/process (processing_mode object_detection): the detector
// runs on a product image (the file id is the image id), and every object it finds gets a suggested
// crop, stored beside the image's thumbnails and served under the image's public URL
// (crop-<x>-<y>-<w>-<h>.<ext>: the same box of the same image is always the same file). Nothing else
// is stored: the answer is the processing result.
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import { loadImage, VISION_METHODS, type Box } from '../../../lib/vision/index.js';
import type { CatalogContext } from '../context.js';
import { existingImages } from '../images/image.repository.js';
import { ProductImageEntity } from '../images/image.entity.js';
import { cropFile, cropKey, IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, imageFileUrl } from '../images/image.rules.js';
import { getProduct } from '../products/product.service.js';
import { cropObject, detectObjects, visionFailure } from './vision.regions.js';
import { DETECT_FOR_PROCESSING, PROCESSING_MODES, round4, type ProcessingMode } from './vision.rules.js';

export interface DetectedProductObject {
  objectIndex: number;
  class: string;
  confidence: number;
  bbox: Box;
  /** the suggested crop's public URL */
  suggestedCrop: string;
  /** the box the crop covers (the object's box widened by CROP_MARGIN, inside the image) */
  cropBox: Box;
}

export interface FileProcessingResult {
  id: string;
  productId: string;
  fileId: string;
  processingMode: ProcessingMode;
  objectsDetected: number;
  detectionMetadata: DetectedProductObject[];
  processingStatus: 'completed';
  processedAt: Date;
  width: number;
  height: number;
  model: string;
  processingTimeMs: number;
}

const notFound = (fileId: string) => new DomainError('IMAGE_NOT_FOUND', `File ${fileId} is not an image of this product`, { parameter: 'fileId' });

export async function processProductFile(ctx: CatalogContext, productId: string, fileId: string, mode: string | null | undefined): Promise<FileProcessingResult> {
  if (!mode) throw new DomainError('VALIDATION_FAILED', 'processing_mode is required', { parameter: 'processingMode' });
  if (!(PROCESSING_MODES as readonly string[]).includes(mode)) {
    throw new DomainError('VALIDATION_FAILED', `processing_mode must be one of ${PROCESSING_MODES.join(', ')}`, { parameter: 'processingMode' });
  }
  await getProduct(ctx, productId);
  const part = await appPartition(ctx);
  const img = await ctx.em.findOne(ProductImageEntity, { id: fileId, productId, appId: part.appId, environment: part.environment }, { filters: false });
  if (!img) throw notFound(fileId);
  const began = performance.now();
  const { objects, publicUrl } = ctx.runtime.images;
  const image = await loadImage({ objectKey: img.objectKey }, { allowPrivate: false, store: objects, maxBytes: IMAGE_MAX_BYTES, maxPixels: IMAGE_MAX_PIXELS }).catch(visionFailure('fileId'));
  const found = await detectObjects(ctx.runtime.vision, image, DETECT_FOR_PROCESSING, false).catch(visionFailure('fileId'));
  const cropped = await Promise.all(
    found.map(async (o, objectIndex) => {
      const c = await cropObject(image, o.bbox);
      const file = cropFile(c.box, c.mediaType);
      const key = cropKey(part, img.id, file);
      await objects.put(key, c.bytes, { contentType: c.mediaType });
      const meta: DetectedProductObject = { objectIndex, class: o.label, confidence: round4(o.confidence), bbox: o.bbox, suggestedCrop: imageFileUrl(publicUrl, img.id, file), cropBox: c.box };
      return { meta, key };
    }),
  );
  // deleted while we worked: its delete removed the crops that existed then, we remove what we wrote
  if (!(await existingImages(ctx.em, [img.id])).has(img.id)) {
    await Promise.all(cropped.map((c) => objects.delete(c.key)));
    throw notFound(fileId);
  }
  const detectionMetadata = cropped.map((c) => c.meta);
  return {
    id: newId('fpr'),
    productId,
    fileId: img.id,
    processingMode: mode as ProcessingMode,
    objectsDetected: detectionMetadata.length,
    detectionMetadata,
    processingStatus: 'completed',
    processedAt: new Date(),
    width: image.width,
    height: image.height,
    model: VISION_METHODS.detector,
    processingTimeMs: Math.round(performance.now() - began),
  };
}
