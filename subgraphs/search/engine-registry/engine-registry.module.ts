// The engines of this process (engine-registry.ts, held by the runtime) and their snapshot tables.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { IndexSnapshotChunkEntity, IndexSnapshotEntity } from './snapshot.entity.js';

export const engineRegistryModule: SubgraphModule<SearchContext> = {
  name: 'engine-registry',
  entities: [IndexSnapshotEntity, IndexSnapshotChunkEntity],
};
