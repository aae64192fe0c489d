// The search subgraph: indexes, documents, tasks, search, suggestions, analytics and webhooks
// (document 3 part B). The engine (./engine) is pure code; ./runtime.ts holds this process's pool,
// in-memory engines (./engine-registry) and webhook outbox; ./workers.ts runs the task worker and the
// webhook sender.
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { SEARCH_ERRORS } from './error-codes.js';
import { SEARCH_SUBSCRIPTIONS } from './subscription-fields.js';
import { SEARCH_TASK_EVENTS, SEARCH_WEBHOOK_EVENTS } from './event-types.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import { createSearchLoaders, type SearchLoaders } from './context.js';
import { IndexEntity } from './indexes/index.entity.js';
import { IndexResolver } from './indexes/index.resolver.js';
import { indexReference } from './indexes/index.reference.js';
import { AppIndexesResolver, appReference } from './apps/app.resolver.js';
import { DocumentEntity } from './documents/document.entity.js';
import { DocumentResolver } from './documents/document.resolver.js';
import { TaskEntity, TaskPayloadEntity } from './tasks/task.entity.js';
import { TenantSequenceEntity } from '../../lib/tenant-sequence.js';
import { TaskResolver } from './tasks/task.resolver.js';
import { IndexSnapshotChunkEntity, IndexSnapshotEntity } from './engine-registry/snapshot.entity.js';
import { SearchResolver } from './queries/search.resolver.js';
import { SearchEventEntity, SearchQueryEntity } from './analytics/analytics.entity.js';
import { AnalyticsResolver } from './analytics/analytics.resolver.js';
import { webhookEntities } from '../../lib/webhooks/index.js';
import { WebhookResolver } from './webhooks/webhook.resolver.js';
import { ProductRef } from './products/product-documents.js';
import { ProductDocumentsResolver, productReference } from './products/product-documents.resolver.js';
import { migrations } from './migrations/index.js';
import { JobEntity } from '../../lib/jobs/index.js';
import { createSearchRuntime, type SearchRuntime } from './runtime.js';
import { startSearchWorkers } from './workers.js';
import { placementRoutes } from './placement/placement.routes.js';

export const search: SubgraphDefinition<SearchLoaders, SearchRuntime> = {
  name: 'search',
  dbSchema: 'search',
  resolvers: [IndexResolver, AppIndexesResolver, ProductDocumentsResolver, DocumentResolver, TaskResolver, SearchResolver, AnalyticsResolver, WebhookResolver],
  // Product is the catalog's entity; this subgraph only adds fields to it
  orphanedTypes: [ProductRef],
  referenceResolvers: { ...indexReference, ...appReference, ...productReference },
  entities: [
    IndexEntity,
    DocumentEntity,
    TaskEntity,
    TenantSequenceEntity,
    TaskPayloadEntity,
    IndexSnapshotEntity,
    IndexSnapshotChunkEntity,
    SearchQueryEntity,
    SearchEventEntity,
    ...webhookEntities,
    JobEntity,
  ],
  migrations,
  eventTypes: [SEARCH_TASK_EVENTS, SEARCH_WEBHOOK_EVENTS],
  errorCodes: SEARCH_ERRORS,
  subscriptions: SEARCH_SUBSCRIPTIONS,
  scope: scopeToApp,
  createLoaders: createSearchLoaders,
  // the pool, engines, webhook outbox, analytics buffer and limiter of this process, on every request as ctx.runtime
  runtime: createSearchRuntime,
  // the task worker, webhook sender and engine snapshots (workers.ts)
  workers: startSearchWorkers,
  // search nodes forwarding searches to the holders of an index (placement/)
  routes: placementRoutes,
};
