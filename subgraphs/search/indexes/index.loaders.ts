// Per-request loaders of the index aggregate: every Index reference and App.indexes batch through
// these (no N+1).
import DataLoader from 'dataloader';
import { rowLoader } from '../../../lib/loaders.js';
import type { SearchContext } from '../context.js';
import { IndexEntity } from './index.entity.js';

declare module '../context.js' {
  interface SearchLoaders {
    indexById: DataLoader<string, IndexEntity | null>;
    indexByUid: DataLoader<string, IndexEntity | null>;
    indexesByApp: DataLoader<string, IndexEntity[]>;
  }
}

type Own = Pick<SearchContext['loaders'], 'indexById' | 'indexByUid' | 'indexesByApp'>;

export function indexLoaders(ctx: SearchContext): Own {
  return {
    indexById: rowLoader(ctx.em, IndexEntity, 'id'),
    // uids are unique per app partition, and the tenant filter limits rows to the caller's partition.
    indexByUid: rowLoader(ctx.em, IndexEntity, 'uid'),
    // The tenant filter already limits rows to the caller's app; other apps' lists come back empty.
    indexesByApp: new DataLoader(async (appIds) => {
      const rows = await ctx.em.find(IndexEntity, { appId: { $in: [...appIds] } }, { orderBy: { uid: 'asc' } });
      return appIds.map((a) => rows.filter((r) => r.appId === a));
    }),
  };
}
