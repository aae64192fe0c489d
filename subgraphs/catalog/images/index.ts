// Product images of the catalog subgraph: entities, resolvers and the thumbnail job kind, so the
// subgraph registers them with one line each.
import { ProductImageEntity } from './image.entity.js';
import { ProductImageResolver, ProductImagesFieldResolver } from './image.resolver.js';

export { imageThumbnailJob } from './image.thumbnails.js';
export { openImageStore, type ImageStore } from './image.store.js';

export const IMAGE_ENTITIES = [ProductImageEntity];
export const IMAGE_RESOLVERS = [ProductImageResolver, ProductImagesFieldResolver];
