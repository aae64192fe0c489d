// Tasks: the asynchronous writes to an index (numbered per tenant: lib/tenant-sequence), their queue,
// runner and API. What each task type does, and the workers that run them, are the task-kinds module's
// (../task-kinds/), which sits above tasks/, documents/ and indexes/.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { JobEntity } from '../../../lib/jobs/index.js';
import { TenantSequenceEntity } from '../../../lib/tenant-sequence.js';
import { TaskEntity, TaskPayloadEntity } from './task.entity.js';
import { TaskResolver } from './task.resolver.js';

export const taskModule: SubgraphModule<SearchContext> = {
  name: 'tasks',
  entities: [TaskEntity, TenantSequenceEntity, TaskPayloadEntity, JobEntity],
  resolvers: [TaskResolver],
};
