// The read statements of variants: a page of products' variants in one statement (the loader's), the
// JSON column the product page's own statement reads them by, and the one mapper from a row.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { groupRows, ofProduct, rowDate, rowNumber, rowsOfProducts, tableOf } from '../sql.js';
import { VariantEntity } from './variant.entity.js';

/** A product's variants in this order (the loader and the page's column alike). */
const ORDER = (a: string) => `${a}.position, ${a}.created_at`;

/** What a variant's GraphQL view reads (toVariant): an entity, or a mapped row. */
export type VariantRow = Pick<
  VariantEntity,
  'id' | 'productId' | 'name' | 'sku' | 'options' | 'priceModifierType' | 'priceModifierAmount' | 'inventoryQuantity' | 'trackStock' | 'weight' | 'position' | 'createdAt' | 'updatedAt'
>;

export function variantFromRow(r: Record<string, unknown>): VariantRow {
  return {
    id: r.id as string,
    productId: r.product_id as string,
    name: r.name as string,
    sku: r.sku as string,
    options: r.options as Record<string, string>,
    priceModifierType: (r.price_modifier_type as VariantRow['priceModifierType']) ?? null,
    priceModifierAmount: rowNumber(r.price_modifier_amount),
    inventoryQuantity: Number(r.inventory_quantity),
    trackStock: r.track_stock as boolean,
    weight: (r.weight as VariantRow['weight']) ?? null,
    position: Number(r.position),
    createdAt: rowDate(r.created_at),
    updatedAt: rowDate(r.updated_at),
  } as VariantRow;
}

/** The variants of each product of `ids`, in order (plain rows: read only, no hydration). */
export async function variantsOfProducts(em: EntityManager, part: AppPartition, ids: readonly string[]): Promise<VariantRow[][]> {
  const rows = await rowsOfProducts(em, tableOf(em, VariantEntity), part, ids, ORDER('x'));
  return groupRows(ids, rows, (r) => r.product_id as string).map((g) => g.map(variantFromRow));
}

/** The product page's column of each product's variants (products aliased `p`), as a JSON array of rows. */
export function variantsColumn(em: EntityManager): string {
  return `(select coalesce(json_agg(v order by ${ORDER('v')}), '[]') from ${tableOf(em, VariantEntity)} v where ${ofProduct('v')})`;
}
