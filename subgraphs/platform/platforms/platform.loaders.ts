// Per-request loaders of the platform aggregate: the request's platform scope (X-Platform resolved
// once, tenancy.ts) and platforms by id.
import DataLoader from 'dataloader';
import { rowLoader } from '../../../lib/loaders.js';
import type { PlatformContext } from '../context.js';
import { platformScopeOf, type PlatformScope } from '../tenancy.js';
import { PlatformEntity } from './platform.entity.js';

declare module '../context.js' {
  interface PlatformLoaders {
    /** the request's platform scope (X-Platform resolution, memoised) */
    scope: PlatformScope;
    platformByCode: DataLoader<string, PlatformEntity | null>;
    platformById: DataLoader<string, PlatformEntity | null>;
  }
}

type Own = Pick<PlatformContext['loaders'], 'scope' | 'platformByCode' | 'platformById'>;

export function platformLoaders(ctx: PlatformContext): Own {
  const { em } = ctx;
  const scope = platformScopeOf(em);
  return {
    scope,
    platformByCode: scope.platformByCode,
    platformById: rowLoader(em, PlatformEntity, 'id'),
  };
}
