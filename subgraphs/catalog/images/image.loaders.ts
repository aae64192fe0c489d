// Per-request loader of the images of a page of products (include=images): one statement for the
// whole page, plain rows without the ORM's hydration (read only). It hangs off the request's loaders
// object (a WeakMap entry), so it lives exactly as long as the request.
import DataLoader from 'dataloader';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { ANY_TEXT, jsonList, tableOf } from '../sql.js';
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
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at as string),
  } as ProductImageRow;
}

const perRequest = new WeakMap<object, DataLoader<string, ProductImageRow[]>>();

export function imagesByProduct(ctx: CatalogContext): DataLoader<string, ProductImageRow[]> {
  let l = perRequest.get(ctx.loaders);
  if (!l) {
    l = new DataLoader(async (ids) => {
      const { appId, environment } = await appPartition(ctx);
      const rows = (await ctx.em.execute(
        `select * from ${tableOf(ctx.em, ProductImageEntity)} where app_id = ? and environment = ? and product_id in ${ANY_TEXT} order by product_id, position`,
        [appId, environment, jsonList(ids)],
        'all',
      )) as Record<string, unknown>[];
      const byProduct = new Map<string, ProductImageRow[]>(ids.map((id) => [id, []]));
      for (const r of rows) byProduct.get(r.product_id as string)?.push(imageFromRow(r));
      return ids.map((id) => byProduct.get(id)!);
    });
    perRequest.set(ctx.loaders, l);
  }
  return l;
}
