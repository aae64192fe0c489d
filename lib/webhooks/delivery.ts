// Sending one delivery: open its target (the endpoint's URL and secret, or the delivery's own),
// sign the stored body, POST it through the URL guard, and record the attempt and the next state.
// A 2xx is delivered; anything else is retried after an exponential backoff until max_attempts,
// then the delivery is dead-lettered (status failed). A refused (private) target and 410 Gone fail
// at once: retrying cannot help. Redirects are not followed (a 3xx is a failed attempt).
import { randomInt } from 'node:crypto';
import type { SecretBox } from '../crypto.js';
import { FetchError, guardedFetch, NetGuardError } from '../net-guard.js';
import { signWebhook, SIGNATURE_HEADER } from './signature.js';
import { qualified, type Sql } from './sql.js';
import { deliveryBodyAad, deliverySecretAad, deliveryUrlAad, endpointSecretAad } from './webhook.entities.js';

export interface SenderConfig {
  /** the subgraph's PostgreSQL schema */
  schema: string;
  secrets: SecretBox;
  /** ALLOW_PRIVATE_NETWORK_FETCH */
  allowPrivate: boolean;
  /** e.g. supergraph-search-webhooks/<version> */
  userAgent: string;
  /** headers carrying the signature: X-Webhook-Signature, plus any a service documented before (search: X-Signature) */
  signatureHeaders?: string[];
  /** first retry delay; doubles per attempt */
  retryBaseMs: number;
  /** random spread of each delay, as a fraction (0.2: ±20 %) */
  jitter?: number;
  /** request deadline (default 10 s) */
  timeoutMs?: number;
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string | null;
  event: string;
  eventId: string;
  body: string;
  bodySealed: boolean;
  urlSealed: string | null;
  secretSealed: string | null;
  attempts: number;
  maxAttempts: number;
  /** the endpoint's URL and sealed secret, joined when the delivery has an endpoint */
  endpointUrl: string | null;
  endpointSecretSealed: string | null;
}

export interface AttemptResult {
  status?: number;
  error?: string;
  /** retrying cannot help: refused target, 410 Gone, missing endpoint */
  permanent: boolean;
  durationMs: number;
}

const MAX_BACKOFF_MS = 3_600_000;
const MAX_RESPONSE = 64 * 1024;

/** Delay before the next attempt after `attempts` failed ones: base × 2^(attempts−1), spread by ±jitter, at most an hour. */
export function backoffMs(attempts: number, baseMs: number, r = randomInt(0, 1001) / 1000, jitter = 0.2): number {
  const raw = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
  return Math.round(raw * (1 - jitter + 2 * jitter * r));
}

const COLUMNS = `d.id, d.endpoint_id, d.event, d.event_id, d.body, d.body_sealed, d.url_sealed, d.secret_sealed, d.attempts, d.max_attempts,
                 e.url as endpoint_url, e.secret_sealed as endpoint_secret_sealed`;

function toClaimed(r: Record<string, any>): ClaimedDelivery {
  return {
    id: r.id,
    endpointId: r.endpoint_id ?? null,
    event: r.event,
    eventId: r.event_id,
    body: r.body,
    bodySealed: r.body_sealed === true,
    urlSealed: r.url_sealed ?? null,
    secretSealed: r.secret_sealed ?? null,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    endpointUrl: r.endpoint_url ?? null,
    endpointSecretSealed: r.endpoint_secret_sealed ?? null,
  };
}

/**
 * Claim up to `limit` due deliveries in ONE statement: pending rows whose time has come, and rows
 * whose lease ran out. FOR UPDATE SKIP LOCKED lets replicas claim side by side without waiting on,
 * or double-claiming, each other's rows. The attempt is counted at claim time, so a crash mid-POST
 * still uses up an attempt (no endless redelivery of a poison target).
 */
export async function claimDue(sql: Sql, schema: string, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const d = qualified(schema, 'webhook_deliveries');
  const rows = await sql(
    `with due as (
       select id from ${d}
        where (status = 'pending' and next_attempt_at <= clock_timestamp())
           or (status = 'delivering' and lease_until < clock_timestamp())
        order by next_attempt_at
        limit ?
        for update skip locked
     ), claimed as (
       update ${d} as w
          set status = 'delivering', attempts = w.attempts + 1, last_attempt_at = clock_timestamp(),
              lease_until = clock_timestamp() + make_interval(secs => ?)
         from due where w.id = due.id
       returning w.*
     )
     select ${COLUMNS} from claimed d left join ${qualified(schema, 'webhook_endpoints')} e on e.id = d.endpoint_id`,
    [limit, leaseMs / 1000],
  );
  return rows.map(toClaimed);
}

