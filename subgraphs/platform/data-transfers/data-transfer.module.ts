// Data transfers: transfers of an account's data, their access codes and audit, the operator API and
// the public (access-code) API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { DataTransferAccessCodeEntity, DataTransferAuditEntity, DataTransferEntity } from './data-transfer.entity.js';
import { DataTransferResolver } from './data-transfer.resolver.js';
import { DataTransferPublicResolver } from './data-transfer-public.resolver.js';

export const dataTransferModule: SubgraphModule<PlatformContext> = {
  name: 'data-transfers',
  entities: [DataTransferEntity, DataTransferAccessCodeEntity, DataTransferAuditEntity],
  resolvers: [DataTransferResolver, DataTransferPublicResolver],
};
