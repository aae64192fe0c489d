// What search adds to the platform's App entity (its indexes).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { AppIndexesResolver, appReference } from './app.resolver.js';

export const appModule: SubgraphModule<SearchContext> = {
  name: 'apps',
  resolvers: [AppIndexesResolver],
  referenceResolvers: appReference,
};
