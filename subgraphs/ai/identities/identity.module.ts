// The identity aggregate: end-user identities of an app, the federated Identity entity and their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { IdentityEntity } from './identity.entity.js';
import { identityLoaders } from './identity.loaders.js';
import { identityReference } from './identity.reference.js';
import { IdentityResolver } from './identity.resolver.js';

export const identityModule: SubgraphModule<AiContext> = {
  name: 'identities',
  entities: [IdentityEntity],
  resolvers: [IdentityResolver],
  referenceResolvers: identityReference,
  loaders: identityLoaders,
};
