// The platform service's events. Account events are recorded in the platform subgraph's outbox in
// the same transaction as the change they describe (notifications/account-events.ts:
// recordAccountEvent), then delivered by the outbox worker to the account's team-chat webhook and
// to the webhook_url of its apps; billing changes are also published after commit on the
// platform's topic (accountTopics). `key.*` are the account's third-party credentials (/keys), not
// the apps' API keys. keys.invalidated tells every gateway to drop cached key records.
import { defineEventTypes, platformTopic, type DomainEvent } from '../../lib/events.js';

export const ACCOUNT_EVENTS = defineEventTypes('platform', [
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
]);
export const ACCOUNT_EVENT_NAMES = ACCOUNT_EVENTS.names;
export type AccountEventName = (typeof ACCOUNT_EVENT_NAMES)[number];

export interface AccountEventPayload<D extends Record<string, unknown> = Record<string, unknown>> extends DomainEvent<AccountEventName> {
  /** the event's id (evt_…): the same across retries, so receivers can de-duplicate */
  id: string;
  platformId: string;
  accountId: string;
  /** the record the event is about, where there is one */
  subject?: { type: string; id: string };
  /** event-specific fields (a snapshot of the subject after the change, snake_case); never a secret except where an event documents one */
  data: D;
}

export function isAccountEventName(v: string): v is AccountEventName {
  return ACCOUNT_EVENTS.is(v);
}

export const accountTopics = {
  accountEvents: platformTopic('platform.account.events'),
};

/**
 * Published by the platform subgraph after a commit that changes what a credential may do: an API key
 * (regenerate, rotate, revoke; app, account, plan or platform changes) or a platform's operators. Every
 * gateway drops the cached key records that match any of the lists (and its cached operator records
 * on `operatorPlatformIds` or `platformIds`), so the change applies at once instead of after the cache
 * TTL, and re-checks its open WebSockets of matching keys (gateway/subscriptions/live-connections.ts).
 */
export interface KeysInvalidatedPayload {
  reason: string;
  occurredAt: string;
  keyIds?: string[];
  appIds?: string[];
  accountIds?: string[];
  platformIds?: string[];
  /** the operators of these platforms changed (added, removed) */
  operatorPlatformIds?: string[];
}

export const KEYS_INVALIDATED_TOPIC = 'platform.keys.invalidated';
