// Per-request loaders of the app aggregate (rows pass through the platform filter).
import DataLoader from 'dataloader';
import { groupRows, rowLoader } from '../../../lib/loaders.js';
import type { PlatformContext } from '../context.js';
import { AppEntity } from './app.entity.js';

declare module '../context.js' {
  interface PlatformLoaders {
    /** live apps of live accounts only */
    appById: DataLoader<string, AppEntity | null>;
    appsByAccount: DataLoader<string, AppEntity[]>;
  }
}

type Own = Pick<PlatformContext['loaders'], 'appById' | 'appsByAccount'>;

export function appLoaders(ctx: PlatformContext): Own {
  const { em } = ctx;
  return {
    appById: rowLoader(em, AppEntity, 'id', { deletedAt: null, account: { deletedAt: null } }),
    appsByAccount: new DataLoader(async (accountIds) =>
      groupRows(accountIds, await em.find(AppEntity, { account: { $in: [...accountIds] }, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (r) => r.account.id),
    ),
  };
}
