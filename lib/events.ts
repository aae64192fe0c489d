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

/**
 * Published by the platform subgraph after a commit that changes what an API key may do (regenerate,
 * rotate, revoke; app, account or platform changes). Every gateway drops the cached key records that
 * match any of the lists, so the change applies at once instead of after the cache TTL.
 */
export interface KeysInvalidatedPayload {
  reason: string;
  occurredAt: string;
  keyIds?: string[];
  appIds?: string[];
  accountIds?: string[];
  platformIds?: string[];
}

export const KEYS_INVALIDATED_TOPIC = 'platform.keys.invalidated';
