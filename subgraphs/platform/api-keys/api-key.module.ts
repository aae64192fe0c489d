// The API-key aggregate: keys of an app (and `App.apiKeys`), the federated ApiKey entity and their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { apiKeyLoaders } from './api-key.loaders.js';
import { apiKeyReference } from './api-key.reference.js';
import { ApiKeyResolver } from './api-key.resolver.js';
import { AppApiKeysResolver } from './app-api-keys.resolver.js';

export const apiKeyModule: SubgraphModule<PlatformContext> = {
  name: 'api-keys',
  entities: [ApiKeyEntity],
  resolvers: [ApiKeyResolver, AppApiKeysResolver],
  referenceResolvers: apiKeyReference,
  loaders: apiKeyLoaders,
};
