// Per-request loader of the variants of a page of products: one statement for the whole page. It
// hangs off the request's loaders object (a WeakMap entry), so it lives exactly as long as the request.
import DataLoader from 'dataloader';
import type { CatalogContext } from '../context.js';
import { VariantEntity } from './variant.entity.js';

const perRequest = new WeakMap<object, DataLoader<string, VariantEntity[]>>();

export function variantsByProduct(ctx: CatalogContext): DataLoader<string, VariantEntity[]> {
  let l = perRequest.get(ctx.loaders);
  if (!l) {
    l = new DataLoader(async (ids) => {
      const rows = await ctx.em.find(VariantEntity, { productId: { $in: [...ids] } }, { orderBy: { productId: 'asc', position: 'asc', createdAt: 'asc' } });
      return ids.map((id) => rows.filter((r) => r.productId === id));
    });
    perRequest.set(ctx.loaders, l);
  }
  return l;
}
