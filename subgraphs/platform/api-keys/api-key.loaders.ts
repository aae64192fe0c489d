// Per-request loaders of the API-key aggregate: revoked keys (and keys of deleted apps) are left out.
import DataLoader from 'dataloader';
import { groupRows, oneByKey } from '../../../lib/loaders.js';
import type { PlatformContext } from '../context.js';
import { ApiKeyEntity } from './api-key.entity.js';

declare module '../context.js' {
  interface PlatformLoaders {
    apiKeyById: DataLoader<string, ApiKeyEntity | null>;
    apiKeysByApp: DataLoader<string, ApiKeyEntity[]>;
    /** an account's live test keys (of its apps not deleted): a deployment model without a test environment refuses them */
    testKeyCountByAccount: DataLoader<string, number>;
  }
}

/** live keys: not revoked */
const LIVE = { revokedAt: null };

export function apiKeyLoaders({ em }: PlatformContext): Pick<PlatformContext['loaders'], 'apiKeyById' | 'apiKeysByApp' | 'testKeyCountByAccount'> {
  const byId = async (ids: readonly string[]) => oneByKey(ids, await em.find(ApiKeyEntity, { id: { $in: [...ids] }, ...LIVE, app: { deletedAt: null } }), (r) => r.id);
  const byApp = async (appIds: readonly string[]) =>
    groupRows(appIds, await em.find(ApiKeyEntity, { app: { $in: [...appIds] }, ...LIVE }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (r) => r.app.id);
  const testKeys = (accountIds: readonly string[]) =>
    Promise.all(accountIds.map((account) => em.count(ApiKeyEntity, { app: { account, deletedAt: null }, environment: 'test', ...LIVE })));
  return { apiKeyById: new DataLoader(byId), apiKeysByApp: new DataLoader(byApp), testKeyCountByAccount: new DataLoader(testKeys) };
}
