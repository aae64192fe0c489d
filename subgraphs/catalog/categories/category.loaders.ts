// Per-request DataLoaders of the category aggregate: one statement per relation for a whole page
// (no query per category). They hang off the request's loaders object (a WeakMap entry), so they
// live exactly as long as the request and need no entry in ../context.ts.
//
// For the product side: `categoryLoaders(ctx).categoriesByProduct.load(productId)` gives the
// categories of a product (include=categories), batched over a page of products.
import DataLoader from 'dataloader';
import type { CatalogContext } from '../context.js';
import { ProductEntity } from '../products/product.entity.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import { ANY_TEXT, groupRows, jsonList, rowDate, tableOf } from '../sql.js';
import { CategoryEntity, ProductCategoryEntity, type CategoryRow } from './category.entity.js';

export interface CategoryLoaders {
  categoryById: DataLoader<string, CategoryEntity | null>;
  /** direct children, by position */
  childrenByParent: DataLoader<string, CategoryEntity[]>;
  /** products (not deleted) assigned directly to the category */
  productCountByCategory: DataLoader<string, number>;
  /** the first `limit` products of each category, newest first (as the product list) */
  productsByCategory(limit: number): DataLoader<string, ProductEntity[]>;
  /** categories of each product, by position then name */
  categoriesByProduct: DataLoader<string, CategoryRow[]>;
}

const perRequest = new WeakMap<object, CategoryLoaders>();

/** Split the helper column `_key` off a raw row and map the rest onto `entity`. */
function mapKeyed<E extends object>(ctx: CatalogContext, entity: new () => E, rows: Record<string, unknown>[]): { key: string; row: E }[] {
  return rows.map(({ _key, _rn: _n, ...row }) => ({ key: String(_key), row: ctx.em.map(entity, row) }));
}

export function categoryFromRow(r: Record<string, unknown>): CategoryRow {
  return {
    id: r.id as string,
    name: r.name as string,
    slug: r.slug as string,
    description: (r.description as string | null) ?? null,
    parentId: (r.parent_id as string | null) ?? null,
    position: Number(r.position),
    seo: (r.seo as CategoryRow['seo']) ?? null,
    metadata: (r.metadata as CategoryRow['metadata']) ?? null,
    createdAt: rowDate(r.created_at),
    updatedAt: rowDate(r.updated_at),
  };
}

export function categoryLoaders(ctx: CatalogContext): CategoryLoaders {
  const existing = perRequest.get(ctx.loaders);
  if (existing) return existing;
  const { em } = ctx;
  const part = () => appPartition(ctx);
  const PC = () => tableOf(em, ProductCategoryEntity);
  const P = () => tableOf(em, ProductEntity);
  const byLimit = new Map<number, DataLoader<string, ProductEntity[]>>();
  const l: CategoryLoaders = {
    categoryById: new DataLoader(async (ids) => {
      const rows = await em.find(CategoryEntity, { id: { $in: [...ids] } });
      const m = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => m.get(id) ?? null);
    }),
    childrenByParent: new DataLoader(async (ids) =>
      groupRows(ids, await em.find(CategoryEntity, { parentId: { $in: [...ids] } }, { orderBy: { position: 'asc', id: 'asc' } }), (r) => r.parentId!),
    ),
    productCountByCategory: new DataLoader(async (ids) => {
      const { appId, environment } = await part();
      const rows = (await em.execute(
        `select pc.category_id, count(*)::int as n from ${PC()} pc join ${P()} p on p.id = pc.product_id and p.deleted_at is null
          where pc.app_id = ? and pc.environment = ? and pc.category_id in ${ANY_TEXT} group by pc.category_id`,
        [appId, environment, jsonList(ids)],
        'all',
      )) as { category_id: string; n: number }[];
      const m = new Map(rows.map((r) => [r.category_id, Number(r.n)]));
      return ids.map((id) => m.get(id) ?? 0);
    }),
    productsByCategory(limit) {
      let loader = byLimit.get(limit);
      if (!loader) {
        loader = new DataLoader(async (ids) => {
          const { appId, environment } = await part();
          const rows = (await em.execute(
            `select * from (
               select p.*, pc.category_id as _key, row_number() over (partition by pc.category_id order by p.created_at desc, p.id desc) as _rn
                 from ${PC()} pc join ${P()} p on p.id = pc.product_id and p.deleted_at is null
                where pc.app_id = ? and pc.environment = ? and pc.category_id in ${ANY_TEXT}
             ) x where _rn <= ? order by _key, _rn`,
            [appId, environment, jsonList(ids), limit],
            'all',
          )) as Record<string, unknown>[];
          return groupRows(ids, mapKeyed(ctx, ProductEntity, rows), (r) => r.key).map((g) => g.map((r) => r.row));
        });
        byLimit.set(limit, loader);
      }
      return loader;
    },
    categoriesByProduct: new DataLoader(async (ids) => {
      const { appId, environment } = await part();
      const rows = (await em.execute(
        `select c.*, pc.product_id as _key from ${PC()} pc join ${tableOf(em, CategoryEntity)} c on c.id = pc.category_id
          where pc.app_id = ? and pc.environment = ? and pc.product_id in ${ANY_TEXT} order by c.position, c.name, c.id`,
        [appId, environment, jsonList(ids)],
        'all',
      )) as Record<string, unknown>[];
      // read only, a page at a time: plain rows, without the ORM's hydration and identity map
      return groupRows(ids, rows, (r) => String(r._key)).map((g) => g.map(categoryFromRow));
    }),
  };
  perRequest.set(ctx.loaders, l);
  return l;
}
