import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../lib/subgraph.js';
import { ProductEntity } from './products/product.entity.js';
import type { CatalogRuntime } from './runtime.js';

export interface CatalogLoaders {
  productById: DataLoader<string, ProductEntity | null>;
  productsByApp: DataLoader<string, ProductEntity[]>;
}

export type CatalogContext = SubgraphContext<CatalogLoaders, CatalogRuntime>;

/** Per-request loaders: every relation and __resolveReference batches through these (no N+1). */
export function createCatalogLoaders(ctx: Omit<CatalogContext, 'loaders'>): CatalogLoaders {
  return {
    productById: new DataLoader(async (ids) => {
      const rows = await ctx.em.find(ProductEntity, { id: { $in: [...ids] }, deletedAt: null });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    // The tenant filter already limits rows to the caller's app; other apps' lists come back empty.
    productsByApp: new DataLoader(async (appIds) => {
      const rows = await ctx.em.find(
        ProductEntity,
        { appId: { $in: [...appIds] }, deletedAt: null },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 100 * appIds.length },
      );
      return appIds.map((a) => rows.filter((r) => r.appId === a).slice(0, 100));
    }),
  };
}
