// The catalog's product-photo features on lib/vision: object detection on a product file (suggested
// crops), the visual-search embeddings of product images (a job, started by ../workers.ts) and
// visual search.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductImageEmbeddingEntity } from './embedding.entity.js';
import { ProductVisionResolver } from './vision.resolver.js';

export const visionModule: SubgraphModule<CatalogContext> = {
  name: 'vision',
  entities: [ProductImageEmbeddingEntity],
  resolvers: [ProductVisionResolver],
};
