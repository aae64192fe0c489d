// Account credentials (sealed with the master key) and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { CredentialEntity } from './credential.entity.js';
import { CredentialResolver } from './credential.resolver.js';

export const credentialModule: SubgraphModule<PlatformContext> = {
  name: 'credentials',
  entities: [CredentialEntity],
  resolvers: [CredentialResolver],
};
