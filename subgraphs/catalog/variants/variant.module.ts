// The variant aggregate: a product's variants (and `Product.variants`), with their loader.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { VariantEntity } from './variant.entity.js';
import { variantLoaders } from './variant.loaders.js';
import { ProductVariantsResolver, VariantResolver } from './variant.resolver.js';

export const variantModule: SubgraphModule<CatalogContext> = {
  name: 'variants',
  entities: [VariantEntity],
  resolvers: [VariantResolver, ProductVariantsResolver],
  loaders: variantLoaders,
};
