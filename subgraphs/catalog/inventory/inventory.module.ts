// The inventory aggregate: per-location stock levels, the adjustment ledger and reservations, and the
// recurring reservation expiry job (a pending run is made sure of when the workers start).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { InventoryAdjustmentEntity, InventoryLevelEntity, ReservationEntity } from './inventory.entities.js';
import { InventoryResolver } from './inventory.resolver.js';
import { reservationExpiryKind, scheduleExpiry } from './reservation.expiry.js';

export const inventoryModule: SubgraphModule<CatalogContext> = {
  name: 'inventory',
  entities: [InventoryLevelEntity, InventoryAdjustmentEntity, ReservationEntity],
  resolvers: [InventoryResolver],
  jobs: async (deps) => {
    await scheduleExpiry(deps.orm.em.fork(), 1000);
    return [reservationExpiryKind(deps)];
  },
};
