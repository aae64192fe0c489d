// The catalog's product-photo features on lib/vision: object detection on a product file (suggested
// crops), the visual-search embeddings of product images (a job on a queue of its own: its model
// calls take 0.3-1 s each, 10 s for the first, which loads the models, so they never hold up the
// other kinds) and visual search.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { ProductImageEmbeddingEntity } from './embedding.entity.js';
import { imageEmbeddingJob } from './embedding.job.js';
import { ProductVisionResolver } from './vision.resolver.js';

export const visionModule: SubgraphModule<CatalogContext> = {
  name: 'vision',
  entities: [ProductImageEmbeddingEntity],
  resolvers: [ProductVisionResolver],
  jobs: (deps) => [Object.assign(imageEmbeddingJob(() => deps.orm.em.fork(), deps.runtime.images.objects, deps.runtime.vision), { queue: 'embeddings' })],
};
