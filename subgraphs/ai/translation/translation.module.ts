// Translation (no table of its own).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { TranslationResolver } from './translation.js';

export const translationModule: SubgraphModule<AiContext> = {
  name: 'translation',
  resolvers: [TranslationResolver],
};
