// Search's webhook events and their body ({ event, occurred_at, data }, docs/search.md), queued
// through the lib outbox in the caller's transaction (a rolled-back task notifies no one).
import { emitToEndpoints, ownerOfApp } from '../../../lib/webhooks/index.js';
import { loadSearchConfig } from '../config.js';
import type { Db } from '../db.js';

export const WEBHOOK_EVENTS = ['indexing.completed', 'indexing.failed', 'index.created', 'index.deleted', 'settings.updated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Tenant {
  appId: string;
  environment: string;
}

let maxAttempts: number | undefined;

/** Queue `event` for every active webhook of the tenant subscribed to it; returns how many. */
export function queueWebhookEvent(db: Db, t: Tenant, event: WebhookEvent, data: Record<string, unknown>, occurredAt = new Date()): Promise<number> {
  maxAttempts ??= loadSearchConfig().webhookMaxAttempts;
  return emitToEndpoints(db, { schema: 'search', maxAttempts }, { owner: ownerOfApp(t.appId, t.environment), event, payload: { event, occurred_at: occurredAt.toISOString(), data } });
}
