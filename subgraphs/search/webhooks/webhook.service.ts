// Webhooks of the caller's app partition on the lib endpoints (lib/webhooks): register (URL
// guard, sealed secret), list, deactivate, and the delivery log. The owner is the app partition.
import {
  deactivateEndpoint,
  endpointLogLimit,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  ownerOfApp,
  registerEndpoint,
  type DeliveryLogEntry,
  type EndpointRules,
  type WebhookEndpointEntity,
} from '../../../lib/webhooks/index.js';
import type { SearchContext } from '../context.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import { WEBHOOK_EVENTS } from './webhook.events.js';

const RULES: EndpointRules = { events: WEBHOOK_EVENTS, urlError: 'invalid_webhook_url', notFound: 'webhook_not_found', maxEndpoints: 20 };

async function owner(ctx: SearchContext): Promise<string> {
  const { appId, environment } = await appPartition(ctx);
  return ownerOfApp(appId, environment);
}

export async function registerWebhook(ctx: SearchContext, input: { url: string; events: string[]; secret: string }): Promise<WebhookEndpointEntity> {
  return registerEndpoint({ em: ctx.em, secrets: ctx.runtime.secrets, allowPrivate: ctx.runtime.allowPrivateNetwork }, await owner(ctx), input, RULES);
}

export async function listWebhooks(ctx: SearchContext): Promise<WebhookEndpointEntity[]> {
  return listEndpoints(ctx.em, await owner(ctx));
}

export async function getWebhook(ctx: SearchContext, id: string): Promise<WebhookEndpointEntity> {
  return getEndpoint(ctx.em, await owner(ctx), id, RULES);
}

/** Deactivate: no new deliveries; queued ones are still sent; the delivery log stays readable. */
export async function deleteWebhook(ctx: SearchContext, id: string): Promise<WebhookEndpointEntity> {
  return deactivateEndpoint(ctx.em, await owner(ctx), id, RULES);
}

export async function deliveries(ctx: SearchContext, webhookId: string, limit?: number | null): Promise<DeliveryLogEntry[]> {
  return listDeliveries(ctx.em, { owner: await owner(ctx), endpointId: webhookId, limit: endpointLogLimit(limit) });
}
