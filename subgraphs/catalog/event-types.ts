// The catalog's events. All of them can be subscribed to by webhooks (events/catalog.events.ts);
// the product and variant events are also published after commit on the app's topic, heard by the
// gateway's subscriptions (productEvents).
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

export const productEventsTopic = appTopic('product.events');
