// The images of a page of products (include=images), one statement (product-rows.loader.ts), and the
// plain row an image's view reads.
import { rowsByProduct } from '../product-rows.loader.js';
import { rowDate } from '../sql.js';
import { ProductImageEntity } from './image.entity.js';

/** What an image's GraphQL view reads (toProductImage): an entity, or a row of the page loader. */
export type ProductImageRow = Pick<
  ProductImageEntity,
  'id' | 'productId' | 'altText' | 'position' | 'isPrimary' | 'width' | 'height' | 'contentType' | 'bytes' | 'thumbnailStatus' | 'embeddingStatus' | 'createdAt'
>;

export function imageFromRow(r: Record<string, unknown>): ProductImageRow {
  return {
    id: r.id as string,
    productId: r.product_id as string,
    altText: (r.alt_text as string | null) ?? null,
    position: Number(r.position),
    isPrimary: r.is_primary as boolean,
    width: Number(r.width),
    height: Number(r.height),
    contentType: r.content_type as string,
    bytes: Number(r.bytes),
    thumbnailStatus: r.thumbnail_status as ProductImageRow['thumbnailStatus'],
    embeddingStatus: r.embedding_status as ProductImageRow['embeddingStatus'],
    createdAt: rowDate(r.created_at),
  } as ProductImageRow;
}

export const imagesByProduct = rowsByProduct(ProductImageEntity, 'position', imageFromRow);
