// Sends queued webhook deliveries: claims due rows (FOR UPDATE SKIP LOCKED, with a lease, so
// several processes share the work and a dispatcher that dies mid-send loses its claim), POSTs the
// stored body signed with the webhook's secret, records every attempt, and retries failures with
// exponential backoff (SEARCH_WEBHOOK_BACKOFF_MS × 2^(attempt-1)) until SEARCH_WEBHOOK_MAX_ATTEMPTS.
// Delivery is at least once: receivers deduplicate on X-Webhook-Id.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { rows, run } from '../db.js';
import type { SearchRuntime } from '../runtime.js';
import { T } from '../sql.js';
import { signatureHeader } from './signature.js';
import { guardedLookup, isInternalAddress } from './url-guard.js';

interface Claimed {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

const BATCH = 20;

export class WebhookDispatcher {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private pending = false;

  constructor(private rt: SearchRuntime) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
  }

  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.pending = false;
      let batch: Claimed[] = [];
      try {
        batch = await this.claim();
      } catch (e) {
        this.rt.log.error('webhook claim failed', { err: e });
      }
      if (batch.length) {
        await Promise.all(batch.map((d) => this.deliver(d)));
        continue;
      }
      await this.sleep(Math.min(this.rt.cfg.pollMs, this.rt.cfg.webhookBackoffMs));
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.pending || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(t);
        this.wakeUp = undefined;
        resolve();
      };
    });
  }

  private claim(): Promise<Claimed[]> {
    const leaseMs = this.rt.cfg.webhookTimeoutMs * 2;
    return rows<Claimed>(
      this.rt.pool,
      `with due as (
         select d.id from ${T.deliveries} d
          where (d.status = 'pending' and d.next_attempt_at <= clock_timestamp())
             or (d.status = 'delivering' and d.lease_until < clock_timestamp())
          order by d.next_attempt_at
          limit ${BATCH}
          for update skip locked)
       update ${T.deliveries} d
          set status = 'delivering', attempts = d.attempts + 1,
              lease_until = clock_timestamp() + make_interval(secs => $1::double precision / 1000)
         from due, ${T.webhooks} w
        where d.id = due.id and w.id = d.webhook_id
        returning d.id, d.webhook_id, d.event, d.body, d.attempts, w.url, w.secret`,
      [leaseMs],
    );
  }

  private async deliver(d: Claimed): Promise<void> {
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = await this.post(d);
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
    } catch (e) {
      error = (e as Error).message.slice(0, 500);
    }
    const ms = Math.round(performance.now() - started);
    const ok = error === null;
    const last = !ok && d.attempts >= this.rt.cfg.webhookMaxAttempts;
    const delayMs = this.rt.cfg.webhookBackoffMs * 2 ** (d.attempts - 1);
    try {
      await run(this.rt.pool, `insert into ${T.attempts} (delivery_id, attempt, status_code, error, duration_ms, created_at) values ($1, $2, $3, $4, $5, clock_timestamp())`, [
        d.id,
        d.attempts,
        statusCode,
        error,
        ms,
      ]);
      await run(
        this.rt.pool,
        `update ${T.deliveries}
            set status = $2, last_status_code = $3, last_error = $4, lease_until = null,
                delivered_at = case when $2 = 'delivered' then clock_timestamp() else null end,
                next_attempt_at = case when $2 = 'pending' then clock_timestamp() + make_interval(secs => $5::double precision / 1000) else next_attempt_at end
          where id = $1`,
        [d.id, ok ? 'delivered' : last ? 'failed' : 'pending', statusCode, error, delayMs],
      );
    } catch (e) {
      this.rt.log.error('webhook attempt not recorded; the lease will expire and it is sent again', { deliveryId: d.id, err: e });
    }
    if (!ok) this.rt.log.info('webhook delivery failed', { deliveryId: d.id, attempt: d.attempts, error, retryInMs: last ? null : delayMs });
  }

  /** POST the stored body; resolves with the status code. */
  private post(d: Claimed): Promise<number> {
    const url = new URL(d.url);
    const allow = this.rt.allowPrivateNetwork;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!allow && net.isIP(host) && isInternalAddress(host)) return Promise.reject(new Error(`refused: ${host} is an internal address`));
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(d.body)),
      'user-agent': 'supergraph-search-webhooks/1',
      'x-webhook-id': d.id,
      'x-webhook-event': d.event,
      'x-webhook-attempt': String(d.attempts),
      'x-signature': signatureHeader(d.secret, d.body, timestamp),
    };
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method: 'POST', headers, lookup: guardedLookup(allow), timeout: this.rt.cfg.webhookTimeoutMs }, (res) => {
        res.resume(); // the body is not read: only the status matters
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`timed out after ${this.rt.cfg.webhookTimeoutMs} ms`)));
      req.on('error', reject);
      req.end(d.body);
    });
  }
}
