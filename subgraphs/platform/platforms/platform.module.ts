// The platform aggregate: platforms (the tenants of the platform subgraph), the federated Platform
// entity and the request's platform scope among its loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { PlatformEntity } from './platform.entity.js';
import { platformLoaders } from './platform.loaders.js';
import { platformReference } from './platform.reference.js';
import { PlatformResolver } from './platform.resolver.js';

export const platformModule: SubgraphModule<PlatformContext> = {
  name: 'platforms',
  entities: [PlatformEntity],
  resolvers: [PlatformResolver],
  referenceResolvers: platformReference,
  loaders: platformLoaders,
};
