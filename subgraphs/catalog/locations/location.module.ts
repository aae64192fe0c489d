// The location aggregate: the places stock is kept.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { LocationEntity } from './location.entity.js';
import { LocationResolver } from './location.resolver.js';

export const locationModule: SubgraphModule<CatalogContext> = {
  name: 'locations',
  entities: [LocationEntity],
  resolvers: [LocationResolver],
};
