// Account storage: stored files and logos of an account (the object store), and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { AccountStorageEntity } from './account-storage.entity.js';
import { StorageResolver } from './storage.resolver.js';

export const storageModule: SubgraphModule<PlatformContext> = {
  name: 'storage',
  entities: [AccountStorageEntity],
  resolvers: [StorageResolver],
};
