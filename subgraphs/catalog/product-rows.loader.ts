// Per-request loaders of a product's child rows (its variants, its images) for a page of products:
// one statement for the whole page, with the partition in the statement, plain rows without the
// ORM's hydration (read only). Each loader hangs off the request's loaders object (a WeakMap entry),
// so it lives exactly as long as the request and needs no entry in context.ts.
import DataLoader from 'dataloader';
import { appPartition } from '../../lib/tenant-entity.js';
import type { CatalogContext } from './context.js';
import { ANY_TEXT, groupRows, jsonList, tableOf } from './sql.js';

/**
 * `(ctx) => loader` of the rows of `entity`'s table per product id, in `order` within a product
 * (after product_id), each row mapped by `fromRow`.
 */
export function rowsByProduct<T>(entity: abstract new (...args: never[]) => unknown, order: string, fromRow: (r: Record<string, unknown>) => T): (ctx: CatalogContext) => DataLoader<string, T[]> {
  const perRequest = new WeakMap<object, DataLoader<string, T[]>>();
  return (ctx) => {
    let l = perRequest.get(ctx.loaders);
    if (!l) {
      l = new DataLoader(async (ids) => {
        const { appId, environment } = await appPartition(ctx);
        const rows = (await ctx.em.execute(
          `select * from ${tableOf(ctx.em, entity)} where app_id = ? and environment = ? and product_id in ${ANY_TEXT} order by product_id, ${order}`,
          [appId, environment, jsonList(ids)],
          'all',
        )) as Record<string, unknown>[];
        return groupRows(ids, rows, (r) => r.product_id as string).map((g) => g.map(fromRow));
      });
      perRequest.set(ctx.loaders, l);
    }
    return l;
  };
}
