import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../lib/subgraph.js';
import { IdentityEntity } from './identities/identity.entity.js';
import type { AiRuntime } from './runtime.js';

export interface AiLoaders {
  identityById: DataLoader<string, IdentityEntity | null>;
  identityByUser: DataLoader<string, IdentityEntity | null>;
  identityCountByApp: DataLoader<string, number>;
}

export type AiContext = SubgraphContext<AiLoaders, AiRuntime>;

/** Per-request loaders: every relation and __resolveReference batches through these (no N+1). */
export function createAiLoaders(ctx: Omit<AiContext, 'loaders'>): AiLoaders {
  return {
    identityById: new DataLoader(async (ids) => {
      const rows = await ctx.em.find(IdentityEntity, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    // user ids are unique per app partition, and the tenant filter limits rows to the caller's partition.
    identityByUser: new DataLoader(async (userIds) => {
      const rows = await ctx.em.find(IdentityEntity, { userUniqueId: { $in: [...userIds] } });
      const byUser = new Map(rows.map((r) => [r.userUniqueId, r]));
      return userIds.map((u) => byUser.get(u) ?? null);
    }),
    // The tenant filter limits counts to the caller's partition, so another app counts 0 without a query.
    identityCountByApp: new DataLoader(async (appIds) => {
      const own = ctx.tenant.appId;
      const count = own && appIds.includes(own) ? await ctx.em.count(IdentityEntity, { appId: own }) : 0;
      return appIds.map((a) => (a === own ? count : 0));
    }),
  };
}
