// Platform operators' API: list, add and remove the user records that reach a platform. The record
// (PlatformOperatorEntity) and the access rules that read it belong to the platform aggregate
// (platforms/platform-access.ts), which creates a platform's owner record with the platform.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { PlatformOperatorResolver } from './platform-operator.resolver.js';

export const operatorModule: SubgraphModule<PlatformContext> = {
  name: 'operators',
  resolvers: [PlatformOperatorResolver],
};
