// Product images: presign → bytes streamed by the REST bridge into the object store → record
// (checked token and receipt, header read by sharp, row written, thumbnail and visual-search
// embedding jobs enqueued in the same transaction) → list, reorder, change alt text or primary,
// delete (row first, files after commit, embeddings with the row),
// and the public file lookup the bridge streams from. Writes of one product's images run one at a
// time under the product's row lock; the product keeps exactly one primary image while it has any.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { readObject } from '../../../lib/object-store.js';
import { acceptStoredUpload, type StoredUploadInput } from '../../../lib/stored-upload.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import { sealObjectRef } from '../../../lib/object-ref.js';
import { signUploadToken, type UploadGrant } from '../../../lib/upload-token.js';
import type { CatalogContext } from '../context.js';
import { getProduct } from '../products/product.service.js';
import { ProductImageEntity } from './image.entity.js';
import { inspectImage } from './image.processing.js';
import { imagesOf, lockProduct, removeImage, servableImage, setAltText, setOrder, setPrimary, shiftPositions } from './image.repository.js';
import {
  ALT_TEXT_MAX,
  checkReorder,
  IMAGE_MAX_BYTES,
  IMAGE_UPLOAD_PURPOSE,
  IMAGE_UPLOAD_TTL_SEC,
  IMAGES_PER_PRODUCT,
  insertPosition,
  cropKey,
  originalKey,
  parseImageFile,
  thumbnailKey,
} from './image.rules.js';
import { enqueueThumbnails } from './image.thumbnails.js';
import { enqueueEmbedding } from './image.embedding-queue.js';

export interface ImageFields {
  altText?: string | null;
  position?: number | null;
  isPrimary?: boolean | null;
}

const notFound = (imageId: string) => new DomainError('IMAGE_NOT_FOUND', `Image ${imageId} not found on this product`, { parameter: 'imageId' });

function checkFields(f: ImageFields): void {
  if (f.altText != null && f.altText.length > ALT_TEXT_MAX) throw new DomainError('VALIDATION_FAILED', `alt_text is longer than ${ALT_TEXT_MAX} characters`, { parameter: 'altText' });
  if (f.position != null && (!Number.isSafeInteger(f.position) || f.position < 0)) throw new DomainError('VALIDATION_FAILED', 'position must be an integer >= 0', { parameter: 'position' });
}

/** A signed upload URL for one image of `productId` (PUT the bytes there); the image id is fixed now. */
export async function presignImageUpload(ctx: CatalogContext, productId: string, fields: ImageFields) {
  checkFields(fields);
  const product = await getProduct(ctx, productId);
  const part = await appPartition(ctx);
  const { publicUrl, uploadSecret } = ctx.runtime.images;
  const imageId = newId('img');
  const owner: Record<string, string> = { app: part.appId, environment: part.environment, product: product.id, image: imageId };
  if (fields.altText != null) owner.altText = fields.altText;
  if (fields.position != null) owner.position = String(fields.position);
  if (fields.isPrimary != null) owner.isPrimary = String(fields.isPrimary);
  const grant: UploadGrant = {
    uploadId: newId('upl'),
    purpose: IMAGE_UPLOAD_PURPOSE,
    owner,
    key: originalKey(part, imageId),
    maxBytes: IMAGE_MAX_BYTES,
    expiresAt: Math.floor(Date.now() / 1000) + IMAGE_UPLOAD_TTL_SEC,
  };
  const token = signUploadToken(grant, uploadSecret);
  return { id: imageId, token, uploadUrl: `${publicUrl}/v1/uploads/${token}`, method: 'PUT', expiresAt: new Date(grant.expiresAt * 1000), maxBytes: grant.maxBytes };
}

