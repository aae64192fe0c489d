// Per-request loaders of the product aggregate: every product relation and __resolveReference
// batches through these (no N+1).
import DataLoader from 'dataloader';
import { tenantScopeOf } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { ProductEntity } from './product.entity.js';
import { newestProducts } from './product.repository.js';
import type { ProductData } from './product.type.js';

declare module '../context.js' {
  interface CatalogLoaders {
    /** a live product (the ORM entity: services write through it), null when absent or deleted */
    productById: DataLoader<string, ProductEntity | null>;
    /** an app's newest 100 live products (`App.products`) */
    productsByApp: DataLoader<string, ProductData[]>;
  }
}

export function productLoaders(ctx: CatalogContext): Pick<CatalogContext['loaders'], 'productById' | 'productsByApp'> {
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
