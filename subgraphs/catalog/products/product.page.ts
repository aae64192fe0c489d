// A page's relations, read with the page. The `products` query looks at what its items select
// (variants, categories, images, and the variants' price). The page's own statement reads each
// selected relation as a JSON column, whose sub-select comes from that relation's repository (one
// statement for the page and all its relations: each statement more cost a round trip and a wake-up
// of the database on this 2-core machine, docs/performance.md); the rows then prime that relation's
// loader, so its field resolver (`ctx.loaders.x.loadNow(id)`) answers at once and the page stays on
// graphql-js's synchronous path. The variants' base prices are read for the whole page at once and
// prime their loader too. A product read another way (a single product, a federated reference) has
// nothing primed: its field resolvers load through the same loaders.
import type { GraphQLResolveInfo } from 'graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectedFields } from '../../../lib/graphql-selection.js';
import { categoriesColumn, categoryFromRow } from '../categories/category.repository.js';
import type { CatalogContext } from '../context.js';
import { imageFromRow, imagesColumn } from '../images/image.repository.js';
import { primeBasePrices } from '../pricing/pricing.loaders.js';
import { variantFromRow, variantsColumn } from '../variants/variant.repository.js';
import type { ProductData } from './product.type.js';

export type PageRelation = 'variants' | 'categories' | 'images';

/** Per relation: its JSON column (the relation's repository) and the loader its rows prime. */
const RELATIONS: Record<PageRelation, { column(em: EntityManager): string; prime(ctx: CatalogContext, id: string, rows: Record<string, unknown>[]): void }> = {
  variants: { column: variantsColumn, prime: (ctx, id, rows) => ctx.loaders.variantsByProduct.prime(id, rows.map(variantFromRow)) },
  categories: { column: categoriesColumn, prime: (ctx, id, rows) => ctx.loaders.categoriesByProduct.prime(id, rows.map(categoryFromRow)) },
  images: { column: imagesColumn, prime: (ctx, id, rows) => ctx.loaders.imagesByProduct.prime(id, rows.map(imageFromRow)) },
};

export interface PageSelection {
  relations: ReadonlySet<PageRelation>;
  /** the items' variants select their price */
  variantPrices: boolean;
}

/** What a `products` query's items select. */
export function pageSelection(info: GraphQLResolveInfo): PageSelection {
  const wanted = selectedFields(info, ['items']);
  const relations = new Set((Object.keys(RELATIONS) as PageRelation[]).filter((r) => wanted.has(r)));
  return { relations, variantPrices: relations.has('variants') && selectedFields(info, ['items', 'variants']).has('price') };
}

/** Select-list columns of the page's statement (products aliased `p`): `, <sub-select> as _<relation>` each. */
export function relationColumns(em: EntityManager, relations: ReadonlySet<PageRelation>): string {
  return [...relations].map((r) => `, ${RELATIONS[r].column(em)} as _${r}`).join('');
}

const list = (v: unknown) => (Array.isArray(v) ? v : typeof v === 'string' ? (JSON.parse(v) as unknown[]) : []) as Record<string, unknown>[];

/** Prime each relation's loader with the rows the page's statement read (relationColumns), per product. */
export async function primePage(ctx: CatalogContext, rows: readonly Record<string, unknown>[], items: readonly ProductData[], sel: PageSelection): Promise<void> {
  for (const r of sel.relations) for (const row of rows) RELATIONS[r].prime(ctx, row.id as string, list(row[`_${r}`]));
  if (sel.variantPrices) await primeBasePrices(ctx, items.filter((p, i) => list(rows[i]._variants).length > 0));
}
