// Tasks: the asynchronous writes to an index (numbered per tenant: lib/tenant-sequence), their API,
// and the search process's background work (../workers.ts: the task worker, the webhook sender and
// engine snapshots; a worker of its own rather than `jobs`, since it runs on the runtime's pool,
// keeps an hour of finished jobs, runs only with SEARCH_WORKER=1, and snapshots wait for its idle time).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { JobEntity } from '../../../lib/jobs/index.js';
import { TenantSequenceEntity } from '../../../lib/tenant-sequence.js';
import { startSearchWorkers } from '../workers.js';
import { TaskEntity, TaskPayloadEntity } from './task.entity.js';
import { TaskResolver } from './task.resolver.js';

export const taskModule: SubgraphModule<SearchContext> = {
  name: 'tasks',
  entities: [TaskEntity, TenantSequenceEntity, TaskPayloadEntity, JobEntity],
  resolvers: [TaskResolver],
  workers: startSearchWorkers,
};
