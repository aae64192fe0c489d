// Custom classifiers: their training examples, API and the training job.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { ClassifierEntity, ClassifierTrainingEntity } from './classifier.entity.js';
import { classifierTrainJobKind } from './classifier.job.js';
import { ClassifierResolver } from './classifier.resolver.js';

export const classifierModule: SubgraphModule<AiContext> = {
  name: 'classifiers',
  entities: [ClassifierEntity, ClassifierTrainingEntity],
  resolvers: [ClassifierResolver],
  jobs: (deps) => [classifierTrainJobKind(deps)],
};
