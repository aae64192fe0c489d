// Domain events: one typed payload per event, one topic naming rule. The same payload feeds
// GraphQL subscriptions (gateway) and, in later issues, webhooks. Topics carry the tenant
// (app and environment), so a subscriber can only ever listen to its own tenant.
import type { Environment } from './tenant.js';

export type ProductEventName = 'product.created' | 'product.updated' | 'product.deleted' | 'product.published';

export interface ProductEventPayload {
  event: ProductEventName;
  occurredAt: string;
  productId: string;
}

export const topics = {
  productEvents: (appId: string, environment: Environment) => `product.events:${appId}:${environment}`,
};
