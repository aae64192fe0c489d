// The platform aggregate: platforms (the tenants of the platform subgraph) with their operator
// records and who reaches a platform (platform-access.ts), the federated Platform entity and the
// request's platform scope among its loaders. The operators' own API (list, add, remove) is the
// operators module above it.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { PlatformEntity } from './platform.entity.js';
import { platformLoaders } from './platform.loaders.js';
import { PlatformOperatorEntity } from './platform-operator.entity.js';
import { platformReference } from './platform.reference.js';
import { PlatformResolver } from './platform.resolver.js';

export const platformModule: SubgraphModule<PlatformContext> = {
  name: 'platforms',
  entities: [PlatformEntity, PlatformOperatorEntity],
  resolvers: [PlatformResolver],
  referenceResolvers: platformReference,
  loaders: platformLoaders,
};
