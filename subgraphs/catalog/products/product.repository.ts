// The product statements: the list (GET /v1/products: one statement for an unfiltered page, the rows
// with the kept total and the included relations' JSON columns; two for a filtered one, the rows and
// the count, whatever the page size), an app's newest products, and the one mapper from a row to the
// API's plain data (the entity's own, lib/row-mapper.ts). Each names the app partition explicitly (raw SQL bypasses the tenant filter);
// what only reads skips the ORM's hydration and identity map (docs/performance.md items 3, 29).
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { checkPage } from '../request.js';
import { rowMapper } from '../../../lib/row-mapper.js';
import { jsonList, tableIn, tableOf } from '../sql.js';
import { PRODUCT_STATUSES, PRODUCT_TYPES, ProductEntity } from './product.entity.js';
import type { ProductFilterInput } from './product.inputs.js';
import { BOUND_STRIDE, type BoundKeyRow, type OrderDirection } from './product.page-bounds.js';
import type { ProductData } from './product.type.js';

export const PRODUCT_SORTS = ['name', '-name', 'price', '-price', 'created_at', '-created_at'] as const;
/** ORDER BY of a product list per sort (p: the products table), also the collections' product lists */
export const PRODUCT_ORDER: Record<(typeof PRODUCT_SORTS)[number], string> = {
  name: 'p.name asc, p.id asc',
  '-name': 'p.name desc, p.id desc',
  price: 'p.price_amount asc nulls last, p.id asc',
  '-price': 'p.price_amount desc nulls last, p.id desc',
  created_at: 'p.created_at asc, p.id asc',
  '-created_at': 'p.created_at desc, p.id desc',
};

/** The text a product is searched by (name weighs most); the expression index of the migration matches it. */
export const SEARCH_VECTOR = `(setweight(to_tsvector('english', coalesce(p.name, '')), 'A') || setweight(to_tsvector('english', coalesce(p.sku, '')), 'A') || setweight(to_tsvector('english', coalesce(p.description, '')), 'B'))`;

export interface ListQuery {
  page: number;
  pageSize: number;
  sort?: string | null;
  filter?: ProductFilterInput | null;
  /** select-list columns the page's statement adds (products aliased `p`): the included relations (product.page.ts) */
  columns?: string;
  /** the id of the category `filter.category` names (its id or slug), or its error (CATEGORY_NOT_FOUND) */
  categoryId(ref: string, parameter: string): Promise<string>;
}

function oneOf(v: string, allowed: readonly string[], parameter: string): string {
  if (!allowed.includes(v)) throw new DomainError('BAD_REQUEST', `${parameter} must be one of ${allowed.join(', ')}`, { parameter });
  return v;
}

function money(v: number | null | undefined, parameter: string): number | undefined {
  if (v == null) return undefined;
  if (!Number.isSafeInteger(v) || v < 0) throw new DomainError('BAD_REQUEST', `${parameter} must be an integer >= 0 (cents)`, { parameter });
  return v;
}

