// The account aggregate: accounts of a platform, the federated Account entity and their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { AccountEntity } from './account.entity.js';
import { accountLoaders } from './account.loaders.js';
import { accountReference } from './account.reference.js';
import { AccountResolver } from './account.resolver.js';

export const accountModule: SubgraphModule<PlatformContext> = {
  name: 'accounts',
  entities: [AccountEntity],
  resolvers: [AccountResolver],
  referenceResolvers: accountReference,
  loaders: accountLoaders,
};
