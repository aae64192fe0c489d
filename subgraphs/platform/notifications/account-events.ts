// Account events through the lib outbox (lib/webhooks). recordAccountEvent() writes the event row
// and one delivery per target with the caller's transaction, so they commit (or roll back) together
// with the change they describe; the process's webhook sender sends them after commit.
//
// Use it inside a transaction:
//   await withAccountEvents(ctx, async (tx) => { …change…; await recordAccountEvent(tx, { account, event, data }); });
// or, with your own `em.transactional(em => …)`, pass `{ ...ctx, em }` and call kickDeliveries()
// after commit (without the kick, the sender still finds the rows on its next poll).
// The platform runtime carries both as `ctx.runtime.accountEvents` (wired in ../runtime.ts): the account
// aggregate records through it, because this folder reads accounts (its rows belong to an account) and
// accounts/ must not import it back. The runtime imports this file, so it does not import ../context.ts:
// the contexts it takes are written structurally.
//
// Sealing (target URLs, signing secrets, bodies with secret fields) needs the master-key SecretBox.
// It comes from `ctx.outbox` when the caller brings one (the renewal job), else from the request's
// runtime (ctx.runtime), and is only asked for when there is something to seal: an event for an
// account without webhooks and without secret fields is recorded by a caller with neither.
import type { AccountEventName, AccountEventPayload } from '../event-types.js';
import { enqueueDelivery } from '../../../lib/webhooks/index.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountEntity } from '../accounts/account.entity.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { AccountEventEntity } from './account-event.entity.js';
import { AppWebhookSecretEntity } from './app-webhook-secret.entity.js';
import { eventSecretAad, teamChatUrlAad, webhookSecretAad } from './aad.js';
import { eventMatches } from './event-filter.rules.js';
import { NotificationSettingsEntity } from './notification-settings.entity.js';
import type { OutboxDeps } from './outbox-deps.js';

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

/** What recording needs of a context: its EntityManager, and the outbox (its own, or the runtime's). */
export type RecordingContext = { em: EntityManager } & { outbox?: OutboxDeps; runtime?: { outbox: OutboxDeps } };

/** The recorder on the platform runtime (`ctx.runtime.accountEvents`): this file's two entries. */
export interface AccountEventRecorder {
  /** record `input` in tx.em's transaction (recordAccountEvent) */
  record(tx: RecordingContext, input: AccountEventInput): Promise<AccountEventEntity>;
  /** run `fn` in one transaction and wake the sender after commit (withAccountEvents) */
  transaction<C extends { em: EntityManager; runtime: { outbox: OutboxDeps } }, T>(ctx: C, fn: (tx: C) => Promise<T>): Promise<T>;
}

function outboxOf(ctx: { outbox?: OutboxDeps; runtime?: { outbox: OutboxDeps } }): OutboxDeps {
  const deps = ctx.outbox ?? ctx.runtime?.outbox;
  if (!deps) throw new Error('recording this account event needs sealing: pass `outbox` or a context with the platform runtime');
  return deps;
}

/** The JSON body an app's webhook receives (snake_case, like the REST API). */
export function wireBody(p: AccountEventPayload): Record<string, unknown> {
  return { id: p.id, event: p.event, occurred_at: p.occurredAt, platform_id: p.platformId, account_id: p.accountId, ...(p.subject ? { subject: p.subject } : {}), data: p.data };
}

/** Record `input` in ctx.em's transaction (call inside the transaction of the change). */
export async function recordAccountEvent(ctx: RecordingContext, input: AccountEventInput): Promise<AccountEventEntity> {
  const { em } = ctx;
  let deps: OutboxDeps | undefined;
  const outbox = () => {
    deps ??= outboxOf(ctx);
    return { schema: 'platform', ...deps };
  };
  const accountId = input.account.id;
  const platformId = input.account.platform.id;
  // The caller has already authorised `account`; these reads are scoped by its id, with the
  // platform filter off, because the public data-transfer flow records events without any X-Platform.
  const settings = await em.findOne(NotificationSettingsEntity, { account: accountId }, { filters: false });
  const apps = await em.find(AppEntity, { account: accountId, webhookUrl: { $ne: null }, status: 'active' }, { orderBy: { id: 'asc' }, filters: false });
  const appSecrets = apps.length ? await em.find(AppWebhookSecretEntity, { app: { $in: apps.map((a) => a.id) } }, { filters: false }) : [];
  const secretOf = new Map(appSecrets.map((s) => [s.app.id, s.secretSealed]));

  const event = em.create(AccountEventEntity, {
    platform: em.getReference(PlatformEntity, platformId),
    account: em.getReference(AccountEntity, accountId),
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

  const common = { owner: accountId, event: input.event, eventId: event.id };
  if (settings?.enabled && settings.teamChatUrlSealed && eventMatches(settings.events, input.event)) {
    // Slack-style incoming webhook: `text` is what every such endpoint understands; never a secret in it
    await enqueueDelivery(em, outbox(), {
      ...common,
      target: 'team_chat',
      url: outbox().secrets.open(settings.teamChatUrlSealed, teamChatUrlAad(accountId)),
      displayUrl: settings.teamChatUrlMasked ?? 'team chat',
      secret: null,
      payload: { text: event.summary },
    });
  }
  for (const app of apps) {
    const sealed = secretOf.get(app.id);
    if (!sealed) continue; // an app without a signing secret receives nothing
    await enqueueDelivery(em, outbox(), {
      ...common,
      target: `app:${app.id}`,
      url: app.webhookUrl!,
      secret: outbox().secrets.open(sealed, webhookSecretAad(app.id)),
      payload: wireBody({ ...event.payload, data: { ...event.payload.data, ...(input.secretData ?? {}) } }),
      sealBody: !!input.secretData,
    });
  }
  return event;
}

/** Run `fn` in one transaction and hand the events it recorded to the worker after commit. */
export async function withAccountEvents<C extends { em: EntityManager; runtime: { outbox: OutboxDeps } }, T>(ctx: C, fn: (tx: C) => Promise<T>): Promise<T> {
  const result = await ctx.em.transactional((em) => fn({ ...ctx, em }));
  kickDeliveries(ctx.runtime.outbox);
  return result;
}

/** Wake this process's webhook sender; without one (a test running the job), the subgraph's sender finds the rows on its next poll. */
export function kickDeliveries(outbox: OutboxDeps | undefined): void {
  outbox?.kick?.();
}

export const accountEventRecorder: AccountEventRecorder = { record: recordAccountEvent, transaction: withAccountEvents };
