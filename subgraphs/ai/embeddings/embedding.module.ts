// Embeddings of text (no table of its own).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { EmbeddingResolver } from './embedding.resolver.js';

export const embeddingModule: SubgraphModule<AiContext> = {
  name: 'embeddings',
  resolvers: [EmbeddingResolver],
};
