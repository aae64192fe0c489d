// The image aggregate: product images (and `Product.images`), with their loader (the thumbnail job is
// started by ../workers.ts).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductImageEntity } from './image.entity.js';
import { imageLoaders } from './image.loaders.js';
import { ProductImageResolver, ProductImagesFieldResolver } from './image.resolver.js';

export const imageModule: SubgraphModule<CatalogContext> = {
  name: 'images',
  entities: [ProductImageEntity],
  resolvers: [ProductImageResolver, ProductImagesFieldResolver],
  loaders: imageLoaders,
};
