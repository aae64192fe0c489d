// Locations, per-location stock levels, the adjustment ledger and reservations of the catalog
// subgraph: their entities and resolvers, so index.ts registers them with one line each.
import { InventoryAdjustmentEntity, InventoryLevelEntity, ReservationEntity } from './inventory/inventory.entities.js';
import { InventoryResolver } from './inventory/inventory.resolver.js';
import { LocationEntity } from './locations/location.entity.js';
import { LocationResolver } from './locations/location.resolver.js';

export const INVENTORY_ENTITIES = [LocationEntity, InventoryLevelEntity, InventoryAdjustmentEntity, ReservationEntity];

export const INVENTORY_RESOLVERS = [InventoryResolver, LocationResolver];
