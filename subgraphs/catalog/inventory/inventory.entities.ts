// The inventory tables: per-location levels, the append-only adjustment ledger, and reservations.
// An inventory item is a product or a variant (`itemId` is its id; `variantId` set for a variant).
// The item's own row keeps the totals (products/variants: inventory_quantity = the sum of its
// levels, inventory_reserved, inventory_committed), changed only by the conditional statements of
// inventory.repository.ts.
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

/** Stock of one item at one location. */
@Entity({ tableName: 'inventory_levels' })
@Unique({ properties: ['itemId', 'locationId'] })
@Index({ properties: ['appId', 'environment', 'productId'] })
export class InventoryLevelEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('lvl');

  @Property({ length: 32 })
  itemId!: string;

  @Property({ length: 32 })
  productId!: string;

  @Property({ length: 32, nullable: true })
  variantId?: string | null;

  @Property({ length: 32 })
  locationId!: string;

  @Property({ type: 'integer', default: 0 })
  quantity: number & Opt = 0;

  @Property({ type: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}

/** One change of a level: who, when, why, before and after. Rows are never updated or deleted (a trigger refuses it). */
@Entity({ tableName: 'inventory_adjustments' })
@Index({ properties: ['appId', 'environment', 'productId', 'createdAt'] })
export class InventoryAdjustmentEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('adj');

  @Property({ length: 32 })
  itemId!: string;

  @Property({ length: 32 })
  productId!: string;

  @Property({ length: 32, nullable: true })
  variantId?: string | null;

  @Property({ length: 32 })
  locationId!: string;

  @Property({ type: 'integer' })
  delta!: number;

  @Property({ type: 'integer' })
  quantityBefore!: number;

  @Property({ type: 'integer' })
  quantityAfter!: number;

  /** adjust (the client's reason), set (PUT), fulfillment */
  @Property({ length: 200 })
  reason!: string;

  @Property({ length: 200, nullable: true })
  reference?: string | null;

  /** the caller: the API key id, or the user of a JWT */
  @Property({ length: 200 })
  actor!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

export const RESERVATION_STATUSES = ['active', 'committed', 'fulfilled', 'released', 'expired'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/**
 * Stock held for an order. A bundle's reservation is a parent row (`itemId` the bundle) whose
 * children hold the components; only rows of items with stock count in their item's counters.
 */
@Entity({ tableName: 'inventory_reservations' })
@Index({ properties: ['itemId', 'status', 'expiresAt'] })
@Index({ properties: ['status', 'expiresAt'] })
export class ReservationEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('res');

  @Property({ length: 32 })
  itemId!: string;

  @Property({ length: 32 })
  productId!: string;

  @Property({ length: 32, nullable: true })
  variantId?: string | null;

  @Property({ length: 32, nullable: true })
  parentId?: string | null;

  /** a bundle's parent row: it holds nothing itself (its children do) */
  @Property({ type: 'boolean', default: false })
  isBundle: boolean & Opt = false;

  @Property({ length: 200 })
  orderId!: string;

  @Property({ type: 'integer' })
  quantity!: number;

  @Property({ length: 16, default: 'active' })
  status: ReservationStatus & Opt = 'active';

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}
