// The outbox worker: runs in the platform subgraph process, claims due deliveries (any number of
// replicas may run it: claims use FOR UPDATE SKIP LOCKED), POSTs them, and records the outcome.
// Failed attempts are retried with exponential backoff (WEBHOOK_RETRY_BASE_MS × 2^(n-1), ±20 %
// jitter, at most one hour) until WEBHOOK_MAX_ATTEMPTS; refused targets and 410 Gone stop at once.
import { randomInt } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../../lib/config.js';
import type { SecretBox } from '../../../lib/crypto.js';
import type { AccountEventPayload } from '../event-types.js';
import type { Logger } from '../../../lib/logger.js';
import { VERSION } from '../../../lib/subgraph.js';
import { signWebhook, SIGNATURE_HEADER } from '../../../lib/webhook-signature.js';
import { appWebhookSecret, claimDue, markDelivered, markFailed, type ClaimedDelivery } from './delivery.repository.js';
import { deliveryUrlAad, eventSecretAad, webhookSecretAad } from './aad.js';
import { postWebhook } from './webhook-sender.js';

const BATCH = 20;
const MAX_BACKOFF_MS = 3_600_000;

/** Delay before the next attempt after `attempts` failed ones. */
export function backoffMs(attempts: number, baseMs: number, jitter = randomInt(0, 1001) / 1000): number {
  const raw = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
  return Math.round(raw * (0.8 + 0.4 * jitter));
}

/** The JSON body an app's webhook receives (snake_case, like the REST API). */
export function wireBody(p: AccountEventPayload): Record<string, unknown> {
  return { id: p.id, event: p.event, occurred_at: p.occurredAt, platform_id: p.platformId, account_id: p.accountId, ...(p.subject ? { subject: p.subject } : {}), data: p.data };
}

export class DeliveryWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private again = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly deps: { cfg: Config; log: Logger; secrets: SecretBox },
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Look for due deliveries now (called after a commit that recorded events). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  private run(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain()
      .then(() => undefined)
      .catch((e) => this.deps.log.error('webhook delivery round failed', { err: e }))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        this.schedule(this.again ? 0 : this.deps.cfg.webhookPollMs);
        this.again = false;
      });
  }

  /** Deliver everything due, batch after batch. Returns how many deliveries were attempted. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const em = this.orm.em.fork();
      const claimed = await claimDue(em, BATCH);
      await Promise.all(claimed.map((c) => this.deliver(c)));
      total += claimed.length;
      if (claimed.length < BATCH || this.stopped) return total;
    }
  }

  private async deliver(c: ClaimedDelivery): Promise<void> {
    const { cfg, secrets, log } = this.deps;
    const em = this.orm.em.fork();
    let body: string;
    const headers: Record<string, string> = {
      'user-agent': `supergraph-platform-webhooks/${VERSION}`,
      'x-webhook-id': c.payload.id,
      'x-webhook-delivery': c.id,
      'x-webhook-event': c.payload.event,
      'x-webhook-attempt': String(c.attempts),
    };
    try {
      const url = secrets.open(c.urlSealed, deliveryUrlAad(c.id));
      if (c.targetKind === 'app') {
        const sealed = c.appId ? await appWebhookSecret(em, c.appId) : null;
        if (!sealed) {
          await markFailed(em, c.id, { error: 'the app has no webhook secret', permanent: true, retryInMs: 0 });
          return;
        }
        const secretData = c.secretSealed ? (JSON.parse(secrets.open(c.secretSealed, eventSecretAad(c.payload.id))) as Record<string, unknown>) : {};
        body = JSON.stringify(wireBody({ ...c.payload, data: { ...c.payload.data, ...secretData } }));
        headers[SIGNATURE_HEADER] = signWebhook(secrets.open(sealed, webhookSecretAad(c.appId!)), body);
      } else {
        // Slack-style incoming webhook: `text` is what every such endpoint understands.
        body = JSON.stringify({ text: c.summary });
      }
      const r = await postWebhook(url, body, headers, { allowPrivate: cfg.allowPrivateNetworkFetch });
      if (r.status !== undefined && r.status >= 200 && r.status < 300) {
        await markDelivered(em, c.id, r.status);
        return;
      }
      const retryInMs = backoffMs(c.attempts, cfg.webhookRetryBaseMs);
      await markFailed(em, c.id, { status: r.status, error: r.error ?? 'failed', permanent: r.permanent, retryInMs });
      log.info('webhook delivery failed', { delivery: c.id, attempt: c.attempts, status: r.status, error: r.error, permanent: r.permanent });
    } catch (e) {
      log.error('webhook delivery crashed', { delivery: c.id, err: e });
      await markFailed(em, c.id, { error: 'internal error', permanent: false, retryInMs: backoffMs(c.attempts, cfg.webhookRetryBaseMs) }).catch(() => undefined);
    }
  }
}
