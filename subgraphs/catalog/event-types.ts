// The catalog's events: published after commit on the app's topic, heard by the gateway's
// subscriptions (productEvents).
import { appTopic, defineEventTypes, type DomainEvent } from '../../lib/events.js';

export const PRODUCT_EVENTS = defineEventTypes('catalog', ['product.created', 'product.updated', 'product.deleted', 'product.published']);
export type ProductEventName = (typeof PRODUCT_EVENTS.names)[number];

export interface ProductEventPayload extends DomainEvent<ProductEventName> {
  productId: string;
}

export const productEventsTopic = appTopic('product.events');
