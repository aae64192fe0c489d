// The variants of a page of products, one statement (product-rows.loader.ts), and the plain row a
// variant's view reads.
import { rowsByProduct } from '../product-rows.loader.js';
import { rowDate, rowNumber } from '../sql.js';
import { VariantEntity } from './variant.entity.js';

/** What a variant's GraphQL view reads (toVariant): an entity, or a row of the page loader. */
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

export const variantsByProduct = rowsByProduct(VariantEntity, 'position, created_at', variantFromRow);
