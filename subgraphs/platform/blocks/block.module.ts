// The block aggregate: the block catalog, licenses of an account and instances of an app (and the
// fields they add to Account and App), the federated Block entity and their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { BlockEntity, BlockInstanceEntity, BlockLicenseEntity } from './block.entity.js';
import { blockLoaders } from './block.loaders.js';
import { blockReference } from './block.reference.js';
import { AccountBlocksResolver, AppBlocksResolver, BlockResolver } from './block.resolver.js';

export const blockModule: SubgraphModule<PlatformContext> = {
  name: 'blocks',
  entities: [BlockEntity, BlockLicenseEntity, BlockInstanceEntity],
  resolvers: [BlockResolver, AccountBlocksResolver, AppBlocksResolver],
  referenceResolvers: blockReference,
  loaders: blockLoaders,
};
