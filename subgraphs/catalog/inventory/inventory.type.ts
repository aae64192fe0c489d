import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { InventoryAdjustmentEntity } from './inventory.entities.js';
import type { InventoryView, LevelView } from './inventory.service.js';
import type { ReservationView } from './reservation.service.js';

@ObjectType()
export class InventoryLocationLevel implements LevelView {
  @Field(() => ID) locationId!: string;
  @Field() name!: string;
  @Field(() => Int, { description: 'on hand at the location' }) quantity!: number;
  @Field(() => Int, { description: "on hand at the location, capped by the item's available" }) available!: number;
}

@ObjectType({ description: 'Stock of a product or variant across locations' })
export class InventoryStatus implements InventoryView {
  @Field(() => ID) productId!: string;
  @Field(() => ID, { nullable: true }) variantId!: string | null;
  @Field(() => Int, { description: 'on hand, all locations' }) totalQuantity!: number;
  @Field(() => Int, { description: 'totalQuantity - reserved - committed, never below 0' }) available!: number;
  @Field(() => Int, { description: 'held by active reservations whose expires_at is ahead' }) reserved!: number;
  @Field(() => Int, { description: 'held by paid (committed) reservations until fulfilled' }) committed!: number;
  @Field() inStock!: boolean;
  @Field() lowStock!: boolean;
  @Field(() => [InventoryLocationLevel]) locations!: InventoryLocationLevel[];
  @Field() updatedAt!: Date;
}

@ObjectType({ description: 'One ledger row: a change of a level (append-only)' })
export class InventoryAdjustment {
  @Field(() => ID) id!: string;
  @Field(() => ID) productId!: string;
  @Field(() => ID, { nullable: true }) variantId!: string | null;
  @Field(() => ID) locationId!: string;
  @Field(() => Int, { description: 'the change (delta)' }) quantity!: number;
  @Field(() => Int) quantityBefore!: number;
  @Field(() => Int) quantityAfter!: number;
  @Field() reason!: string;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field({ description: 'who: key:<key id> or user:<user id>' }) actor!: string;
  @Field() createdAt!: Date;
}

export function toAdjustment(e: InventoryAdjustmentEntity): InventoryAdjustment {
  return Object.assign(new InventoryAdjustment(), {
    id: e.id,
    productId: e.productId,
    variantId: e.variantId ?? null,
    locationId: e.locationId,
    quantity: e.delta,
    quantityBefore: e.quantityBefore,
    quantityAfter: e.quantityAfter,
    reason: e.reason,
    reference: e.reference ?? null,
    actor: e.actor,
    createdAt: e.createdAt,
  });
}

@ObjectType()
export class InventoryAdjustmentPage {
  @Field(() => [InventoryAdjustment]) items!: InventoryAdjustment[];
  @Field(() => Int) total!: number;
}

@ObjectType({ description: 'Stock held for an order' })
export class Reservation implements ReservationView {
  @Field(() => ID) id!: string;
  @Field(() => ID) productId!: string;
  @Field(() => ID, { nullable: true }) variantId!: string | null;
  @Field(() => Int) quantity!: number;
  @Field() orderId!: string;
  @Field(() => String, { description: 'active, committed, fulfilled, released, expired' }) status!: ReservationView['status'];
  @Field() expiresAt!: Date;
  @Field() createdAt!: Date;
  @Field(() => [Reservation], { nullable: true, description: "a bundle's reservation: what each required component holds" }) components!: Reservation[] | null;
}

@InputType()
export class InventoryAdjustmentInput {
  @Field(() => ID, { nullable: true, description: 'default location when absent' }) locationId?: string;
  @Field(() => Int, { description: 'delta: positive adds, negative removes' }) quantity!: number;
  @Field() reason!: string;
  @Field({ nullable: true }) reference?: string;
}

@InputType()
export class InventoryLevelInput {
  @Field(() => ID) locationId!: string;
  @Field(() => Int, { description: 'absolute level' }) quantity!: number;
}

@InputType()
export class ReserveInventoryInput {
  @Field(() => Int) quantity!: number;
  @Field() orderId!: string;
  @Field({ nullable: true, description: 'default: 15 minutes from now; at most 30 days ahead' }) expiresAt?: Date;
  @Field(() => ID, { nullable: true, description: 'reserve a variant of the product' }) variantId?: string;
}
