// Catalog events: one payload per event, written twice from one place.
//  - webhooks: `recordEvent(tx, part, event, data)` inside the transaction of the change writes one
//    outbox delivery per subscribed endpoint (lib/webhooks), so an event exists iff its change committed;
//  - subscriptions: `publishEvents(ctx, events)` after commit sends the product events to the
//    gateway's productEvents topic.
// Categories, pricing and inventory emit theirs the same way (category.updated, inventory.*).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { emitToEndpoints, ownerOfApp } from '../../../lib/webhooks/index.js';
import type { CatalogContext } from '../context.js';
import { CATALOG_EVENT_TYPES, PRODUCT_EVENT_NAMES, productEventsTopic, type CatalogEventName, type ProductEventName, type ProductEventPayload } from '../event-types.js';
import { catalogWebhookSettings } from './catalog.settings.js';

export const CATALOG_EVENTS = CATALOG_EVENT_TYPES.names;
export type { CatalogEventName };

/** The catalog's schema (where its outbox tables live). */
export const CATALOG_SCHEMA = 'catalog';

export interface RecordedEvent {
  event: CatalogEventName;
  productId?: string;
}

/**
 * Queue `event` for the partition's subscribed webhook endpoints, in `tx`'s transaction. The body
 * every endpoint receives: { event, timestamp, data } (the spec's payload shape).
 */
export async function recordEvent(tx: EntityManager, part: AppPartition, event: CatalogEventName, data: Record<string, unknown>): Promise<void> {
  await emitToEndpoints(tx, { schema: CATALOG_SCHEMA, maxAttempts: catalogWebhookSettings().maxAttempts }, {
    owner: ownerOfApp(part.appId, part.environment),
    event,
    payload: { event, timestamp: new Date().toISOString(), data },
  });
}

const SUBSCRIBED: ReadonlySet<string> = new Set<ProductEventName>(PRODUCT_EVENT_NAMES);

/** After commit: the product events on the partition's subscription topic (the gateway's productEvents). */
export async function publishEvents(ctx: CatalogContext, part: AppPartition, events: RecordedEvent[]): Promise<void> {
  const topic = productEventsTopic(part.appId, part.environment);
  for (const e of events) {
    if (!e.productId || !SUBSCRIBED.has(e.event)) continue;
    const payload: ProductEventPayload = { event: e.event as ProductEventName, occurredAt: new Date().toISOString(), productId: e.productId };
    await ctx.pubsub.publish(topic, payload);
  }
}
