// Platform operators: the user records that reach a platform, and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { PlatformOperatorEntity } from './platform-operator.entity.js';
import { PlatformOperatorResolver } from './platform-operator.resolver.js';

export const operatorModule: SubgraphModule<PlatformContext> = {
  name: 'operators',
  entities: [PlatformOperatorEntity],
  resolvers: [PlatformOperatorResolver],
};
