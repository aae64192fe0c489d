// Per-request loaders of the identity aggregate: every Identity reference and App.identityCount
// batch through these (no N+1).
import DataLoader from 'dataloader';
import { rowLoader } from '../../../lib/loaders.js';
import type { AiContext } from '../context.js';
import { IdentityEntity } from './identity.entity.js';

declare module '../context.js' {
  interface AiLoaders {
    identityById: DataLoader<string, IdentityEntity | null>;
    identityByUser: DataLoader<string, IdentityEntity | null>;
    identityCountByApp: DataLoader<string, number>;
  }
}

type Own = Pick<AiContext['loaders'], 'identityById' | 'identityByUser' | 'identityCountByApp'>;

export function identityLoaders(ctx: AiContext): Own {
  return {
    identityById: rowLoader(ctx.em, IdentityEntity, 'id'),
    // user ids are unique per app partition, and the tenant filter limits rows to the caller's partition.
    identityByUser: rowLoader(ctx.em, IdentityEntity, 'userUniqueId'),
    // The tenant filter limits counts to the caller's partition, so another app counts 0 without a query.
    identityCountByApp: new DataLoader(async (appIds) => {
      const own = ctx.tenant.appId;
      const count = own && appIds.includes(own) ? await ctx.em.count(IdentityEntity, { appId: own }) : 0;
      return appIds.map((a) => (a === own ? count : 0));
    }),
  };
}
