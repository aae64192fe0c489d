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

// Account events (platform service): subscription and billing changes today; other parts of the
// account's life append their names here. Published after commit on the platform's topic; the
// webhook/notification delivery subscribes to it.
export type AccountEventName =
  | 'subscription.created'
  | 'subscription.updated'
  | 'subscription.trial_ended'
  | 'subscription.renewed'
  | 'subscription.past_due'
  | 'subscription.paused'
  | 'subscription.resumed'
  | 'subscription.canceled'
  | 'invoice.created'
  | 'invoice.paid'
  | 'invoice.voided';

export interface AccountEventPayload {
  event: AccountEventName;
  occurredAt: string;
  platformId: string;
  accountId: string;
  /** the record the event is about */
  subject: { type: 'subscription' | 'invoice'; id: string };
  /** a snapshot of the subject after the change (snake_case, as the REST API shows it) */
  data: Record<string, unknown>;
}

export const accountTopics = {
  accountEvents: (platformId: string) => `platform.account.events:${platformId}`,
};
