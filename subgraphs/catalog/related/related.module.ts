// Related products (cross-sells, up-sells, accessories) and `Product.related`, with their loader.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductRelationEntity } from './related.entity.js';
import { relatedLoaders } from './related.loaders.js';
import { RelatedProductsResolver } from './related.resolver.js';

export const relatedModule: SubgraphModule<CatalogContext> = {
  name: 'related',
  entities: [ProductRelationEntity],
  resolvers: [RelatedProductsResolver],
  loaders: relatedLoaders,
};
