import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../lib/subgraph.js';
import { tenantScopeOf } from '../../lib/tenant-entity.js';
import { ProductEntity } from './products/product.entity.js';
import { newestProducts } from './products/product.rows.js';
import type { ProductData } from './products/product.type.js';
import type { CatalogRuntime } from './runtime.js';

export interface CatalogLoaders {
  productById: DataLoader<string, ProductEntity | null>;
  productsByApp: DataLoader<string, ProductData[]>;
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
    // Only the caller's own app has products here (its partition); other apps' lists, and every list
    // of a caller without an app, come back empty (what the tenant filter gave).
    productsByApp: new DataLoader(async (appIds) => {
      const scope = tenantScopeOf(ctx.em);
      const [appId, environment] = await Promise.all([scope.value('appId'), scope.value('environment')]);
      const rows = appId && environment && appIds.includes(appId) ? await newestProducts(ctx.em, { appId, environment }) : [];
      return appIds.map((a) => (a === appId ? rows : []));
    }),
  };
}
