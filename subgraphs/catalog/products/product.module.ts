// The product aggregate: products and their SKU registry, the product queries and mutations, the
// federated Product entity and the product loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductEntity } from './product.entity.js';
import { productLoaders } from './product.loaders.js';
import { productReference } from './product.reference.js';
import { ProductResolver } from './product.resolver.js';
import { SkuEntity } from './sku.entity.js';

export const productModule: SubgraphModule<CatalogContext> = {
  name: 'products',
  entities: [ProductEntity, SkuEntity],
  resolvers: [ProductResolver],
  referenceResolvers: productReference,
  loaders: productLoaders,
};
