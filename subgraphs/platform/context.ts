import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../lib/subgraph.js';
import { platformScopeOf, type PlatformScope } from './tenancy.js';
import type { PlatformRuntime } from './runtime.js';
import { PlatformEntity } from './platforms/platform.entity.js';
import { AccountEntity } from './accounts/account.entity.js';
import { AppEntity } from './apps/app.entity.js';
import { ApiKeyEntity } from './api-keys/api-key.entity.js';

export interface PlatformLoaders {
  /** the request's platform scope (X-Platform resolution, memoised) */
  scope: PlatformScope;
  platformByCode: DataLoader<string, PlatformEntity | null>;
  platformById: DataLoader<string, PlatformEntity | null>;
  /** includes soft-deleted accounts: used to follow App.account */
  accountById: DataLoader<string, AccountEntity | null>;
  /** live accounts only: the lookup behind every /accounts/:url_id path */
  accountByUrlId: DataLoader<string, AccountEntity | null>;
  /** live apps of live accounts only */
  appById: DataLoader<string, AppEntity | null>;
  appsByAccount: DataLoader<string, AppEntity[]>;
  /** revoked keys (and keys of deleted apps) are left out (here and below) */
  apiKeyById: DataLoader<string, ApiKeyEntity | null>;
  apiKeysByApp: DataLoader<string, ApiKeyEntity[]>;
}

export type PlatformContext = SubgraphContext<PlatformLoaders, PlatformRuntime>;

function byKey<T, K>(keys: readonly K[], rows: T[], keyOf: (r: T) => K): (T | null)[] {
  const m = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => m.get(k) ?? null);
}

function grouped<T>(keys: readonly string[], rows: T[], keyOf: (r: T) => string): T[][] {
  const m = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const r of rows) m.get(keyOf(r))?.push(r);
  return keys.map((k) => m.get(k)!);
}

/**
 * Per-request loaders: every relation and __resolveReference batches through these (no N+1).
 * Account, app and key rows pass through the `tenant` filter, so foreign rows load as null / [].
 */
export function createPlatformLoaders(ctx: Omit<PlatformContext, 'loaders'>): PlatformLoaders {
  const { em } = ctx;
  const scope = platformScopeOf(em);
  return {
    scope,
    platformByCode: scope.platformByCode,
    platformById: new DataLoader(async (ids) => byKey(ids, await em.find(PlatformEntity, { id: { $in: [...ids] } }), (r) => r.id)),
    accountById: new DataLoader(async (ids) => byKey(ids, await em.find(AccountEntity, { id: { $in: [...ids] } }), (r) => r.id)),
    accountByUrlId: new DataLoader(async (urlIds) =>
      byKey(urlIds, await em.find(AccountEntity, { urlId: { $in: [...urlIds] }, deletedAt: null }), (r) => r.urlId),
    ),
    appById: new DataLoader(async (ids) =>
      byKey(ids, await em.find(AppEntity, { id: { $in: [...ids] }, deletedAt: null, account: { deletedAt: null } }), (r) => r.id),
    ),
    appsByAccount: new DataLoader(async (accountIds) =>
      grouped(
        accountIds,
        await em.find(AppEntity, { account: { $in: [...accountIds] }, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
        (r) => r.account.id,
      ),
    ),
    apiKeyById: new DataLoader(async (ids) =>
      byKey(ids, await em.find(ApiKeyEntity, { id: { $in: [...ids] }, revokedAt: null, app: { deletedAt: null } }), (r) => r.id),
    ),
    apiKeysByApp: new DataLoader(async (appIds) =>
      grouped(
        appIds,
        await em.find(ApiKeyEntity, { app: { $in: [...appIds] }, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
        (r) => r.app.id,
      ),
    ),
  };
}
