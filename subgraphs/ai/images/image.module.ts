// Image analysis (no table of its own).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { ImageAnalysisResolver } from './image.resolver.js';

export const imageModule: SubgraphModule<AiContext> = {
  name: 'images',
  resolvers: [ImageAnalysisResolver],
};