/** The fields of an upload: those given with the bytes win over those signed at presign. */
function uploadFields(owner: Record<string, string>, given: ImageFields): ImageFields {
  return {
    altText: given.altText ?? owner.altText ?? null,
    position: given.position ?? (owner.position !== undefined ? Number(owner.position) : null),
    isPrimary: given.isPrimary ?? (owner.isPrimary !== undefined ? owner.isPrimary === 'true' : null),
  };
}

/**
 * The bridge stored an image upload (the signed token and the bridge's receipt are the credentials;
 * the partition and product come from the token). The bridge deletes the object when this refuses.
 */
export async function recordImageUpload(ctx: CatalogContext, token: string, object: StoredUploadInput, given: ImageFields): Promise<ProductImageEntity> {
  const { objects, uploadSecret } = ctx.runtime.images;
  const { grant, stored } = await acceptStoredUpload(objects, uploadSecret, IMAGE_UPLOAD_PURPOSE, token, object);
  const { app, environment, product: productId, image: imageId } = grant.owner;
  if (!app || !environment || !productId || !imageId) throw new DomainError('UPLOAD_SIGNATURE_INVALID', 'This upload URL is not for a product image', { parameter: 'token' });
  const part = { appId: app, environment } as AppPartition;
  const fields = uploadFields(grant.owner, given);
  checkFields(fields);
  const bytes = await readObject(objects, stored.key, IMAGE_MAX_BYTES);
  if (!bytes) throw new DomainError('UPLOAD_NOT_FOUND', 'The uploaded file is no longer stored', { parameter: 'token' });
  const header = await inspectImage(bytes, stored.contentType);
  return ctx.em.fork().transactional(async (em) => {
    if (!(await lockProduct(em, part, productId))) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} not found`, { parameter: 'id' });
    if (await em.findOne(ProductImageEntity, { id: imageId }, { filters: false })) {
      throw new DomainError('IMAGE_UPLOAD_FAILED', 'This upload URL was already used for an image; ask for a new one', { parameter: 'token', meta: { reason: 'already_recorded' } });
    }
    const current = await imagesOf(em, part, productId);
    if (current.length >= IMAGES_PER_PRODUCT) {
      throw new DomainError('IMAGE_UPLOAD_FAILED', `A product has at most ${IMAGES_PER_PRODUCT} images`, { parameter: 'file', meta: { reason: 'too_many_images' } });
    }
    const position = insertPosition(fields.position, current.length);
    await shiftPositions(em, part, productId, position, 1);
    const primary = current.length === 0 || fields.isPrimary === true;
    const img = em.create(ProductImageEntity, {
      id: imageId,
      appId: part.appId,
      environment: part.environment,
      productId,
      objectKey: stored.key,
      contentType: header.contentType,
      bytes: stored.size,
      sha256: stored.sha256,
      width: header.width,
      height: header.height,
      altText: fields.altText ?? null,
      position,
      isPrimary: false,
    });
    await em.flush();
    if (primary) {
      await setPrimary(em, part, productId, imageId);
      img.isPrimary = true;
    }
    const job = { appId: part.appId, environment: part.environment, imageId, objectKey: stored.key };
    await enqueueThumbnails(em, job);
    await enqueueEmbedding(em, job);
    return img;
  });
}

/** Run `fn` on the caller's live product with its image rows locked; answers the product's images after. */
async function imageWrite<T>(ctx: CatalogContext, productId: string, fn: (em: EntityManager, part: AppPartition, images: ProductImageEntity[]) => Promise<T>): Promise<T> {
  await getProduct(ctx, productId);
  const part = await appPartition(ctx);
  return ctx.em.transactional(async (em) => {
    if (!(await lockProduct(em, part, productId))) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} not found`, { parameter: 'id' });
    return fn(em, part, await imagesOf(em, part, productId));
  });
}

export async function listImages(ctx: CatalogContext, productId: string): Promise<ProductImageEntity[]> {
  await getProduct(ctx, productId);
  return imagesOf(ctx.em, await appPartition(ctx), productId);
}

