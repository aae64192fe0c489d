// Per-request loaders of the category aggregate: one statement per relation for a whole page (no
// query per category); the statements are in category.repository.ts.
import DataLoader from 'dataloader';
import { ChildRowsLoader, groupRows, loaderFamily } from '../../../lib/loaders.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import type { ProductData } from '../products/product.type.js';
import { CategoryEntity, type CategoryRow } from './category.entity.js';
import { categoriesColumn, categoriesOfProducts, categoryRows, newestProductsOf, productCountsOf } from './category.repository.js';

declare module '../context.js' {
  interface CatalogLoaders {
    categoryById: DataLoader<string, CategoryEntity | null>;
    /** the category an id or a slug names (`filter.category` of the product list), the id first */
    categoryByRef: DataLoader<string, CategoryEntity | null>;
    /** direct children, by position */
    childrenByParent: DataLoader<string, CategoryEntity[]>;
    /** products (not deleted) assigned directly to the category */
    productCountByCategory: DataLoader<string, number>;
    /** the first `limit` products of each category, newest first (as the product list) */
    productsByCategory(limit: number): DataLoader<string, ProductData[]>;
    /** categories of each product, by position then name (`Product.categories`); the product page primes it */
    categoriesByProduct: ChildRowsLoader<CategoryRow>;
  }
}

type Own = Pick<CatalogContext['loaders'], 'categoryById' | 'categoryByRef' | 'childrenByParent' | 'productCountByCategory' | 'productsByCategory' | 'categoriesByProduct'>;

export function categoryLoaders(ctx: CatalogContext): Own {
  const { em } = ctx;
  const part = () => appPartition(ctx);
  return {
    categoryById: new DataLoader(async (ids) => {
      const rows = await em.find(CategoryEntity, { id: { $in: [...ids] } });
      const m = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => m.get(id) ?? null);
    }),
    categoryByRef: new DataLoader(async (refs) => {
      const rows = await em.find(CategoryEntity, { $or: [{ id: { $in: [...refs] } }, { slug: { $in: [...refs] } }] });
      return refs.map((r) => rows.find((c) => c.id === r) ?? rows.find((c) => c.slug === r) ?? null);
    }),
    childrenByParent: new DataLoader(async (ids) =>
      groupRows(ids, await em.find(CategoryEntity, { parentId: { $in: [...ids] } }, { orderBy: { position: 'asc', id: 'asc' } }), (r) => r.parentId!),
    ),
    productCountByCategory: new DataLoader(async (ids) => productCountsOf(em, await part(), ids)),
    productsByCategory: loaderFamily(String, (limit: number) => new DataLoader<string, ProductData[]>(async (ids) => newestProductsOf(em, await part(), ids, limit))),
    categoriesByProduct: new ChildRowsLoader(async (ids) => categoriesOfProducts(em, await part(), ids), { column: () => categoriesColumn(em), fromRow: categoryRows(em) }),
  };
}