/** A page of product rows (with the relation columns `q.columns` asks for; productRows maps them) and the total. */
export async function productPage(ctx: CatalogContext, q: ListQuery): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const { page, pageSize } = checkPage(q.page, q.pageSize);
  const f = q.filter ?? {};
  const sort = oneOf(q.sort ?? '-created_at', PRODUCT_SORTS, 'sort') as (typeof PRODUCT_SORTS)[number];
  const part = await appPartition(ctx);
  const where = ['p.app_id = ?', 'p.environment = ?', f.deleted ? 'p.deleted_at is not null' : 'p.deleted_at is null'];
  const params: unknown[] = [part.appId, part.environment];
  const partitionOnly = where.length;
  if (f.status != null) {
    where.push('p.status = ?');
    params.push(oneOf(f.status, PRODUCT_STATUSES, 'filter.status'));
  }
  if (f.type != null) {
    where.push('p.type = ?');
    params.push(oneOf(f.type, PRODUCT_TYPES, 'filter.type'));
  }
  const min = money(f.priceMin, 'filter.priceMin');
  const max = money(f.priceMax, 'filter.priceMax');
  if (min !== undefined && max !== undefined && min > max) throw new DomainError('BAD_REQUEST', 'filter.priceMin is above filter.priceMax', { parameter: 'filter.priceMin' });
  if (min !== undefined) {
    where.push('p.price_amount >= ?');
    params.push(min);
  }
  if (max !== undefined) {
    where.push('p.price_amount <= ?');
    params.push(max);
  }
  if (f.createdAfter != null) {
    if (Number.isNaN(new Date(f.createdAfter).getTime())) throw new DomainError('BAD_REQUEST', 'filter.createdAfter must be an ISO 8601 date-time', { parameter: 'filter.createdAfter' });
    where.push('p.created_at > ?');
    params.push(new Date(f.createdAfter));
  }
  if (f.inStock != null) {
    where.push(`${f.inStock ? '' : 'not '}(not p.track_stock or p.allow_backorder or p.inventory_quantity - p.inventory_reserved > 0)`);
  }
  if (f.category != null) {
    const categoryId = await q.categoryId(f.category, 'filter.category');
    where.push(`exists (select 1 from "catalog"."product_categories" pc where pc.product_id = p.id and pc.category_id = ?)`);
    params.push(categoryId);
  }
  let order = PRODUCT_ORDER[sort];
  const search = f.search?.trim();
  if (search) {
    if (search.length > 200) throw new DomainError('BAD_REQUEST', 'search is longer than 200 characters', { parameter: 'search' });
    where.push(`(${SEARCH_VECTOR} @@ websearch_to_tsquery('english', ?) or p.sku = ?)`);
    params.push(search, search);
    if (!q.sort) {
      order = `ts_rank(${SEARCH_VECTOR}, websearch_to_tsquery('english', ?)) desc, ${order}`;
    }
  }
  const orderParams = search && !q.sort ? [search] : [];
  const from = `${tableOf(ctx.em, ProductEntity)} p where ${where.join(' and ')}`;
  // no condition beyond the partition and live/deleted: the total is the count the database keeps
  // (catalog.product_counts, maintained by triggers), not a count of every product of the app
  const unfiltered = where.length === partitionOnly;
  const counts = tableIn(ctx.em, ProductEntity, 'product_counts');
  const countSql = unfiltered
    ? `select coalesce((select ${f.deleted ? 'deleted' : 'live'} from ${counts} where app_id = ? and environment = ?), 0)::int as n`
    : `select count(*)::int as n from ${from}`;
  // One or two statements whatever the page size. The page is a deferred join: the offset walks the
  // narrow index (ids only), the wide rows are read for the page alone. An unfiltered page also reads
  // the kept count and the order's version (same snapshot: a seek below is checked against it), so
  // it is one statement; a filtered page's total is counted beside it (an index scan; a window count
  // would read every matching row in full), as is an empty page's.
  const kept = unfiltered
    ? { cols: `, c.${f.deleted ? 'deleted' : 'live'} as _total, c.order_version::text as _order_version`, join: ` left join ${counts} c on c.app_id = p.app_id and c.environment = p.environment` }
    : { cols: '', join: '' };
  const pageAt = (offset: number, seek?: { sql: string; params: unknown[] }) =>
    ctx.em.execute(
      `select p.*${kept.cols}${q.columns ?? ''} from ${tableOf(ctx.em, ProductEntity)} p join (select p.id from ${from}${seek?.sql ?? ''} order by ${order} limit ? offset ?) k on k.id = p.id${kept.join} order by ${order}`,
      [...params, ...(seek?.params ?? []), ...orderParams, pageSize, offset, ...orderParams],
    ) as Promise<Record<string, unknown>[]>;
  const offset = (page - 1) * pageSize;
  // the newest/oldest order of the live products seeks to a kept key near a deep page (product.page-bounds.ts)
  const dir = unfiltered && !f.deleted && (sort === '-created_at' || sort === 'created_at') ? (sort === '-created_at' ? 'desc' : 'asc') : undefined;
  const readPage = async (): Promise<Record<string, unknown>[]> => {
    if (!dir || offset < BOUND_STRIDE) return pageAt(offset);
    const bounds = ctx.runtime.pageBounds;
    const at = bounds.seek(part, dir, offset);
    if (!at) {
      bounds.refresh(part, dir, () => pageBoundKeys(ctx.em, part, dir));
      return pageAt(offset);
    }
    const rows = await pageAt(at.skip, { sql: ` and (p.created_at, p.id) ${dir === 'desc' ? '<=' : '>='} (?::timestamptz, ?)`, params: [at.createdAt, at.id] });
    if (rows.length > 0 && rows[0]._order_version === at.version) return rows;
    // the order moved since the keys were read (or the page is past the end): by the offset, and keys anew
    bounds.markStale(part, dir);
    bounds.refresh(part, dir, () => pageBoundKeys(ctx.em, part, dir));
    return pageAt(offset);
  };
  const countAll = async () => ((await ctx.em.execute(countSql, params)) as { n: number }[])[0].n;
  let rows: Record<string, unknown>[];
  let total: number;
  if (unfiltered) {
    rows = await readPage();
    total = rows.length ? Number(rows[0]._total ?? 0) : await countAll();
  } else {
    [rows, total] = await Promise.all([readPage(), countAll()]);
  }
  return { rows, total };
}

