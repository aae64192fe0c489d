// The search queries (no table of its own: the engines answer).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { SearchResolver } from './search.resolver.js';

export const searchModule: SubgraphModule<SearchContext> = {
  name: 'queries',
  resolvers: [SearchResolver],
};
