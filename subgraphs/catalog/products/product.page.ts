// A page's relations, read with the page. The `products` query looks at what its items select
// (variants, categories, images, and the variants' price): the page's own statement reads each
// product's variants, categories and images as JSON columns (one statement for the page and all its
// relations: each statement more cost a round trip and a wake-up of the database on this 2-core
// machine, docs/performance.md), and the variants' base prices are read for the whole page at once.
// The field resolvers then answer from what was kept here synchronously, so the page stays on the
// synchronous path: before, each product took three awaited resolvers and their promises. A relation
// not kept here (a single product, a federated reference) is loaded by the field resolver itself.
import type { GraphQLResolveInfo } from 'graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectedFields } from '../../../lib/graphql-selection.js';
import { CategoryEntity, ProductCategoryEntity } from '../categories/category.entity.js';
import { categoryFromRow } from '../categories/category.loaders.js';
import type { CatalogContext } from '../context.js';
import { ProductImageEntity } from '../images/image.entity.js';
import { imageFromRow } from '../images/image.loaders.js';
import { priceLoader, type EffectivePriceValue } from '../pricing/pricing.service.js';
import { tableOf } from '../sql.js';
import { VariantEntity } from '../variants/variant.entity.js';
import { variantFromRow } from '../variants/variant.loaders.js';
import type { ProductData } from './product.type.js';

export type PageRelation = 'variants' | 'categories' | 'images';

/** What a page keeps per product id: the relation rows, or the base price the variants' prices derive from. */
type Kept = PageRelation | 'variantBasePrice';

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

const RELATIONS: readonly PageRelation[] = ['variants', 'categories', 'images'];

/** The relations a `products` query's items select. */
export function pageRelations(info: GraphQLResolveInfo): Set<PageRelation> {
  const wanted = selectedFields(info, ['items']);
  return new Set(RELATIONS.filter((r) => wanted.has(r)));
}

/**
 * Select-list columns of the page's statement (products aliased `p`): each selected relation of a
 * product as a JSON array, in the order its loader reads it, within the product's partition.
 */
export function relationColumns(em: EntityManager, relations: ReadonlySet<PageRelation>): string {
  const same = (a: string) => `${a}.product_id = p.id and ${a}.app_id = p.app_id and ${a}.environment = p.environment`;
  const cols: string[] = [];
  if (relations.has('variants')) cols.push(`(select coalesce(json_agg(v order by v.position, v.created_at), '[]') from ${tableOf(em, VariantEntity)} v where ${same('v')}) as _variants`);
  if (relations.has('categories')) {
    cols.push(
      `(select coalesce(json_agg(c order by c.position, c.name, c.id), '[]') from ${tableOf(em, ProductCategoryEntity)} pc join ${tableOf(em, CategoryEntity)} c on c.id = pc.category_id where ${same('pc')}) as _categories`,
    );
  }
  if (relations.has('images')) cols.push(`(select coalesce(json_agg(i order by i.position), '[]') from ${tableOf(em, ProductImageEntity)} i where ${same('i')}) as _images`);
  return cols.map((c) => `, ${c}`).join('');
}

/** Keep the relations the page's statement read (relationColumns), per product. */
export function keepPageRelations(ctx: CatalogContext, rows: readonly Record<string, unknown>[], relations: ReadonlySet<PageRelation>): void {
  const ids = rows.map((r) => r.id as string);
  const list = (v: unknown) => (Array.isArray(v) ? v : typeof v === 'string' ? (JSON.parse(v) as unknown[]) : []) as Record<string, unknown>[];
  if (relations.has('variants')) keep(ctx, 'variants', ids, rows.map((r) => list(r._variants).map(variantFromRow)));
  if (relations.has('categories')) keep(ctx, 'categories', ids, rows.map((r) => list(r._categories).map(categoryFromRow)));
  if (relations.has('images')) keep(ctx, 'images', ids, rows.map((r) => list(r._images).map(imageFromRow)));
}

/**
 * The effective price (quantity 1, now, the product's own currency) each variant's price derives
 * from, as Variant.price reads it, for the page's products that have variants (when the query selects
 * their price): null for a deleted product or one without a price of its own.
 */
export async function loadVariantBasePrices(ctx: CatalogContext, info: GraphQLResolveInfo, items: readonly ProductData[]): Promise<void> {
  if (!selectedFields(info, ['items', 'variants']).has('price')) return;
  const withVariants = items.filter((p) => (kept<unknown[]>(ctx, 'variants', p.id)?.length ?? 0) > 0);
  const byCurrency = new Map<string, string[]>();
  const none: string[] = [];
  for (const p of withVariants) {
    if (p.deletedAt || !p.priceCurrency || p.priceAmount == null) none.push(p.id);
    else {
      const ids = byCurrency.get(p.priceCurrency);
      if (ids) ids.push(p.id);
      else byCurrency.set(p.priceCurrency, [p.id]);
    }
  }
  keep(ctx, 'variantBasePrice', none, none.map(() => null));
  await Promise.all(
    [...byCurrency].map(async ([currency, ids]) => {
      const prices: (EffectivePriceValue | Error)[] = await priceLoader(ctx, { currency }).loadMany(ids.map((productId) => ({ productId })));
      keep(ctx, 'variantBasePrice', ids, prices);
    }),
  );
}
