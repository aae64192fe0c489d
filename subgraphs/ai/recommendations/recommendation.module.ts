// Recommendations: events, items, pairs, neighbours and models, their API and the refresh job.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { RecEventEntity, RecItemEntity, RecModelEntity, RecNeighborEntity, RecPairEntity, RecUserItemEntity } from './recommendation.entity.js';
import { recRefreshJobKind } from './recommendation.job.js';
import { RecommendationResolver } from './recommendation.resolver.js';

export const recommendationModule: SubgraphModule<AiContext> = {
  name: 'recommendations',
  entities: [RecEventEntity, RecUserItemEntity, RecItemEntity, RecPairEntity, RecNeighborEntity, RecModelEntity],
  resolvers: [RecommendationResolver],
  jobs: (deps) => [recRefreshJobKind(deps)],
};
