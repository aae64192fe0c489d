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

// Account events (platform service). Recorded in the platform subgraph's outbox in the same
// transaction as the change they describe (subgraphs/platform/notifications/account-events.ts:
// recordAccountEvent), then delivered by the outbox worker to the account's team-chat webhook and
// to the webhook_url of its apps; billing changes are also published after commit on the
// platform's topic (accountTopics). `key.*` are the account's third-party credentials (/keys), not
// the apps' API keys.
export const ACCOUNT_EVENT_NAMES = [
  'account.created',
  'account.updated',
  'account.deleted',
  'account.restored',
  'key.created',
  'key.updated',
  'key.deleted',
  'exchange.created',
  'exchange.updated',
  'exchange.deleted',
  'details.updated',
  'storage.provisioned',
  'logo.published',
  'subscription.changed',
  'subscription.created',
  'subscription.updated',
  'subscription.trial_ended',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.canceled',
  'invoice.created',
  'invoice.paid',
  'invoice.voided',
  'data_transfer.created',
  'data_transfer.access_requested',
  'data_transfer.accepted',
  'data_transfer.declined',
  'block.licensed',
  'block.unlicensed',
  'block.provisioned',
  'block.deprovisioned',
  'access.granted',
  'access.revoked',
  'access.suspended',
  'access.reactivated',
] as const;
export type AccountEventName = (typeof ACCOUNT_EVENT_NAMES)[number];

export interface AccountEventPayload<D extends Record<string, unknown> = Record<string, unknown>> {
  /** the event's id (evt_…): the same across retries, so receivers can de-duplicate */
  id: string;
  event: AccountEventName;
  occurredAt: string;
  platformId: string;
  accountId: string;
  /** the record the event is about, where there is one */
  subject?: { type: string; id: string };
  /** event-specific fields (a snapshot of the subject after the change, snake_case); never a secret except where an event documents one */
  data: D;
}

export function isAccountEventName(v: string): v is AccountEventName {
  return (ACCOUNT_EVENT_NAMES as readonly string[]).includes(v);
}

export const accountTopics = {
  accountEvents: (platformId: string) => `platform.account.events:${platformId}`,
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

// AI events (document 2): batch.completed now; moderation.flagged and classifier.trained share the topic.
export type AiEventName = 'batch.completed' | 'moderation.flagged' | 'classifier.trained';

export interface AiEventPayload {
  event: AiEventName;
  occurredAt: string;
  batchId: string;
  operation: string;
  status: string;
}

export const aiEventsTopic = (appId: string, environment: Environment) => `ai.events:${appId}:${environment}`;
