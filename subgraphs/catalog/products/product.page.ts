// A page's relations, read with the page. The `products` query looks at what its items select
// (variants, categories, images, and the variants' price). The page's own statement reads each
// selected relation as a JSON column, whose sub-select the relation's loader gives (from its
// repository: the rows and order of its own statement); the rows then prime that loader, so the
// field resolver (`ctx.loaders.x.loadNow(id)`) answers at once and the page stays on graphql-js's
// synchronous path. One statement for the page and all its relations: each statement more cost a
// round trip and a wake-up of the database on this 2-core machine (docs/performance.md). The
// variants' base prices are read for the whole page at once and prime their loader too. A product
// read another way (a single product, a federated reference) has nothing primed: its field
// resolvers load through the same loaders. The relations are reached through `ctx.loaders` only, so
// the product aggregate imports none of them.
import type { GraphQLResolveInfo } from 'graphql';
import { selectedFields } from '../../../lib/graphql-selection.js';
import type { ChildRowsLoader } from '../../../lib/loaders.js';
import type { CatalogContext } from '../context.js';
import type { ProductData } from './product.type.js';

export type PageRelation = 'variants' | 'categories' | 'images';

/** The loader of each relation a page can read in its statement. */
const RELATIONS: Record<PageRelation, (l: CatalogContext['loaders']) => ChildRowsLoader<unknown>> = {
  variants: (l) => l.variantsByProduct,
  categories: (l) => l.categoriesByProduct,
  images: (l) => l.imagesByProduct,
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
export function relationColumns(ctx: CatalogContext, relations: ReadonlySet<PageRelation>): string {
  return [...relations].map((r) => `, ${RELATIONS[r](ctx.loaders).column()} as _${r}`).join('');
}

const list = (v: unknown) => (Array.isArray(v) ? v : typeof v === 'string' ? (JSON.parse(v) as unknown[]) : []) as Record<string, unknown>[];

/** Prime each relation's loader with the rows the page's statement read (relationColumns), per product. */
export async function primePage(ctx: CatalogContext, rows: readonly Record<string, unknown>[], items: readonly ProductData[], sel: PageSelection): Promise<void> {
  for (const r of sel.relations) {
    const loader = RELATIONS[r](ctx.loaders);
    for (const row of rows) loader.primeRows(row.id as string, list(row[`_${r}`]));
  }
  if (sel.variantPrices) await ctx.loaders.variantBasePrice.primeFrom(items.filter((_, i) => list(rows[i]._variants).length > 0));
}
