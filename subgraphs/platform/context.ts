import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../lib/subgraph.js';
import { DomainError } from '../../lib/errors.js';
import { platformScopeOf, scopeToFixedPlatform, type PlatformScope } from './tenancy.js';
import { getPlatform } from './platforms/platform.service.js';
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

export type PlatformContext = SubgraphContext<PlatformLoaders>;

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

/**
 * The context for a platform named in the path (/platforms/:pid/accounts...): an operator (an
 * unbound platform:admin token) may name any platform; everyone else only their X-Platform one.
 * Anything else is PLATFORM_NOT_FOUND (404), never a hint that the platform exists. The returned
 * context has its own EntityManager fork whose platform filter is fixed to that platform, so the
 * account services run unchanged.
 */
export async function inPathPlatform(ctx: PlatformContext, pid: string): Promise<PlatformContext> {
  const target = await getPlatform(ctx, pid); // a bound token only ever finds its own platform
  const t = ctx.tenant;
  const operator = t.scopes.includes('platform:admin') && !t.boundPlatform;
  if (!operator) {
    const own = await ctx.loaders.scope.currentPlatform().catch((e: unknown) => {
      if (e instanceof DomainError) return null;
      throw e;
    });
    if (!own || own.id !== target.id) throw new DomainError('PLATFORM_NOT_FOUND', `Platform ${pid} not found`, { parameter: 'pid' });
  }
  const em = ctx.em.fork();
  scopeToFixedPlatform(em, t, target);
  const base = { tenant: t, em, log: ctx.log, pubsub: ctx.pubsub, requestId: ctx.requestId, runtime: ctx.runtime };
  return { ...base, loaders: createPlatformLoaders(base) };
}
