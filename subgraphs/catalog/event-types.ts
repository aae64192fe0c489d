// The catalog's events. All of them can be subscribed to by webhooks (events/catalog.events.ts);
// the product and variant events are also published after commit on the app's topic, heard by the
// gateway's subscriptions (productEvents, declared in subscription-fields.ts).
import { appTopic, defineEventTypes, type DomainEvent } from '../../lib/events.js';

export const CATALOG_EVENT_TYPES = defineEventTypes('catalog', [
  'product.created',
  'product.updated',
  'product.deleted',
  'product.published',
  'inventory.low_stock',
  'inventory.out_of_stock',
  'inventory.adjusted',
  'variant.created',
  'variant.updated',
  'category.updated',
]);
export type CatalogEventName = (typeof CATALOG_EVENT_TYPES.names)[number];

/** The events the productEvents subscription carries. */
export const PRODUCT_EVENT_NAMES = ['product.created', 'product.updated', 'product.deleted', 'product.published', 'variant.created', 'variant.updated'] as const;
export type ProductEventName = (typeof PRODUCT_EVENT_NAMES)[number];

export interface ProductEventPayload extends DomainEvent<ProductEventName> {
  productId: string;
}

export const PRODUCT_EVENTS_TOPIC = 'product.events';
export const productEventsTopic = appTopic(PRODUCT_EVENTS_TOPIC);

// ── inventory (inventory/): stock events on their own topic, heard by the gateway's
// inventoryEvents and inventoryAlerts subscriptions
export const INVENTORY_EVENT_NAMES = ['inventory.adjusted', 'inventory.low_stock', 'inventory.out_of_stock'] as const;
export type InventoryEventName = (typeof INVENTORY_EVENT_NAMES)[number];

export interface InventoryEventPayload extends DomainEvent<InventoryEventName> {
  productId: string;
  variantId: string | null;
  /** the location of the change; null when the change is not at one location (a reservation) */
  locationId: string | null;
  sku: string;
  name: string;
  /** available after the change (low_stock / out_of_stock: the spec's current_quantity) */
  currentQuantity: number;
  threshold: number | null;
  /** inventory.adjusted: the level's change at the location, and the item's total on hand after it */
  delta: number | null;
  totalQuantity: number;
  reason: string | null;
}

export const INVENTORY_EVENTS_TOPIC = 'inventory.events';
export const inventoryEventsTopic = appTopic(INVENTORY_EVENTS_TOPIC);
