// The index aggregate: indexes of an app, their settings, the federated Index entity and their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { IndexEntity } from './index.entity.js';
import { indexLoaders } from './index.loaders.js';
import { indexReference } from './index.reference.js';
import { IndexResolver } from './index.resolver.js';

export const indexModule: SubgraphModule<SearchContext> = {
  name: 'indexes',
  entities: [IndexEntity],
  resolvers: [IndexResolver],
  referenceResolvers: indexReference,
  loaders: indexLoaders,
};
