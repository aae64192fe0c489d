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

const owners = new Map<string, string>();

/** Declare `owner`'s event types. An event type belongs to one owner: declaring it from another throws at start-up. */
export function defineEventTypes<const N extends string>(owner: string, names: readonly N[]): EventTypes<N> {
  for (const name of names) {
    const known = owners.get(name);
    if (known && known !== owner) throw new Error(`event type ${name} is declared by ${known}; ${owner} declares it again`);
    owners.set(name, owner);
  }
  const set = new Set<string>(names);
  return { owner, names, is: (name: string): name is N => set.has(name) };
}

/** Every declared event type and its owner (for documentation and tests). */
export function declaredEventTypes(): ReadonlyMap<string, string> {
  return owners;
}

/** The topic naming rule for app data: `<name>:<app id>:<environment>`. */
export function appTopic(name: string): (appId: string, environment: Environment) => string {
  return (appId, environment) => `${name}:${appId}:${environment}`;
}

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
