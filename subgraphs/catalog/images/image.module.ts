// The image aggregate: product images (and `Product.images`), with their loader, the thumbnail job
// (kind catalog.images.thumbnails) and the removal of deleted images' files (catalog.images.remove-files).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductImageEntity } from './image.entity.js';
import { imageLoaders } from './image.loaders.js';
import { ProductImageResolver, ProductImagesFieldResolver } from './image.resolver.js';
import { imageFilesRemovalJob } from './image.files.js';
import { imageThumbnailJob } from './image.thumbnails.js';

export const imageModule: SubgraphModule<CatalogContext> = {
  name: 'images',
  entities: [ProductImageEntity],
  resolvers: [ProductImageResolver, ProductImagesFieldResolver],
  loaders: imageLoaders,
  jobs: (deps) => [imageThumbnailJob(() => deps.orm.em.fork(), deps.runtime.images.objects), imageFilesRemovalJob(deps.runtime.images.objects)],
};
