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

/** Search task progress (enqueued → processing → succeeded | failed | canceled), per tenant topic. */
export type SearchTaskEventName = 'task.enqueued' | 'task.processing' | 'task.succeeded' | 'task.failed' | 'task.canceled';

export interface SearchTaskEventPayload {
  event: SearchTaskEventName;
  occurredAt: string;
  taskId: string;
  indexUid: string;
  taskType: string;
  status: string;
  /** documents indexed (or deleted) by the task so far; null until known */
  documentsIndexed: number | null;
}

export const searchTaskTopic = (appId: string, environment: Environment) => `search.tasks:${appId}:${environment}`;
