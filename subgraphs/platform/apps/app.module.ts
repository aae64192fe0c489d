// The app aggregate: apps of an account (and `Account.apps`), the federated App entity other subgraphs extend, and
// their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { AppEntity } from './app.entity.js';
import { appLoaders } from './app.loaders.js';
import { appReference } from './app.reference.js';
import { AppResolver } from './app.resolver.js';
import { AccountAppsResolver } from './account-apps.resolver.js';

export const appModule: SubgraphModule<PlatformContext> = {
  name: 'apps',
  entities: [AppEntity],
  resolvers: [AppResolver, AccountAppsResolver],
  referenceResolvers: appReference,
  loaders: appLoaders,
};
