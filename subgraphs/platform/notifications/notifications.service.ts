// Notification settings of an account (team-chat webhook, event filter), its delivery log, and
// the signing secrets of its apps' webhooks.
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { base62 } from '../../../lib/ids.js';
import { checkFetchTarget, NetGuardError } from '../../../lib/net-guard.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { getApp } from '../apps/app.service.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { fail, intInRange, oneOf, optionalHttpUrl } from '../validation.js';
import { teamChatUrlAad, webhookSecretAad } from './aad.js';
import { AppWebhookSecretEntity } from './app-webhook-secret.entity.js';
import { checkEventPattern } from './event-filter.rules.js';
import { NotificationSettingsEntity } from './notification-settings.entity.js';
import type { NotificationSettingsInput } from './notifications.inputs.js';
import { DELIVERY_STATUSES, listDeliveries as deliveryLog } from '../../../lib/webhooks/index.js';

export async function getSettings(ctx: PlatformContext, accountUrlId: string) {
  const account = await getAccount(ctx, accountUrlId);
  return { accountId: account.id, row: await ctx.em.findOne(NotificationSettingsEntity, { account: account.id }) };
}

/** scheme://host/…last four of the path: recognisable, useless for posting. */
export function maskUrl(u: URL): string {
  const rest = `${u.pathname}${u.search}`;
  return `${u.protocol}//${u.host}/…${rest.length > 8 ? rest.slice(-4) : ''}`;
}

async function teamChatUrl(ctx: PlatformContext, raw: string): Promise<URL> {
  const v = optionalHttpUrl(raw, 'teamChatWebhookUrl');
  if (!v) fail('teamChatWebhookUrl', 'team_chat_webhook_url must not be empty (send null to remove it)');
  try {
    return await checkFetchTarget(v, { allowPrivate: ctx.runtime.cfg.allowPrivateNetworkFetch });
  } catch (e) {
    if (e instanceof NetGuardError) fail('teamChatWebhookUrl', `team_chat_webhook_url: ${e.message}`);
    fail('teamChatWebhookUrl', `team_chat_webhook_url: the host cannot be resolved (${(e as Error).message})`);
  }
}

export async function updateSettings(ctx: PlatformContext, accountUrlId: string, input: NotificationSettingsInput) {
  const account = await getAccount(ctx, accountUrlId);
  const url = input.teamChatWebhookUrl != null ? await teamChatUrl(ctx, input.teamChatWebhookUrl) : input.teamChatWebhookUrl;
  let events: string[] | undefined;
  if (input.events != null) {
    events = [...new Set(input.events.map((e) => e.trim()))];
    if (events.length === 0) fail('events', "events must name at least one event or pattern ('*' for all); set enabled=false to pause");
    if (events.length > 50) fail('events', 'events holds at most 50 entries');
    for (const e of events) {
      const problem = checkEventPattern(e);
      if (problem) fail('events', `events: ${problem}`);
    }
  }
  let row = await ctx.em.findOne(NotificationSettingsEntity, { account: account.id });
  const extra = input.extraAttributes != null ? mergeExtraAttributes(row?.extraAttributes, input.extraAttributes) : undefined;
  row ??= ctx.em.create(NotificationSettingsEntity, {
    platform: ctx.em.getReference(PlatformEntity, account.platform.id),
    account: ctx.em.getReference(AccountEntity, account.id),
  });
  if (url === null) {
    row.teamChatUrlSealed = null;
    row.teamChatUrlMasked = null;
  } else if (url) {
    row.teamChatUrlSealed = ctx.runtime.secrets.seal(url.toString(), teamChatUrlAad(account.id));
    row.teamChatUrlMasked = maskUrl(url);
  }
  if (events) row.events = events;
  if (input.enabled != null) row.enabled = input.enabled;
  if (extra) row.extraAttributes = extra;
  await ctx.em.flush();
  return { accountId: account.id, row };
}

export async function listDeliveries(ctx: PlatformContext, accountUrlId: string, status?: string | null, limit?: number | null) {
  const account = await getAccount(ctx, accountUrlId);
  const s = status != null ? oneOf(status, DELIVERY_STATUSES, 'status', 'pending') : undefined;
  const n = intInRange(limit, 'limit', 1, 200) ?? 50;
  return deliveryLog(ctx.em, { owner: account.id, status: s, limit: n });
}

/** Create or replace the app's signing secret; the value is returned this once. */
export async function rollWebhookSecret(ctx: PlatformContext, accountUrlId: string, appId: string) {
  const { app } = await getApp(ctx, accountUrlId, appId);
  const secret = `whsec_${base62(32)}`;
  const sealed = ctx.runtime.secrets.seal(secret, webhookSecretAad(app.id));
  let row = await ctx.em.findOne(AppWebhookSecretEntity, { app: app.id });
  if (row) {
    row.secretSealed = sealed;
    row.createdAt = new Date();
  } else {
    row = ctx.em.create(AppWebhookSecretEntity, { platform: ctx.em.getReference(PlatformEntity, app.platform.id), app, secretSealed: sealed });
  }
  await ctx.em.flush();
  return { id: app.id, secret, createdAt: row.createdAt };
}
