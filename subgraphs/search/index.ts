// The search subgraph: indexes, documents, tasks, search, suggestions, analytics and webhooks, one
// module per aggregate (`<aggregate>/<aggregate>.module.ts`) merged by composeModules. The engine
// (lib/search-engine) is pure code; ./runtime.ts holds this process's pool, in-memory engines
// (./engine-registry) and webhook outbox; ./workers.ts (the task-kinds module's workers) runs the task
// worker, with each task type's handler (./task-kinds), the webhook sender and engine snapshots.
import { composeModules } from '../../lib/subgraph-module.js';
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { SEARCH_ERRORS } from './error-codes.js';
import { SEARCH_SUBSCRIPTIONS } from './subscription-fields.js';
import { SEARCH_TASK_EVENTS, SEARCH_WEBHOOK_EVENTS } from './event-types.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import type { SearchContext, SearchLoaders } from './context.js';
import { migrations } from './migrations/index.js';
import { createSearchRuntime, type SearchRuntime } from './runtime.js';
import { placementRoutes } from './placement/placement.routes.js';
// imported in the order of the list below: type-graphql orders the schema's fields as their classes load
import { productModule } from './products/product.module.js';
import { indexModule } from './indexes/index.module.js';
import { appModule } from './apps/app.module.js';
import { documentModule } from './documents/document.module.js';
import { taskModule } from './tasks/task.module.js';
import { taskKindsModule } from './task-kinds/task-kinds.module.js';
import { engineRegistryModule } from './engine-registry/engine-registry.module.js';
import { searchModule } from './queries/search.module.js';
import { analyticsModule } from './analytics/analytics.module.js';
import { webhookModule } from './webhooks/webhook.module.js';
import { MAX_INDEX_PAGE } from './indexes/index.service.js';

const modules = composeModules<SearchLoaders, SearchContext>([
  productModule,
  indexModule,
  appModule,
  documentModule,
  taskModule,
  taskKindsModule,
  engineRegistryModule,
  searchModule,
  analyticsModule,
  webhookModule,
]);

export const search: SubgraphDefinition<SearchLoaders, SearchRuntime> = {
  name: 'search',
  dbSchema: 'search',
  resolvers: modules.resolvers as SubgraphDefinition['resolvers'],
  orphanedTypes: modules.orphanedTypes,
  referenceResolvers: modules.referenceResolvers,
  entities: modules.entities,
  migrations,
  eventTypes: [SEARCH_TASK_EVENTS, SEARCH_WEBHOOK_EVENTS],
  errorCodes: SEARCH_ERRORS,
  subscriptions: SEARCH_SUBSCRIPTIONS,
  // the index list's pages, checked by the bridge too (from schema/contract.json)
  limits: { pages: { indexes: { default: MAX_INDEX_PAGE, max: MAX_INDEX_PAGE } } },
  scope: scopeToApp,
  createLoaders: modules.createLoaders,
  // the pool, engines, webhook outbox, analytics buffer and limiter of this process, on every request as ctx.runtime
  runtime: createSearchRuntime,
  // the task worker, webhook sender and engine snapshots (workers.ts, the task-kinds module's workers)
  workers: modules.workers,
  // search nodes forwarding searches to the holders of an index (placement/)
  routes: placementRoutes,
};
