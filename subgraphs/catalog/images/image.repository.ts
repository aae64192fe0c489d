// Raw statements of product images; each names the app partition explicitly (the ORM's tenant
// filter does not apply to raw SQL, and the public upload and file requests carry no tenant). The
// reads of a page of products' images (the loader's statement and the product page's JSON column)
// and the row mapper (the entity's) are here too.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { rowMapper } from '../../../lib/row-mapper.js';
import { groupRows } from '../../../lib/loaders.js';
import { ANY_TEXT, jsonList, ofProduct, rowsOfProducts } from '../sql.js';
import { ProductImageEntity } from './image.entity.js';

const T = '"catalog"."product_images"';

/** What an image's GraphQL view reads (toProductImage): an entity, or a mapped row. */
export type ProductImageRow = Pick<
  ProductImageEntity,
  'id' | 'productId' | 'altText' | 'position' | 'isPrimary' | 'width' | 'height' | 'contentType' | 'bytes' | 'thumbnailStatus' | 'embeddingStatus' | 'createdAt'
>;

/** An image row (`select i.*`, or one inside json_agg) as toProductImage reads it, by the entity's metadata (lib/row-mapper.ts). */
export function imageRows(em: EntityManager): (r: Record<string, unknown>) => ProductImageRow {
  return rowMapper<ProductImageRow>(em, ProductImageEntity);
}

/** The images of each product of `ids`, by position (plain rows: read only, no hydration). */
export async function imagesOfProducts(em: EntityManager, part: AppPartition, ids: readonly string[]): Promise<ProductImageRow[][]> {
  const rows = await rowsOfProducts(em, T, part, ids, 'x.position');
  return groupRows(ids, rows, (r) => r.product_id as string).map((g) => g.map(imageRows(em)));
}

/** The product page's column of each product's images (products aliased `p`), as a JSON array of rows. */
export function imagesColumn(): string {
  return `(select coalesce(json_agg(i order by i.position), '[]') from ${T} i where ${ofProduct('i')})`;
}

/** Lock the live product (image writes of one product run one at a time); false when there is none. */
export async function lockProduct(em: EntityManager, part: AppPartition, productId: string): Promise<boolean> {
  const rows = await em.execute(
    `select 1 from "catalog"."products" where id = ? and app_id = ? and environment = ? and deleted_at is null for update`,
    [productId, part.appId, part.environment],
  );
  return rows.length > 0;
}

/** The product's images by position (no tenant filter needed: the partition is named). */
export function imagesOf(em: EntityManager, part: AppPartition, productId: string): Promise<ProductImageEntity[]> {
  return em.find(ProductImageEntity, { productId, appId: part.appId, environment: part.environment }, { orderBy: { position: 'asc' }, filters: false });
}

/** Shift images at or after `from` one place down (an insert) or up (`by` = -1, a removal). */
export async function shiftPositions(em: EntityManager, part: AppPartition, productId: string, from: number, by: 1 | -1): Promise<void> {
  await em.execute(`update ${T} set position = position + ? where product_id = ? and app_id = ? and environment = ? and position >= ?`, [
    by,
    productId,
    part.appId,
    part.environment,
    from,
  ]);
}

/** Positions 0..n-1 in the order of `ids` (all the product's images), in one statement. */
export async function setOrder(em: EntityManager, part: AppPartition, productId: string, ids: readonly string[]): Promise<void> {
  await em.execute(
    `update ${T} i set position = o.n - 1, updated_at = now()
       from jsonb_array_elements_text(?::jsonb) with ordinality as o(id, n)
      where i.id = o.id and i.product_id = ? and i.app_id = ? and i.environment = ?`,
    [jsonList(ids), productId, part.appId, part.environment],
  );
}

/** Make `imageId` the product's only primary image (the partial unique index holds at every statement: unset first). */
export async function setPrimary(em: EntityManager, part: AppPartition, productId: string, imageId: string): Promise<void> {
  await em.execute(`update ${T} set is_primary = false where product_id = ? and app_id = ? and environment = ? and is_primary and id <> ?`, [
    productId,
    part.appId,
    part.environment,
    imageId,
  ]);
  await em.execute(`update ${T} set is_primary = true, updated_at = now() where id = ? and product_id = ?`, [imageId, productId]);
}

/** An image served publicly: the row while its product is live, in any partition. */
export async function servableImage(em: EntityManager, imageId: string): Promise<ProductImageEntity | null> {
  const rows = await em.execute(
    `select i.* from ${T} i join "catalog"."products" p on p.id = i.product_id and p.deleted_at is null where i.id = ?`,
    [imageId],
  );
  return rows[0] ? em.map(ProductImageEntity, rows[0]) : null;
}

/** Ids of images among `ids` that still exist. */
export async function existingImages(em: EntityManager, ids: readonly string[]): Promise<Set<string>> {
  const rows = (await em.execute(`select id from ${T} where id in ${ANY_TEXT}`, [jsonList(ids)])) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** The thumbnail job's outcome on the image row. */
export async function markThumbnailStatus(em: EntityManager, imageId: string, status: 'ready' | 'failed'): Promise<void> {
  await em.execute(`update ${T} set thumbnail_status = ?, updated_at = now() where id = ?`, [status, imageId]);
}

/** A new alt text (null clears it). */
export async function setAltText(em: EntityManager, imageId: string, altText: string | null): Promise<void> {
  await em.execute(`update ${T} set alt_text = ?, updated_at = now() where id = ?`, [altText, imageId]);
}

export async function removeImage(em: EntityManager, imageId: string): Promise<void> {
  await em.execute(`delete from ${T} where id = ?`, [imageId]);
}