/** POST one claimed delivery; never throws. */
export async function send(cfg: SenderConfig, d: ClaimedDelivery): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  let url: string;
  let secret: string | null;
  let body: string;
  try {
    if (d.endpointId) {
      if (d.endpointUrl === null || d.endpointSecretSealed === null) return done({ error: 'the endpoint no longer exists', permanent: true });
      url = d.endpointUrl;
      secret = cfg.secrets.open(d.endpointSecretSealed, endpointSecretAad(d.endpointId));
    } else {
      if (d.urlSealed === null) return done({ error: 'the delivery has no target', permanent: true });
      url = cfg.secrets.open(d.urlSealed, deliveryUrlAad(d.id));
      secret = d.secretSealed === null ? null : cfg.secrets.open(d.secretSealed, deliverySecretAad(d.id));
    }
    body = d.bodySealed ? cfg.secrets.open(d.body, deliveryBodyAad(d.id)) : d.body;
  } catch (e) {
    return done({ error: `cannot open the delivery's sealed fields: ${(e as Error).message}`, permanent: true });
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': cfg.userAgent,
    'x-webhook-id': d.eventId,
    'x-webhook-delivery': d.id,
    'x-webhook-event': d.event,
    'x-webhook-attempt': String(d.attempts),
  };
  if (secret !== null) {
    const signature = signWebhook(secret, body);
    for (const h of cfg.signatureHeaders ?? [SIGNATURE_HEADER]) headers[h] = signature;
  }
  try {
    const r = await guardedFetch(url, { method: 'POST', headers, body, allowPrivate: cfg.allowPrivate, timeoutMs: cfg.timeoutMs ?? 10_000, maxBytes: MAX_RESPONSE });
    if (r.status >= 200 && r.status < 300) return done({ status: r.status, permanent: false });
    const text = r.body.toString('utf8').slice(0, 500);
    return done({ status: r.status, error: `HTTP ${r.status}${text ? `: ${text}` : ''}`, permanent: r.status === 410 });
  } catch (e) {
    const permanent = e instanceof NetGuardError || (e instanceof FetchError && e.code === 'EINVALIDURL');
    return done({ error: (e as Error).message.slice(0, 500), permanent });
  }
}

/** Record the attempt in the log and move the delivery on: delivered, pending (retry later) or failed (dead letter). */
export async function recordAttempt(sql: Sql, cfg: Pick<SenderConfig, 'schema' | 'retryBaseMs' | 'jitter'>, d: ClaimedDelivery, r: AttemptResult): Promise<'delivered' | 'pending' | 'failed'> {
  const ok = r.status !== undefined && r.status >= 200 && r.status < 300;
  const state = ok ? 'delivered' : r.permanent || d.attempts >= d.maxAttempts ? 'failed' : 'pending';
  const retryMs = state === 'pending' ? backoffMs(d.attempts, cfg.retryBaseMs, undefined, cfg.jitter ?? 0.2) : 0;
  await sql(
    `insert into ${qualified(cfg.schema, 'webhook_attempts')} (delivery_id, attempt, status_code, error, duration_ms, created_at)
     values (?, ?, ?, ?, ?, clock_timestamp())`,
    [d.id, d.attempts, r.status ?? null, r.error ?? null, r.durationMs],
  );
  await sql(
    `update ${qualified(cfg.schema, 'webhook_deliveries')}
        set status = ?, last_status_code = ?, last_error = ?, lease_until = null,
            delivered_at = case when ? then clock_timestamp() else null end,
            next_attempt_at = case when ? then clock_timestamp() + make_interval(secs => ?) else next_attempt_at end
      where id = ? and status = 'delivering'`,
    [state, r.status ?? null, ok ? null : (r.error ?? 'failed').slice(0, 1000), ok, state === 'pending', retryMs / 1000, d.id],
  );
  return state;
}
