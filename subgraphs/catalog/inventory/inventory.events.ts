// Inventory events: each written to the outbox in the change's transaction (webhooks, through the
// catalog's EventLog) and published after commit on the app's inventory topic (the gateway's
// inventoryEvents / inventoryAlerts subscriptions). One payload feeds both.
import type { EntityManager } from '@mikro-orm/postgresql';
import { publishAfterCommit } from '../../../lib/events.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { EventLog } from '../events/catalog.events.js';
import { inventoryEventsTopic, type InventoryEventName, type InventoryEventPayload } from '../event-types.js';
import { itemIdOf, availableOf, type ItemRef, type ItemState } from './inventory.repository.js';
import { stockCrossings } from './inventory.rules.js';

export interface AdjustedFacts {
  locationId: string;
  delta: number;
  levelBefore: number;
  levelAfter: number;
  reason: string;
  reference: string | null;
}

/** The events of one inventory write: recorded in its transaction, published after its commit. */
export class InventoryEvents {
  private readonly log: EventLog;
  private readonly pending: InventoryEventPayload[] = [];

  constructor(ctx: CatalogContext) {
    this.log = new EventLog(ctx.runtime.webhooks.outbox);
  }

  get count(): number {
    return this.pending.length;
  }

  private async record(tx: EntityManager, part: AppPartition, payload: InventoryEventPayload, data: Record<string, unknown>): Promise<void> {
    await this.log.record(tx, part, payload.event, data);
    this.pending.push(payload);
  }

  private base(event: InventoryEventName, item: ItemRef, s: ItemState, locationId: string | null): InventoryEventPayload {
    return {
      event,
      occurredAt: new Date().toISOString(),
      productId: item.productId,
      variantId: item.variantId,
      locationId,
      sku: s.sku,
      name: s.name,
      currentQuantity: availableOf(s),
      threshold: s.threshold,
      delta: null,
      totalQuantity: s.quantity,
      reason: null,
    };
  }

  /** inventory.adjusted for a level change. */
  async adjusted(tx: EntityManager, part: AppPartition, item: ItemRef, after: ItemState, f: AdjustedFacts): Promise<void> {
    const p = { ...this.base('inventory.adjusted', item, after, f.locationId), delta: f.delta, reason: f.reason };
    await this.record(tx, part, p, {
      product_id: item.productId,
      variant_id: item.variantId,
      sku: after.sku,
      name: after.name,
      location_id: f.locationId,
      delta: f.delta,
      quantity_before: f.levelBefore,
      quantity_after: f.levelAfter,
      total_quantity: after.quantity,
      available: availableOf(after),
      reason: f.reason,
      reference: f.reference,
    });
  }

  /** inventory.low_stock / inventory.out_of_stock when available crossed the line in this change (once per crossing). */
  async crossings(tx: EntityManager, part: AppPartition, item: ItemRef, before: ItemState, after: ItemState, locationId: string | null): Promise<void> {
    for (const event of stockCrossings(before, after)) {
      const p = this.base(event, item, after, locationId);
      await this.record(tx, part, p, {
        product_id: item.productId,
        variant_id: item.variantId,
        sku: after.sku,
        name: after.name,
        current_quantity: availableOf(after),
        ...(event === 'inventory.low_stock' ? { threshold: after.threshold } : {}),
        location_id: locationId,
      });
    }
  }

  /** After commit: wake the webhook sender and publish on the app's inventory topic. */
  async publish(ctx: CatalogContext, part: AppPartition): Promise<void> {
    if (!this.pending.length) return;
    ctx.runtime.webhooks.kick();
    const topic = inventoryEventsTopic(part.appId, part.environment);
    for (const p of this.pending) await publishAfterCommit(ctx, topic, p, p.event);
  }
}

export { itemIdOf };
