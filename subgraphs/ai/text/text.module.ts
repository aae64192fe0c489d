// Text analysis (no table of its own).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { TextAnalysisResolver } from './text.resolver.js';

export const textModule: SubgraphModule<AiContext> = {
  name: 'text',
  resolvers: [TextAnalysisResolver],
};
