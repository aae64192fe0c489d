// Account events through the outbox. recordAccountEvent() writes the event row and one delivery
// row per target with the caller's EntityManager, so they commit (or roll back) together with the
// change they describe; the delivery worker sends them after commit.
//
// Use it inside a transaction:
//   await withAccountEvents(ctx, async (tx) => { …change…; await recordAccountEvent(tx, { account, event, data }); });
// or, with your own `em.transactional(em => …)`, pass `{ ...ctx, em }` and call kickDeliveries()
// after commit (without the kick, the worker still finds the rows on its next poll).
//
// Sealing (target URLs, secret fields) needs the master-key SecretBox. It comes from `ctx.outbox`
// when the caller brings one (the renewal job), else from the request's runtime (ctx.runtime), and
// is only asked for when there is something to seal: an event for an account without webhooks and
// without secret fields is recorded by a caller with neither.
import type { AccountEventName, AccountEventPayload } from '../event-types.js';
import type { PlatformContext } from '../context.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { AccountEventEntity } from './account-event.entity.js';
import { AppWebhookSecretEntity } from './app-webhook-secret.entity.js';
import { deliveryUrlAad, eventSecretAad, teamChatUrlAad } from './aad.js';
import { eventMatches } from './event-filter.rules.js';
import { NotificationSettingsEntity } from './notification-settings.entity.js';
import type { OutboxDeps } from './outbox-deps.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';

export interface AccountEventInput {
  account: AccountEntity;
  event: AccountEventName;
  /** event fields, snake_case as receivers see them; no secrets unless the event documents one */
  data?: Record<string, unknown>;
  /** the team-chat line; defaults to "<account name>: <event>" */
  summary?: string;
  /**
   * Fields for the app webhooks only, stored sealed (never in plaintext, never in team chat):
   * the worker merges them into `data` when it sends the event.
   */
  secretData?: Record<string, unknown>;
  /** the event's id, when it was already published under one (billing events): the same on every channel */
  id?: string;
  /** when it happened, when not now (the renewal job's logical time) */
  occurredAt?: Date;
  /** the record the event is about */
  subject?: { type: string; id: string };
}

export type { OutboxDeps };

function outboxOf(ctx: { outbox?: OutboxDeps; runtime?: { outbox: OutboxDeps } }): OutboxDeps {
  const deps = ctx.outbox ?? ctx.runtime?.outbox;
  if (!deps) throw new Error('recording this account event needs sealing: pass `outbox` or a context with the platform runtime');
  return deps;
}

/** Record `input` in ctx.em's unit of work (call inside the transaction of the change). */
export async function recordAccountEvent(
  ctx: Pick<PlatformContext, 'em'> & { outbox?: OutboxDeps; runtime?: { outbox: OutboxDeps } },
  input: AccountEventInput,
): Promise<AccountEventEntity> {
  const { em } = ctx;
  let deps: OutboxDeps | undefined;
  const outbox = () => (deps ??= outboxOf(ctx));
  const accountId = input.account.id;
  const platformId = input.account.platform.id;
  // Reads first, writes after: nothing is flushed half-way. The caller has already authorised
  // `account`; these reads are scoped by its id, with the platform filter off, because the public
  // data-transfer flow records events without any X-Platform.
  const settings = await em.findOne(NotificationSettingsEntity, { account: accountId }, { filters: false });
  const apps = await em.find(AppEntity, { account: accountId, webhookUrl: { $ne: null }, status: 'active' }, { orderBy: { id: 'asc' }, filters: false });
  const appSecrets = apps.length ? await em.find(AppWebhookSecretEntity, { app: { $in: apps.map((a) => a.id) } }, { filters: false }) : [];
  const withSecret = new Set(appSecrets.map((s) => s.app.id));

  const platform = em.getReference(PlatformEntity, platformId);
  const account = em.getReference(AccountEntity, accountId);
  const event = em.create(AccountEventEntity, {
    platform,
    account,
    event: input.event,
    summary: input.summary ?? `${input.account.name} (${input.account.urlId}): ${input.event}`,
    payload: {} as AccountEventPayload,
    ...(input.id ? { id: input.id } : {}),
    ...(input.occurredAt ? { occurredAt: input.occurredAt } : {}),
  });
  event.payload = {
    id: event.id,
    event: input.event,
    occurredAt: event.occurredAt.toISOString(),
    platformId,
    accountId,
    ...(input.subject ? { subject: input.subject } : {}),
    data: input.data ?? {},
  };
  if (input.secretData) event.secretSealed = outbox().secrets.seal(JSON.stringify(input.secretData), eventSecretAad(event.id));

  const delivery = (targetKind: 'team_chat' | 'app', url: string, display: string, app?: AppEntity) => {
    const d = em.create(WebhookDeliveryEntity, {
      platform,
      account,
      event,
      targetKind,
      app: app ? em.getReference(AppEntity, app.id) : null,
      url: display,
      urlSealed: '',
      maxAttempts: outbox().maxAttempts,
    });
    d.urlSealed = outbox().secrets.seal(url, deliveryUrlAad(d.id));
  };
  if (settings?.enabled && settings.teamChatUrlSealed && eventMatches(settings.events, input.event)) {
    delivery('team_chat', outbox().secrets.open(settings.teamChatUrlSealed, teamChatUrlAad(accountId)), settings.teamChatUrlMasked ?? 'team chat');
  }
  for (const app of apps) if (withSecret.has(app.id)) delivery('app', app.webhookUrl!, app.webhookUrl!, app);
  return event;
}

/** Run `fn` in one transaction and hand the events it recorded to the worker after commit. */
export async function withAccountEvents<T>(ctx: PlatformContext, fn: (tx: PlatformContext) => Promise<T>): Promise<T> {
  const result = await ctx.em.transactional((em) => fn({ ...ctx, em }));
  kickDeliveries(ctx.runtime.outbox);
  return result;
}

/** Wake this process's delivery worker; without one (a test running the job), the subgraph's worker finds the rows on its next poll. */
export function kickDeliveries(outbox: OutboxDeps | undefined): void {
  outbox?.kick?.();
}
