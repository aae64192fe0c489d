// Webhooks of the caller's app partition on the lib endpoints (lib/webhooks): register (URL
// guard, sealed secret), list, deactivate, and the delivery log. The owner is the app partition.
import { appEndpoints, type DeliveryLogEntry, type WebhookEndpointEntity } from '../../../lib/webhooks/index.js';
import type { SearchContext } from '../context.js';
import { WEBHOOK_EVENTS } from './webhook.events.js';

const endpoints = appEndpoints({ events: WEBHOOK_EVENTS, urlError: 'invalid_webhook_url', notFound: 'webhook_not_found', maxEndpoints: 20 });

export function registerWebhook(ctx: SearchContext, input: { url: string; events: string[]; secret: string }): Promise<WebhookEndpointEntity> {
  return endpoints.register(ctx, { secrets: ctx.runtime.secrets, allowPrivate: ctx.runtime.allowPrivateNetwork }, input);
}

export const listWebhooks = (ctx: SearchContext): Promise<WebhookEndpointEntity[]> => endpoints.list(ctx);

export const getWebhook = (ctx: SearchContext, id: string): Promise<WebhookEndpointEntity> => endpoints.get(ctx, id);

/** Deactivate: no new deliveries; queued ones are still sent; the delivery log stays readable. */
export const deleteWebhook = (ctx: SearchContext, id: string): Promise<WebhookEndpointEntity> => endpoints.deactivate(ctx, id);

export const deliveries = (ctx: SearchContext, webhookId: string, limit?: number | null): Promise<DeliveryLogEntry[]> => endpoints.deliveries(ctx, webhookId, limit);
