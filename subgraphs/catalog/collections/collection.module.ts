// The collection aggregate: manual and automated collections.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { CollectionEntity, CollectionProductEntity } from './collection.entity.js';
import { CollectionResolver } from './collection.resolver.js';

export const collectionModule: SubgraphModule<CatalogContext> = {
  name: 'collections',
  entities: [CollectionEntity, CollectionProductEntity],
  resolvers: [CollectionResolver],
};
