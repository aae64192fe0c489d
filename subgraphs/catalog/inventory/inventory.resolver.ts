import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import * as inventory from './inventory.service.js';
import * as reservations from './reservation.service.js';
import { SECRET_KEY } from '../../../lib/tenant.js';
import {
  InventoryStatus,
  InventoryAdjustmentInput,
  InventoryAdjustmentPage,
  InventoryLevelInput,
  Reservation,
  ReserveInventoryInput,
  toAdjustment,
} from './inventory.type.js';

@Resolver(() => InventoryStatus)
export class InventoryResolver {
  @Authorized('products:read')
  @Query(() => InventoryStatus, { description: 'Stock of a product (or one of its variants) across locations' })
  async productInventory(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('variantId', () => ID, { nullable: true }) variantId?: string): Promise<InventoryStatus> {
    return inventory.getInventory(ctx, productId, variantId);
  }

  @Authorized('products:read', SECRET_KEY)
  @Directive('@listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => InventoryAdjustmentPage, { description: 'The adjustment ledger of a product (or variant), newest first' })
  async inventoryAdjustments(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('variantId', () => ID, { nullable: true }) variantId: string | undefined,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('pageSize', () => Int, { defaultValue: 20 }) pageSize: number,
  ): Promise<InventoryAdjustmentPage> {
    const r = await inventory.listAdjustments(ctx, productId, variantId, page, pageSize);
    return { items: r.items.map(toAdjustment), total: r.total };
  }

  @Authorized('products:write')
  @Mutation(() => InventoryStatus, { description: 'Apply deltas per location with a reason (ledger); INSUFFICIENT_INVENTORY below what is held' })
  async adjustInventory(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('adjustments', () => [InventoryAdjustmentInput]) adjustments: InventoryAdjustmentInput[],
    @Arg('variantId', () => ID, { nullable: true }) variantId?: string,
  ): Promise<InventoryStatus> {
    return inventory.adjustInventory(ctx, productId, variantId, adjustments);
  }

  @Authorized('products:write')
  @Mutation(() => InventoryStatus, { description: 'Set absolute levels per location (ledger reason "set")' })
  async setInventoryLevels(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('locations', () => [InventoryLevelInput]) locations: InventoryLevelInput[],
    @Arg('variantId', () => ID, { nullable: true }) variantId?: string,
  ): Promise<InventoryStatus> {
    return inventory.setInventoryLevels(ctx, productId, variantId, locations);
  }

  @Authorized('products:write')
  @Mutation(() => Reservation, { description: 'Hold stock for an order (atomic; the same orderId again answers its reservation); INSUFFICIENT_INVENTORY / INVENTORY_RESERVED' })
  async reserveInventory(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('input', () => ReserveInventoryInput) input: ReserveInventoryInput): Promise<Reservation> {
    return reservations.reserve(ctx, productId, input);
  }

  @Authorized('products:read', SECRET_KEY)
  @Query(() => Reservation, { description: 'A reservation by id' })
  async inventoryReservation(@Ctx() ctx: CatalogContext, @Arg('reservationId', () => ID) reservationId: string): Promise<Reservation> {
    return reservations.getReservation(ctx, reservationId);
  }

  @Authorized('products:write')
  @Mutation(() => Reservation, { description: 'Release a reservation: its stock is available again' })
  async releaseReservation(@Ctx() ctx: CatalogContext, @Arg('reservationId', () => ID) reservationId: string): Promise<Reservation> {
    return reservations.release(ctx, reservationId);
  }

  @Authorized('products:write')
  @Mutation(() => Reservation, { description: 'The order is paid: the reservation becomes committed (held until fulfilled, no longer expiring)' })
  async commitReservation(@Ctx() ctx: CatalogContext, @Arg('reservationId', () => ID) reservationId: string): Promise<Reservation> {
    return reservations.commit(ctx, reservationId);
  }

  @Authorized('products:write')
  @Mutation(() => Reservation, { description: 'The order ships: committed stock leaves the location (default location when absent)' })
  async fulfillReservation(@Ctx() ctx: CatalogContext, @Arg('reservationId', () => ID) reservationId: string, @Arg('locationId', () => ID, { nullable: true }) locationId?: string): Promise<Reservation> {
    return reservations.fulfill(ctx, reservationId, locationId);
  }
}
