// Registered operations: the persisted-operation manifests and policies the gateway enforces.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { RegisteredOperationEntity, RegisteredOperationPolicyEntity } from './registered-operation.entity.js';
import { RegisteredOperationResolver } from './registered-operation.resolver.js';

export const registeredOperationModule: SubgraphModule<PlatformContext> = {
  name: 'operations',
  entities: [RegisteredOperationEntity, RegisteredOperationPolicyEntity],
  resolvers: [RegisteredOperationResolver],
};