export async function reorderImages(ctx: CatalogContext, productId: string, imageIds: string[]): Promise<ProductImageEntity[]> {
  await imageWrite(ctx, productId, async (em, part, images) => {
    const problem = checkReorder(
      images.map((i) => i.id),
      imageIds,
    );
    if (problem) throw new DomainError('VALIDATION_FAILED', problem, { parameter: 'imageIds' });
    await setOrder(em, part, productId, imageIds);
  });
  return listImages(ctx, productId);
}

export async function updateImage(ctx: CatalogContext, productId: string, imageId: string, f: { altText?: string | null; isPrimary?: boolean | null }): Promise<ProductImageEntity> {
  checkFields(f);
  if (f.isPrimary === false) throw new DomainError('VALIDATION_FAILED', 'A product keeps one primary image: make another image primary instead', { parameter: 'isPrimary' });
  await imageWrite(ctx, productId, async (em, part, images) => {
    const img = images.find((i) => i.id === imageId);
    if (!img) throw notFound(imageId);
    if (f.altText !== undefined) await setAltText(em, imageId, f.altText);
    if (f.isPrimary) await setPrimary(em, part, productId, imageId);
  });
  return (await listImages(ctx, productId)).find((i) => i.id === imageId)!;
}

/**
 * Remove an image: its row now (positions closed up, the first image becomes primary if it was); its
 * files by the job the row's delete enqueues in the same transaction (image.files.ts), at commit.
 */
export async function deleteImage(ctx: CatalogContext, productId: string, imageId: string): Promise<ProductImageEntity> {
  return imageWrite(ctx, productId, async (em, part, images) => {
    const img = images.find((i) => i.id === imageId);
    if (!img) throw notFound(imageId);
    await removeImage(em, imageId);
    await shiftPositions(em, part, productId, img.position + 1, -1);
    const next = images.find((i) => i.id !== imageId);
    if (img.isPrimary && next) await setPrimary(em, part, productId, next.id);
    return img;
  });
}

/** Cache lifetimes of served files: the bytes under an image's URL never change, except a thumbnail still being made. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const PENDING = 'public, max-age=30';

/** The stored object behind a public image URL (no credentials: image URLs are public, their ids unguessable). */
export async function imageFile(ctx: CatalogContext, imageId: string, file: string) {
  const img = await servableImage(ctx.em, imageId);
  const wanted = img ? parseImageFile(file, img.contentType) : null;
  if (!img || !wanted) throw new DomainError('IMAGE_NOT_FOUND', 'No such image file', { parameter: 'file' });
  const { objects, publicUrl, uploadSecret } = ctx.runtime.images;
  // the storage key names the owning app and environment: it leaves this service sealed, for the bridge only
  const served = (contentType: string, key: string, bytes: number, cacheControl: string, name = file) => ({
    url: `${publicUrl}/v1/product-images/${img.id}/${name}`,
    contentType,
    bytes,
    cacheControl,
    storageRef: sealObjectRef(key, uploadSecret),
  });
  if (wanted.kind === 'crop') {
    // a suggested crop exists once object detection stored it (vision/file-processing.service.ts)
    const key = cropKey(img, img.id, file);
    const info = await objects.head(key);
    if (!info) throw new DomainError('IMAGE_NOT_FOUND', 'No such image file', { parameter: 'file' });
    return served(wanted.contentType, key, info.size, IMMUTABLE);
  }
  if (wanted.kind === 'thumbnail' && img.thumbnailStatus === 'ready') {
    const key = thumbnailKey(img, img.id, wanted.name);
    const info = await objects.head(key);
    if (info) return served('image/webp', key, info.size, IMMUTABLE);
  }
  // the original answers for a thumbnail not made yet (or never: an image sharp cannot decode)
  return served(img.contentType, img.objectKey, img.bytes, wanted.kind === 'original' ? IMMUTABLE : PENDING);
}
