// Catalog events: one payload per event, written twice from one place.
//  - webhooks: `EventLog.record(tx, part, event, data)` inside the transaction of the change writes one
//    outbox delivery per subscribed endpoint (lib/webhooks), so an event exists iff its change committed;
//  - subscriptions: `publishEvents(ctx, events)` after commit sends the product events to the
//    gateway's productEvents topic.
import type { EntityManager } from '@mikro-orm/postgresql';
import { publishAfterCommit } from '../../../lib/events.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { emitToEndpoints, ownerOfApp, type OutboxConfig } from '../../../lib/webhooks/index.js';
import type { CatalogContext } from '../context.js';
import { CATALOG_EVENT_TYPES, PRODUCT_EVENT_NAMES, productEventsTopic, type CatalogEventName, type ProductEventName, type ProductEventPayload } from '../event-types.js';

export const CATALOG_EVENTS = CATALOG_EVENT_TYPES.names;
export type { CatalogEventName };


export interface RecordedEvent {
  event: CatalogEventName;
  productId?: string;
}

/**
 * The events of one write. `record` queues an event for the partition's subscribed webhook
 * endpoints in the write's transaction (the body every endpoint receives: { event, timestamp, data },
 * the spec's payload shape) and remembers it for the after-commit publish (`recorded`).
 */
export class EventLog {
  readonly recorded: RecordedEvent[] = [];

  constructor(private readonly outbox: OutboxConfig) {}

  async record(tx: EntityManager, part: AppPartition, event: CatalogEventName, data: Record<string, unknown>, productId?: string): Promise<void> {
    await emitToEndpoints(tx, this.outbox, {
      owner: ownerOfApp(part.appId, part.environment),
      event,
      payload: { event, timestamp: new Date().toISOString(), data },
    });
    this.recorded.push({ event, productId });
  }
}

const SUBSCRIBED: ReadonlySet<string> = new Set<ProductEventName>(PRODUCT_EVENT_NAMES);

/** After commit: the product events on the partition's subscription topic (the gateway's productEvents). */
export async function publishEvents(ctx: CatalogContext, part: AppPartition, events: RecordedEvent[]): Promise<void> {
  const topic = productEventsTopic(part.appId, part.environment);
  for (const e of events) {
    if (!e.productId || !SUBSCRIBED.has(e.event)) continue;
    const payload: ProductEventPayload = { event: e.event as ProductEventName, occurredAt: new Date().toISOString(), productId: e.productId };
    await publishAfterCommit(ctx, topic, payload, e.event);
  }
}
