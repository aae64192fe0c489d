// The read statements of variants: a page of products' variants in one statement (the loader's), the
// JSON column the product page's own statement reads them by, and the row mapper (the entity's).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { rowMapper } from '../../../lib/row-mapper.js';
import { groupRows } from '../../../lib/loaders.js';
import { ofProduct, rowsOfProducts, tableOf } from '../sql.js';
import { VariantEntity } from './variant.entity.js';

/** A product's variants in this order (the loader and the page's column alike). */
const ORDER = (a: string) => `${a}.position, ${a}.created_at`;

/** What a variant's GraphQL view reads (toVariant): an entity, or a mapped row (variantRows). */
export type VariantRow = Pick<
  VariantEntity,
  'id' | 'productId' | 'name' | 'sku' | 'options' | 'priceModifierType' | 'priceModifierAmount' | 'inventoryQuantity' | 'trackStock' | 'weight' | 'position' | 'createdAt' | 'updatedAt'
>;

/** A variant row (`select v.*`, or one inside json_agg) as toVariant reads it, by the entity's metadata (lib/row-mapper.ts). */
export function variantRows(em: EntityManager): (r: Record<string, unknown>) => VariantRow {
  return rowMapper<VariantRow>(em, VariantEntity);
}

/** The variants of each product of `ids`, in order (plain rows: read only, no hydration). */
export async function variantsOfProducts(em: EntityManager, part: AppPartition, ids: readonly string[]): Promise<VariantRow[][]> {
  const rows = await rowsOfProducts(em, tableOf(em, VariantEntity), part, ids, ORDER('x'));
  return groupRows(ids, rows, (r) => r.product_id as string).map((g) => g.map(variantRows(em)));
}

/** The product page's column of each product's variants (products aliased `p`), as a JSON array of rows. */
export function variantsColumn(em: EntityManager): string {
  return `(select coalesce(json_agg(v order by ${ORDER('v')}), '[]') from ${tableOf(em, VariantEntity)} v where ${ofProduct('v')})`;
}
