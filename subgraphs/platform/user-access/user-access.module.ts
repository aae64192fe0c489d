// User access: which users reach an account or app, and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { UserAccessEntity } from './user-access.entity.js';
import { UserAccessResolver } from './user-access.resolver.js';

export const userAccessModule: SubgraphModule<PlatformContext> = {
  name: 'user-access',
  entities: [UserAccessEntity],
  resolvers: [UserAccessResolver],
};