/** A product row (`select p.*`, or one inside json_agg) as toProduct reads it, by the entity's metadata (lib/row-mapper.ts). */
export function productRows(em: EntityManager): (r: Record<string, unknown>) => ProductData {
  return rowMapper<ProductData>(em, ProductEntity);
}

/**
 * An app's newest 100 live products (`App.products`), read as the list reads its rows: one statement
 * naming the partition, no hydration.
 */
export async function newestProducts(em: EntityManager, part: AppPartition): Promise<ProductData[]> {
  const rows = (await em.execute(
    `select p.* from ${tableOf(em, ProductEntity)} p where p.app_id = ? and p.environment = ? and p.deleted_at is null order by p.created_at desc, p.id desc limit 100`,
    [part.appId, part.environment],
  )) as Record<string, unknown>[];
  return rows.map(productRows(em));
}

/**
 * The key (created_at as text, id) of every BOUND_STRIDE-th live product of a partition in `dir` order,
 * with the partition's order version (product_counts) the keys hold for: the page-bound index.
 */
export function pageBoundKeys(em: EntityManager, part: AppPartition, dir: OrderDirection): Promise<BoundKeyRow[]> {
  const products = tableOf(em, ProductEntity);
  const counts = tableIn(em, ProductEntity, 'product_counts');
  const order = dir === 'desc' ? 'p.created_at desc, p.id desc' : 'p.created_at asc, p.id asc';
  return em.execute(
    `select x.created_at, x.id, (select order_version from ${counts} where app_id = ? and environment = ?)::text as version
       from (select p.created_at::text as created_at, p.id, row_number() over (order by ${order}) as rn
               from ${products} p where p.app_id = ? and p.environment = ? and p.deleted_at is null) x
      where (x.rn - 1) % ${BOUND_STRIDE} = 0 order by x.rn`,
    [part.appId, part.environment, part.appId, part.environment],
    'all',
  ) as Promise<BoundKeyRow[]>;
}

/** The SKUs the variants of product `productId` hold (the permanent delete; the product's own go through the ORM). */
export async function deleteVariantSkus(em: EntityManager, part: AppPartition, productId: string): Promise<void> {
  await em.execute(
    `delete from "catalog"."skus" s using "catalog"."product_variants" v
      where s.app_id = ? and s.environment = ? and v.product_id = ? and s.owner_id = v.id`,
    [part.appId, part.environment, productId],
  );
}

/**
 * A new product's side of its category links (create with categories): one row per category, whose
 * ids the category loader has found. The link table is the category aggregate's (its entity,
 * category.entity.ts, holds the foreign keys); it is named here as the list's category filter does.
 */
export async function linkCategories(em: EntityManager, part: AppPartition, productId: string, categoryIds: readonly string[]): Promise<void> {
  await em.execute(
    `insert into "catalog"."product_categories" (category_id, product_id, app_id, environment, created_at)
     select cid, ?, ?, ?, now() from jsonb_array_elements_text(?::jsonb) as u(cid) on conflict do nothing`,
    [productId, part.appId, part.environment, jsonList(categoryIds)],
  );
}
