// The inventory aggregate: per-location stock levels, the adjustment ledger and reservations (the
// reservation expiry job is started by ../workers.ts).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { InventoryAdjustmentEntity, InventoryLevelEntity, ReservationEntity } from './inventory.entities.js';
import { InventoryResolver } from './inventory.resolver.js';

export const inventoryModule: SubgraphModule<CatalogContext> = {
  name: 'inventory',
  entities: [InventoryLevelEntity, InventoryAdjustmentEntity, ReservationEntity],
  resolvers: [InventoryResolver],
};
