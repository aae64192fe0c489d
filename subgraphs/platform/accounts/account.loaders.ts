// Per-request loaders of the account aggregate (rows pass through the platform filter).
import DataLoader from 'dataloader';
import { rowLoader } from '../../../lib/loaders.js';
import type { PlatformContext } from '../context.js';
import { AccountEntity } from './account.entity.js';

declare module '../context.js' {
  interface PlatformLoaders {
    /** includes soft-deleted accounts: used to follow App.account */
    accountById: DataLoader<string, AccountEntity | null>;
    /** live accounts only: the lookup behind every /accounts/:url_id path */
    accountByUrlId: DataLoader<string, AccountEntity | null>;
    /**
     * live accounts of a platform, across the platform filter (the emptiness check before a platform
     * is deleted runs without an X-Platform context)
     */
    liveAccountCountByPlatform: DataLoader<string, number>;
  }
}

type Own = Pick<PlatformContext['loaders'], 'accountById' | 'accountByUrlId' | 'liveAccountCountByPlatform'>;

export function accountLoaders(ctx: PlatformContext): Own {
  const { em } = ctx;
  return {
    accountById: rowLoader(em, AccountEntity, 'id'),
    accountByUrlId: rowLoader(em, AccountEntity, 'urlId', { deletedAt: null }),
    liveAccountCountByPlatform: new DataLoader((platformIds) =>
      Promise.all(platformIds.map((platform) => em.count(AccountEntity, { platform, deletedAt: null }, { filters: false }))),
    ),
  };
}
