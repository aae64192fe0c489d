// Per-request loaders of the API-key aggregate: revoked keys (and keys of deleted apps) are left out.
import DataLoader from 'dataloader';
import { groupRows, oneByKey } from '../../../lib/loaders.js';
import type { PlatformContext } from '../context.js';
import { ApiKeyEntity } from './api-key.entity.js';

declare module '../context.js' {
  interface PlatformLoaders {
    apiKeyById: DataLoader<string, ApiKeyEntity | null>;
    apiKeysByApp: DataLoader<string, ApiKeyEntity[]>;
  }
}

/** live keys: not revoked */
const LIVE = { revokedAt: null };

export function apiKeyLoaders({ em }: PlatformContext): Pick<PlatformContext['loaders'], 'apiKeyById' | 'apiKeysByApp'> {
  const byId = async (ids: readonly string[]) => oneByKey(ids, await em.find(ApiKeyEntity, { id: { $in: [...ids] }, ...LIVE, app: { deletedAt: null } }), (r) => r.id);
  const byApp = async (appIds: readonly string[]) =>
    groupRows(appIds, await em.find(ApiKeyEntity, { app: { $in: [...appIds] }, ...LIVE }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (r) => r.app.id);
  return { apiKeyById: new DataLoader(byId), apiKeysByApp: new DataLoader(byApp) };
}
