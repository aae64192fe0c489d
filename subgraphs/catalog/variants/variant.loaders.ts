// Per-request loader of the variants of a page of products: one statement for the whole page. It
// hangs off the request's loaders object (a WeakMap entry), so it lives exactly as long as the request.
// Read only, a page at a time: plain rows, without the ORM's hydration and identity map.
import DataLoader from 'dataloader';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { ANY_TEXT, jsonList, tableOf } from '../sql.js';
import { VariantEntity } from './variant.entity.js';

/** What a variant's GraphQL view reads (toVariant): an entity, or a row of the page loader. */
export type VariantRow = Pick<
  VariantEntity,
  'id' | 'productId' | 'name' | 'sku' | 'options' | 'priceModifierType' | 'priceModifierAmount' | 'inventoryQuantity' | 'trackStock' | 'weight' | 'position' | 'createdAt' | 'updatedAt'
>;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));

export function variantFromRow(r: Record<string, unknown>): VariantRow {
  return {
    id: r.id as string,
    productId: r.product_id as string,
    name: r.name as string,
    sku: r.sku as string,
    options: r.options as Record<string, string>,
    priceModifierType: (r.price_modifier_type as VariantRow['priceModifierType']) ?? null,
    priceModifierAmount: r.price_modifier_amount == null ? null : Number(r.price_modifier_amount),
    inventoryQuantity: Number(r.inventory_quantity),
    trackStock: r.track_stock as boolean,
    weight: (r.weight as VariantRow['weight']) ?? null,
    position: Number(r.position),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  } as VariantRow;
}

const perRequest = new WeakMap<object, DataLoader<string, VariantRow[]>>();

export function variantsByProduct(ctx: CatalogContext): DataLoader<string, VariantRow[]> {
  let l = perRequest.get(ctx.loaders);
  if (!l) {
    l = new DataLoader(async (ids) => {
      const { appId, environment } = await appPartition(ctx);
      const rows = (await ctx.em.execute(
        `select * from ${tableOf(ctx.em, VariantEntity)} where app_id = ? and environment = ? and product_id in ${ANY_TEXT} order by product_id, position, created_at`,
        [appId, environment, jsonList(ids)],
        'all',
      )) as Record<string, unknown>[];
      const byProduct = new Map<string, VariantRow[]>(ids.map((id) => [id, []]));
      for (const r of rows) byProduct.get(r.product_id as string)?.push(variantFromRow(r));
      return ids.map((id) => byProduct.get(id)!);
    });
    perRequest.set(ctx.loaders, l);
  }
  return l;
}
