// Webhooks of the caller's app partition: register (URL checked against internal addresses),
// list, deactivate, and the delivery log. Rows go through the ORM with the tenant filter.
import { DomainError } from '../../../lib/errors.js';
import type { SearchContext } from '../context.js';
import { requireApp } from '../tenancy.js';
import { checkWebhookUrl } from './url-guard.js';
import { WEBHOOK_EVENTS, WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEntity, type WebhookEvent } from './webhook.entity.js';

export const MIN_SECRET = 16;
export const MAX_WEBHOOKS = 20;

export async function registerWebhook(ctx: SearchContext, input: { url: string; events: string[]; secret: string }): Promise<WebhookEntity> {
  const { appId, environment } = requireApp(ctx);
  if (typeof input.url !== 'string' || !input.url) throw new DomainError('VALIDATION_FAILED', 'url is required', { parameter: 'url' });
  if (!Array.isArray(input.events) || input.events.length === 0) {
    throw new DomainError('VALIDATION_FAILED', `events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`, { parameter: 'events' });
  }
  input.events.forEach((e, i) => {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(e)) {
      throw new DomainError('VALIDATION_FAILED', `events[${i}]: "${e}" is not one of ${WEBHOOK_EVENTS.join(', ')}`, { parameter: `events[${i}]` });
    }
  });
  if (typeof input.secret !== 'string' || input.secret.length < MIN_SECRET || input.secret.length > 256) {
    throw new DomainError('VALIDATION_FAILED', `secret must be a string of ${MIN_SECRET} to 256 characters (it signs every delivery)`, { parameter: 'secret' });
  }
  const url = await checkWebhookUrl(input.url, ctx.runtime.allowPrivateNetwork);
  const active = await ctx.em.count(WebhookEntity, { active: true });
  if (active >= MAX_WEBHOOKS) throw new DomainError('VALIDATION_FAILED', `An app may have at most ${MAX_WEBHOOKS} active webhooks`, { parameter: 'url' });
  const hook = ctx.em.create(WebhookEntity, { appId, environment, url: url.toString(), events: [...new Set(input.events)] as WebhookEvent[], secret: input.secret });
  await ctx.em.flush();
  return hook;
}

export function listWebhooks(ctx: SearchContext): Promise<WebhookEntity[]> {
  requireApp(ctx);
  return ctx.em.find(WebhookEntity, { active: true }, { orderBy: { createdAt: 'asc' } });
}

export async function getWebhook(ctx: SearchContext, id: string): Promise<WebhookEntity> {
  requireApp(ctx);
  const hook = typeof id === 'string' && /^whk_[A-Za-z0-9]{20}$/.test(id) ? await ctx.em.findOne(WebhookEntity, { id, active: true }) : null;
  if (!hook) throw new DomainError('webhook_not_found', `Webhook \`${id}\` not found.`, { parameter: 'webhook_id' });
  return hook;
}

/** Deactivate: no new deliveries; queued ones are still sent; the delivery log stays readable. */
export async function deleteWebhook(ctx: SearchContext, id: string): Promise<WebhookEntity> {
  const hook = await getWebhook(ctx, id);
  hook.active = false;
  await ctx.em.flush();
  return hook;
}

export async function deliveries(ctx: SearchContext, webhookId: string, limit = 20): Promise<{ delivery: WebhookDeliveryEntity; attempts: WebhookAttemptEntity[] }[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new DomainError('BAD_REQUEST', 'limit must be an integer from 1 to 100', { parameter: 'limit' });
  const list = await ctx.em.find(WebhookDeliveryEntity, { webhookId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  const attempts = list.length ? await ctx.em.find(WebhookAttemptEntity, { deliveryId: { $in: list.map((d) => d.id) } }, { orderBy: { attempt: 'asc' } }) : [];
  return list.map((d) => ({ delivery: d, attempts: attempts.filter((a) => a.deliveryId === d.id) }));
}
