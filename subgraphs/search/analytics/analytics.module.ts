// Search analytics: recorded queries and events, and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { SearchEventEntity, SearchQueryEntity } from './analytics.entity.js';
import { AnalyticsResolver } from './analytics.resolver.js';

export const analyticsModule: SubgraphModule<SearchContext> = {
  name: 'analytics',
  entities: [SearchQueryEntity, SearchEventEntity],
  resolvers: [AnalyticsResolver],
};
