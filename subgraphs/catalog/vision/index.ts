// The catalog's product-photo features on lib/vision: object detection on a product file (suggested
// crops), the visual-search embeddings of product images (a job) and visual search, so the subgraph
// registers them with one line each.
import { ProductImageEmbeddingEntity } from './embedding.entity.js';
import { ProductVisionResolver } from './vision.resolver.js';

export { imageEmbeddingJob, enqueueEmbedding } from './embedding.job.js';

export const VISION_ENTITIES = [ProductImageEmbeddingEntity];
export const VISION_RESOLVERS = [ProductVisionResolver];
