// Batches: queued AI work over many inputs, their API and the batch job (kind ai.batch).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { AiBatchEntity } from './batch.entity.js';
import { batchJobKind } from './batch.job.js';
import { BatchResolver } from './batch.resolver.js';

export const batchModule: SubgraphModule<AiContext> = {
  name: 'batches',
  entities: [AiBatchEntity],
  resolvers: [BatchResolver],
  jobs: (deps) => [batchJobKind(deps)],
};
