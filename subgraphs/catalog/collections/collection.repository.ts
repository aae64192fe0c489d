// Collection membership in SQL. A manual collection's products are rows of collection_products; an
// automated collection's are the app's live products matching its rules, evaluated here on every
// read (collection.rules.ts builds the predicate), so a product change shows at once. Tenant values
// come from appPartition(ctx): raw SQL bypasses the ORM filter.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { ProductEntity } from '../products/product.entity.js';
import { PRODUCT_ORDER } from '../products/product.repository.js';
import { jsonList, tableOf } from '../sql.js';
import { CollectionProductEntity, type CollectionEntity } from './collection.entity.js';
import { rulesToSql, type CollectionRules } from './collection.rules.js';

export const COLLECTION_SORTS = ['position', 'name', '-name', 'price', '-price', 'created_at', '-created_at'] as const;
export type CollectionSort = (typeof COLLECTION_SORTS)[number];

const ORDER: Record<CollectionSort, string> = { position: 'cp.position asc, p.id asc', ...PRODUCT_ORDER };

/** FROM and WHERE of a collection's live products, with their parameters. */
function membership(em: EntityManager, part: AppPartition, c: CollectionEntity): { from: string; where: string; params: unknown[] } {
  const P = tableOf(em, ProductEntity);
  if (c.type === 'manual') {
    return {
      from: `${tableOf(em, CollectionProductEntity)} cp join ${P} p on p.id = cp.product_id`,
      where: 'cp.collection_id = ? and cp.app_id = ? and cp.environment = ? and p.deleted_at is null',
      params: [c.id, part.appId, part.environment],
    };
  }
  const rules = rulesToSql(c.rules as CollectionRules);
  return { from: `${P} p`, where: `p.app_id = ? and p.environment = ? and p.deleted_at is null and ${rules.sql}`, params: [part.appId, part.environment, ...rules.params] };
}

export async function memberPage(
  em: EntityManager,
  part: AppPartition,
  c: CollectionEntity,
  q: { page: number; pageSize: number; sort: CollectionSort },
): Promise<{ items: ProductEntity[]; total: number }> {
  const m = membership(em, part, c);
  const [count] = (await em.execute(`select count(*)::int as n from ${m.from} where ${m.where}`, m.params, 'all')) as { n: number }[];
  const rows = (await em.execute(
    `select p.* from ${m.from} where ${m.where} order by ${ORDER[q.sort]} limit ? offset ?`,
    [...m.params, q.pageSize, (q.page - 1) * q.pageSize],
    'all',
  )) as Record<string, unknown>[];
  return { items: rows.map((r) => em.map(ProductEntity, r)), total: Number(count.n) };
}

/** Append products to a manual collection in the given order; members stay where they are. Returns how many were added. */
export async function appendMembers(em: EntityManager, part: AppPartition, collectionId: string, productIds: string[]): Promise<number> {
  const CP = tableOf(em, CollectionProductEntity);
  const rows = await em.execute(
    `insert into ${CP} (collection_id, product_id, app_id, environment, position, created_at)
     select ?, n.pid, ?, ?, b.last + n.rn, now()
       from (
         select x.pid, row_number() over (order by x.ord)::int as rn
           from jsonb_array_elements_text(?::jsonb) with ordinality as x(pid, ord)
          where not exists (select 1 from ${CP} e where e.collection_id = ? and e.product_id = x.pid)
       ) n
       cross join (select coalesce(max(position), -1)::int as last from ${CP} where collection_id = ?) b
     on conflict (collection_id, product_id) do nothing
     returning product_id`,
    [collectionId, part.appId, part.environment, jsonList(productIds), collectionId, collectionId],
    'all',
  );
  return rows.length;
}

/** Remove one product from a manual collection and close the gap; false when it was not a member. */
export async function removeMember(em: EntityManager, part: AppPartition, collectionId: string, productId: string): Promise<boolean> {
  const CP = tableOf(em, CollectionProductEntity);
  const rows = (await em.execute(
    `delete from ${CP} where collection_id = ? and product_id = ? and app_id = ? and environment = ? returning position`,
    [collectionId, productId, part.appId, part.environment],
    'all',
  )) as { position: number }[];
  if (!rows.length) return false;
  await em.execute(`update ${CP} set position = position - 1 where collection_id = ? and position > ?`, [collectionId, rows[0].position], 'run');
  return true;
}
