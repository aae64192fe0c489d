// The category statements MikroORM cannot express: the whole tree in one recursive CTE, the
// ancestor walk that refuses cycles, sibling renumbering, and idempotent product assignment; and the
// reads a page batches (products per category, their counts, categories per product, the product
// page's JSON column) with the row mapper (the entity's). Every statement names the app partition
// explicitly (raw SQL bypasses the tenant filter).
import type { EntityManager } from '@mikro-orm/postgresql';
import { rowMapper } from '../../../lib/row-mapper.js';
import { groupRows } from '../../../lib/loaders.js';
import { ANY_TEXT, jsonList, ofProduct, tableOf } from '../sql.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { ProductEntity } from '../products/product.entity.js';
import { productRows } from '../products/product.repository.js';
import type { ProductData } from '../products/product.type.js';
import { CategoryEntity, ProductCategoryEntity, type CategoryRow } from './category.entity.js';

/** Deeper trees are cut here (a guard; moves that would build a cycle are refused before). */
export const MAX_TREE_DEPTH = 64;

export interface TreeRow {
  category: CategoryEntity;
  depth: number;
}

/** The whole tree (or the subtree under `rootId`), depth-first, siblings by position: one statement. */
export async function loadTree(em: EntityManager, part: AppPartition, rootId?: string): Promise<TreeRow[]> {
  const T = tableOf(em, CategoryEntity);
  const start = rootId ? 'c.id = ?' : 'c.parent_id is null';
  const rows = (await em.execute(
    `with recursive t as (
       select c.*, 0 as depth, array[lpad(c.position::text, 10, '0') || c.id] as sort_path
         from ${T} c where c.app_id = ? and c.environment = ? and ${start}
       union all
       select c.*, t.depth + 1, t.sort_path || (lpad(c.position::text, 10, '0') || c.id)
         from ${T} c join t on c.parent_id = t.id
        where c.app_id = ? and c.environment = ? and t.depth < ?
     )
     select * from t order by sort_path`,
    [part.appId, part.environment, ...(rootId ? [rootId] : []), part.appId, part.environment, MAX_TREE_DEPTH],
    'all',
  )) as (Record<string, unknown> & { depth: number })[];
  return rows.map(({ depth, sort_path: _p, ...row }) => ({ category: em.map(CategoryEntity, row), depth: Number(depth) }));
}

/** true when `candidateId` is `nodeId` itself or lies below it (walks up from the candidate). */
export async function isSelfOrDescendant(em: EntityManager, part: AppPartition, nodeId: string, candidateId: string): Promise<boolean> {
  const T = tableOf(em, CategoryEntity);
  const rows = await em.execute(
    `with recursive up as (
       select id, parent_id, 0 as n from ${T} where id = ? and app_id = ? and environment = ?
       union all
       select c.id, c.parent_id, up.n + 1 from ${T} c join up on c.id = up.parent_id
        where c.app_id = ? and c.environment = ? and up.n < ?
     )
     select 1 from up where id = ? limit 1`,
    [candidateId, part.appId, part.environment, part.appId, part.environment, MAX_TREE_DEPTH, nodeId],
    'all',
  );
  return rows.length > 0;
}

function parentPredicate(parentId: string | null): { sql: string; params: unknown[] } {
  return parentId === null ? { sql: 'parent_id is null', params: [] } : { sql: 'parent_id = ?', params: [parentId] };
}

/** One past the last sibling's position under `parentId` (not counting `exceptId`). */
export async function nextPosition(em: EntityManager, part: AppPartition, parentId: string | null, exceptId = ''): Promise<number> {
  const p = parentPredicate(parentId);
  const rows = (await em.execute(
    `select coalesce(max(position) + 1, 0) as next from ${tableOf(em, CategoryEntity)} where app_id = ? and environment = ? and ${p.sql} and id <> ?`,
    [part.appId, part.environment, ...p.params, exceptId],
    'all',
  )) as { next: number }[];
  return Number(rows[0].next);
}

/** Move siblings at `from` and after by `delta` (opening or closing a gap), except `exceptId`. */
export async function shiftSiblings(em: EntityManager, part: AppPartition, parentId: string | null, from: number, delta: 1 | -1, exceptId?: string): Promise<void> {
  const p = parentPredicate(parentId);
  await em.execute(
    `update ${tableOf(em, CategoryEntity)} set position = position + ? where app_id = ? and environment = ? and ${p.sql} and position >= ? and id <> ?`,
    [delta, part.appId, part.environment, ...p.params, from, exceptId ?? ''],
    'run',
  );
}

