import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../lib/subgraph.js';
import { IndexEntity } from './indexes/index.entity.js';
import type { SearchRuntime } from './runtime.js';
import { documentsByProductIds, type ProductSearchDocument } from './products/product-documents.js';

export interface SearchLoaders {
  indexById: DataLoader<string, IndexEntity | null>;
  indexByUid: DataLoader<string, IndexEntity | null>;
  indexesByApp: DataLoader<string, IndexEntity[]>;
  documentsByProduct: DataLoader<string, ProductSearchDocument[]>;
}

export type SearchContext = SubgraphContext<SearchLoaders, SearchRuntime>;

/** Per-request loaders: every relation and __resolveReference batches through these (no N+1). */
export function createSearchLoaders(ctx: Omit<SearchContext, 'loaders'>): SearchLoaders {
  return {
    indexById: new DataLoader(async (ids) => {
      const rows = await ctx.em.find(IndexEntity, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    // uids are unique per app partition, and the tenant filter limits rows to the caller's partition.
    indexByUid: new DataLoader(async (uids) => {
      const rows = await ctx.em.find(IndexEntity, { uid: { $in: [...uids] } });
      const byUid = new Map(rows.map((r) => [r.uid, r]));
      return uids.map((uid) => byUid.get(uid) ?? null);
    }),
    // The tenant filter already limits rows to the caller's app; other apps' lists come back empty.
    indexesByApp: new DataLoader(async (appIds) => {
      const rows = await ctx.em.find(IndexEntity, { appId: { $in: [...appIds] } }, { orderBy: { uid: 'asc' } });
      return appIds.map((a) => rows.filter((r) => r.appId === a));
    }),
    // Product.searchDocuments: the caller's indexes only (tenant filter on the index lookup)
    documentsByProduct: new DataLoader((ids) => documentsByProductIds(ctx, ids)),
  };
}
