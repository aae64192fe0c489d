// A tenant's pick among the operator's named model servers, per text task (docs/ai.md, "Model choices").
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { ModelChoiceEntity } from './model-choice.entity.js';
import { ModelChoiceResolver } from './model-choice.resolver.js';

export const modelChoiceModule: SubgraphModule<AiContext> = {
  name: 'model-choices',
  entities: [ModelChoiceEntity],
  resolvers: [ModelChoiceResolver],
};
