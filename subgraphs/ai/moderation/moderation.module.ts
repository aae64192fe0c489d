// Moderation of text (no table of its own).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { ModerationResolver } from './moderation.js';

export const moderationModule: SubgraphModule<AiContext> = {
  name: 'moderation',
  resolvers: [ModerationResolver],
};
