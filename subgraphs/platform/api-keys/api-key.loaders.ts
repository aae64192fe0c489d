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

type Own = Pick<PlatformContext['loaders'], 'apiKeyById' | 'apiKeysByApp'>;

export function apiKeyLoaders(ctx: PlatformContext): Own {
  const { em } = ctx;
  return {
    apiKeyById: new DataLoader(async (ids) => oneByKey(ids, await em.find(ApiKeyEntity, { id: { $in: [...ids] }, revokedAt: null, app: { deletedAt: null } }), (r) => r.id)),
    apiKeysByApp: new DataLoader(async (appIds) =>
      groupRows(appIds, await em.find(ApiKeyEntity, { app: { $in: [...appIds] }, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (r) => r.app.id),
    ),
  };
}
