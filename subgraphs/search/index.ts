// The search subgraph: indexes (this issue); documents, tasks and the engine come later.
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { appTenantFilter, scopeToApp } from '../../lib/tenant-entity.js';
import { createSearchLoaders, type SearchLoaders } from './context.js';
import { IndexEntity } from './indexes/index.entity.js';
import { IndexResolver } from './indexes/index.resolver.js';
import { indexReference } from './indexes/index.reference.js';
import { AppIndexesResolver, appReference } from './apps/app.resolver.js';
import { migrations } from './migrations/index.js';

export const search: SubgraphDefinition<SearchLoaders> = {
  name: 'search',
  dbSchema: 'search',
  resolvers: [IndexResolver, AppIndexesResolver],
  referenceResolvers: { ...indexReference, ...appReference },
  entities: [IndexEntity],
  migrations,
  filters: appTenantFilter(['IndexEntity']),
  scope: scopeToApp,
  createLoaders: createSearchLoaders,
};