export async function hasChildren(em: EntityManager, part: AppPartition, id: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from ${tableOf(em, CategoryEntity)} where app_id = ? and environment = ? and parent_id = ? limit 1`, [part.appId, part.environment, id], 'all');
  return rows.length > 0;
}

/** Assign products to a category; already assigned ones stay as they are. Returns how many were added. */
export async function insertAssignments(em: EntityManager, part: AppPartition, categoryId: string, productIds: string[]): Promise<number> {
  const rows = await em.execute(
    `insert into ${tableOf(em, ProductCategoryEntity)} (category_id, product_id, app_id, environment, created_at)
     select ?, pid, ?, ?, now() from jsonb_array_elements_text(?::jsonb) as u(pid)
     on conflict (category_id, product_id) do nothing
     returning product_id`,
    [categoryId, part.appId, part.environment, jsonList(productIds)],
    'all',
  );
  return rows.length;
}

/** The ids of the products assigned to a category (for re-indexing after a change to it). */
export async function productIdsOf(em: EntityManager, part: AppPartition, categoryId: string): Promise<string[]> {
  const rows = await em.execute<{ product_id: string }[]>(
    `select product_id from ${tableOf(em, ProductCategoryEntity)} where app_id = ? and environment = ? and category_id = ?`,
    [part.appId, part.environment, categoryId],
    'all',
  );
  return rows.map((r) => r.product_id);
}

/** A category row (`select c.*`, or one inside json_agg) as toCategory reads it, by the entity's metadata (lib/row-mapper.ts). */
export function categoryRows(em: EntityManager): (r: Record<string, unknown>) => CategoryRow {
  return rowMapper<CategoryRow>(em, CategoryEntity);
}

/** A product's categories in this order (the loader and the page's column alike). */
const BY_POSITION = (c: string) => `${c}.position, ${c}.name, ${c}.id`;

/** The categories of each product of `ids`, by position then name (plain rows: read only, no hydration). */
export async function categoriesOfProducts(em: EntityManager, part: AppPartition, ids: readonly string[]): Promise<CategoryRow[][]> {
  const rows = (await em.execute(
    `select c.*, pc.product_id as _key from ${tableOf(em, ProductCategoryEntity)} pc join ${tableOf(em, CategoryEntity)} c on c.id = pc.category_id
      where pc.app_id = ? and pc.environment = ? and pc.product_id in ${ANY_TEXT} order by ${BY_POSITION('c')}`,
    [part.appId, part.environment, jsonList(ids)],
    'all',
  )) as Record<string, unknown>[];
  return groupRows(ids, rows, (r) => String(r._key)).map((g) => g.map(categoryRows(em)));
}

/** The product page's column of each product's categories (products aliased `p`), as a JSON array of rows. */
export function categoriesColumn(em: EntityManager): string {
  return `(select coalesce(json_agg(c order by ${BY_POSITION('c')}), '[]') from ${tableOf(em, ProductCategoryEntity)} pc join ${tableOf(em, CategoryEntity)} c on c.id = pc.category_id where ${ofProduct('pc')})`;
}

/** The live products assigned directly to each category of `ids`. */
export async function productCountsOf(em: EntityManager, part: AppPartition, ids: readonly string[]): Promise<number[]> {
  const rows = (await em.execute(
    `select pc.category_id, count(*)::int as n from ${tableOf(em, ProductCategoryEntity)} pc join ${tableOf(em, ProductEntity)} p on p.id = pc.product_id and p.deleted_at is null
      where pc.app_id = ? and pc.environment = ? and pc.category_id in ${ANY_TEXT} group by pc.category_id`,
    [part.appId, part.environment, jsonList(ids)],
    'all',
  )) as { category_id: string; n: number }[];
  const m = new Map(rows.map((r) => [r.category_id, Number(r.n)]));
  return ids.map((id) => m.get(id) ?? 0);
}

/** The first `limit` live products of each category of `ids`, newest first (as the product list). */
export async function newestProductsOf(em: EntityManager, part: AppPartition, ids: readonly string[], limit: number): Promise<ProductData[][]> {
  const rows = (await em.execute(
    `select * from (
       select p.*, pc.category_id as _key, row_number() over (partition by pc.category_id order by p.created_at desc, p.id desc) as _rn
         from ${tableOf(em, ProductCategoryEntity)} pc join ${tableOf(em, ProductEntity)} p on p.id = pc.product_id and p.deleted_at is null
        where pc.app_id = ? and pc.environment = ? and pc.category_id in ${ANY_TEXT}
     ) x where _rn <= ? order by _key, _rn`,
    [part.appId, part.environment, jsonList(ids), limit],
    'all',
  )) as Record<string, unknown>[];
  return groupRows(ids, rows, (r) => String(r._key)).map((g) => g.map(productRows(em)));
}
