// A page's relations, read before graphql-js walks the page. The `products` query looks at what its
// items select (variants, categories, images, and the variants' price) and loads each for the whole
// page at once, in parallel, through the same per-request loaders the field resolvers use. The field
// resolvers then answer from what was kept here synchronously, so the page stays on graphql-js's
// synchronous path: before, each product took three awaited resolvers and their promises
// (docs/performance.md). A relation not kept here (a single product, or a loader's error) is loaded by
// the field resolver itself, as before.
import type { GraphQLResolveInfo } from 'graphql';
import { selectedFields } from '../../../lib/graphql-selection.js';
import { categoryLoaders } from '../categories/category.loaders.js';
import type { CatalogContext } from '../context.js';
import { imagesByProduct } from '../images/image.loaders.js';
import { priceLoader, type EffectivePriceValue } from '../pricing/pricing.service.js';
import { variantsByProduct } from '../variants/variant.loaders.js';
import type { ProductData } from './product.type.js';

/** What a page keeps per product id: the relation rows, or the base price the variants' prices derive from. */
type Kept = 'variants' | 'categories' | 'images' | 'variantBasePrice';

const pages = new WeakMap<object, Map<Kept, Map<string, unknown>>>();

/** What the page kept for this product, or undefined when it did not (the field resolver loads it). */
export function kept<T>(ctx: CatalogContext, what: Kept, productId: string): T | undefined {
  return pages.get(ctx.loaders)?.get(what)?.get(productId) as T | undefined;
}

function keep(ctx: CatalogContext, what: Kept, ids: readonly string[], values: readonly unknown[]): void {
  let page = pages.get(ctx.loaders);
  if (!page) pages.set(ctx.loaders, (page = new Map()));
  let m = page.get(what);
  if (!m) page.set(what, (m = new Map()));
  // a loader's error is not kept: the field resolver loads again and answers that error at its path
  ids.forEach((id, i) => values[i] instanceof Error || m.set(id, values[i]));
}

/** Load what the page's items select, for every item at once (one statement per relation). */
export async function loadPageRelations(ctx: CatalogContext, info: GraphQLResolveInfo, items: readonly ProductData[]): Promise<void> {
  if (!items.length) return;
  const wanted = selectedFields(info, ['items']);
  const ids = items.map((p) => p.id);
  const work: Promise<void>[] = [];
  if (wanted.has('categories')) work.push(categoryLoaders(ctx).categoriesByProduct.loadMany(ids).then((v) => keep(ctx, 'categories', ids, v)));
  if (wanted.has('images')) work.push(imagesByProduct(ctx).loadMany(ids).then((v) => keep(ctx, 'images', ids, v)));
  if (wanted.has('variants')) {
    const withPrice = selectedFields(info, ['items', 'variants']).has('price');
    work.push(
      variantsByProduct(ctx)
        .loadMany(ids)
        .then(async (lists) => {
          keep(ctx, 'variants', ids, lists);
          if (withPrice) await loadVariantBasePrices(ctx, items.filter((_, i) => Array.isArray(lists[i]) && lists[i].length > 0));
        }),
    );
  }
  await Promise.all(work);
}

/**
 * The effective price (quantity 1, now, the product's own currency) each variant's price derives
 * from, as Variant.price reads it: null for a deleted product or one without a price of its own.
 */
async function loadVariantBasePrices(ctx: CatalogContext, products: readonly ProductData[]): Promise<void> {
  const byCurrency = new Map<string, string[]>();
  const none: string[] = [];
  for (const p of products) {
    if (p.deletedAt || !p.priceCurrency || p.priceAmount == null) none.push(p.id);
    else byCurrency.set(p.priceCurrency, [...(byCurrency.get(p.priceCurrency) ?? []), p.id]);
  }
  keep(ctx, 'variantBasePrice', none, none.map(() => null));
  await Promise.all(
    [...byCurrency].map(async ([currency, ids]) => {
      const prices: (EffectivePriceValue | Error)[] = await priceLoader(ctx, { currency }).loadMany(ids.map((productId) => ({ productId })));
      keep(ctx, 'variantBasePrice', ids, prices);
    }),
  );
}
