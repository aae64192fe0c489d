// The gateway-owned Subscription root, from the generated contract (schema/contract.json,
// lib/contract.ts): each subgraph declares its fields (SDL, scope, topic, the entity its events
// name); here each becomes what the gateway runs: the subscriber's per-tenant topic, which events
// of it the subscriber hears, and how the event's entity is resolved through the supergraph (so a
// subscriber can select fields owned by any subgraph).
import type { Contract, SubscriptionField } from '../../lib/contract.js';
import { appTopic } from '../../lib/events.js';
import type { TenantContext } from '../../lib/tenant.js';

export interface EntityLink {
  /** field on the event type that holds the entity */
  field: string;
  /** supergraph root query that fetches it by id */
  query: string;
  idArg: string;
  idType: string;
  /** event payload → id */
  id: (payload: any) => string;
}

/** Which events of the topic one subscriber hears, from the field's arguments (none: every event). */
export type SubscriptionFilter = (payload: any, args: Record<string, unknown>) => boolean;

export interface SubscriptionDef {
  field: string;
  eventType: string;
  scope: string;
  topic: (t: TenantContext) => string | undefined;
  link: EntityLink;
  filter?: SubscriptionFilter;
}

/** The Subscription root's SDL and its fields as the gateway runs them. */
export interface SubscriptionRegistry {
  sdl: string;
  defs: SubscriptionDef[];
}

export function subscriptionRegistry(contract: Contract['subscriptions']): SubscriptionRegistry {
  return { sdl: contract.sdl, defs: contract.fields.map(subscriptionDef) };
}

/** One declared field: an app's topic heard with an API key of that app and environment. */
export function subscriptionDef(f: SubscriptionField): SubscriptionDef {
  const topic = appTopic(f.topic);
  const { idFrom, ...entity } = f.entity;
  return {
    field: f.field,
    eventType: f.eventType,
    scope: f.scope,
    topic: (t) => (t.kind === 'key' && t.appId && t.environment ? topic(t.appId, t.environment) : undefined),
    link: { ...entity, id: (p) => p[idFrom] },
    filter: eventFilter(f),
  };
}

/** The field's `events` and `argFilters` as one predicate; undefined when the subscriber hears every event. */
function eventFilter(f: SubscriptionField): SubscriptionFilter | undefined {
  const events = f.events ? new Set(f.events) : undefined;
  const byArg = Object.entries(f.argFilters ?? {});
  if (!events && !byArg.length) return undefined;
  return (p, args) => (!events || events.has(p.event)) && byArg.every(([arg, field]) => args[arg] == null || p[field] === args[arg]);
}
