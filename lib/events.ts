// Domain events: the mechanism. Each subgraph declares its own event types and payloads in its
// `event-types.ts` (defineEventTypes below) and publishes them after the commit they describe; the
// same payload feeds GraphQL subscriptions (the gateway) and webhooks. Topics carry the tenant (an
// app and environment, or a platform), so a subscriber can only ever listen to its own tenant.
import type { Logger } from './logger.js';
import type { PubSub } from './pubsub.js';
import type { Environment } from './tenant.js';

/** What every event payload carries. */
export interface DomainEvent<N extends string = string> {
  event: N;
  /** ISO 8601 */
  occurredAt: string;
}

export interface EventTypes<N extends string> {
  owner: string;
  names: readonly N[];
  is(name: string): name is N;
}

/**
 * Declare `owner`'s event types (a plain value, set on the SubgraphDefinition). An event type belongs
 * to one owner: `npm run compose` refuses to write a contract where two subgraphs declare one.
 */
export function defineEventTypes<const N extends string>(owner: string, names: readonly N[]): EventTypes<N> {
  const set = new Set<string>(names);
  return { owner, names, is: (name: string): name is N => set.has(name) };
}

/** The topic naming rule for app data: `<name>:<app id>:<environment>`. */
export function appTopic(name: string): (appId: string, environment: Environment) => string {
  return (appId, environment) => `${name}:${appId}:${environment}`;
}

/**
 * Published by the platform subgraph after a commit that changes what a credential may do: an API key
 * (regenerate, rotate, revoke; app, account, plan or platform changes) or a platform's operators. Every
 * gateway drops the cached key records that match any of the lists (and its cached operator records
 * on `operatorPlatformIds` or `platformIds`), so the change applies at once instead of after the cache
 * TTL, and re-checks its open WebSockets of matching keys (gateway/subscriptions/live-connections.ts).
 * A message between two processes, so it is the kernel's: both sides import it from here.
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

/** The search subgraph's index events (created, deleted, settings updated), per app: heard by the gateway's response cache. */
export const SEARCH_INDEX_EVENTS_TOPIC = 'search.events';

/** The topic naming rule for platform data: `<name>:<platform id>`. */
export function platformTopic(name: string): (platformId: string) => string {
  return (platformId) => `${name}:${platformId}`;
}

/**
 * Publish after commit. A failed publish is logged, not thrown: the change is committed, and
 * answering an error would tell the caller it was not.
 */
export async function publishAfterCommit(deps: { pubsub: PubSub; log: Logger }, topic: string, payload: unknown, what: string): Promise<void> {
  try {
    await deps.pubsub.publish(topic, payload);
  } catch (err) {
    deps.log.warn(`${what} not published`, { err });
  }
}

/**
 * platform.operations.changed: an app's registered operations or its "registered operations only"
 * setting changed (published by the platform subgraph after commit); every gateway drops its copy of
 * the app's registry. A message from a subgraph to the gateways, so its type is the kernel's.
 */
export interface OperationsChangedPayload {
  appId: string;
  occurredAt: string;
}

export const OPERATIONS_CHANGED_TOPIC = 'platform.operations.changed';
