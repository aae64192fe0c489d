// Account details: the account's profile and attributes, and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { AccountDetailsEntity } from './account-details.entity.js';
import { AccountDetailsResolver } from './account-details.resolver.js';

export const accountDetailsModule: SubgraphModule<PlatformContext> = {
  name: 'account-details',
  entities: [AccountDetailsEntity],
  resolvers: [AccountDetailsResolver],
};
