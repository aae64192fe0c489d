// One attempt of one delivery (run by its job, delivery.job.ts): mark it delivering, open its
// target (the endpoint's URL and secret, or the delivery's own), sign the stored body, POST it
// through the URL guard, and record the attempt. A 2xx is delivered; a refused (private) target and
// 410 Gone fail at once (retrying cannot help); anything else goes back to pending for the queue to
// retry with backoff, or dead-letter after max attempts. Redirects are not followed (a 3xx fails).
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

const MAX_RESPONSE = 64 * 1024;

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
 * Start an attempt: count it and mark the delivery delivering, in one statement, unless it is
 * already final (delivered or failed). Answers the delivery with its endpoint's URL and secret.
 */
export async function startAttempt(sql: Sql, schema: string, deliveryId: string): Promise<ClaimedDelivery | null> {
  const d = qualified(schema, 'webhook_deliveries');
  const rows = await sql(
    `with started as (
       update ${d} set status = 'delivering', attempts = attempts + 1, last_attempt_at = clock_timestamp()
        where id = ? and status in ('pending', 'delivering')
       returning *
     )
     select ${COLUMNS} from started d left join ${qualified(schema, 'webhook_endpoints')} e on e.id = d.endpoint_id`,
    [deliveryId],
  );
  return rows.length ? toClaimed(rows[0]) : null;
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

/** Record the attempt in the log and the delivery's state: delivered, failed (refused for good) or pending (the queue retries it). */
export async function recordAttempt(sql: Sql, schema: string, d: ClaimedDelivery, r: AttemptResult): Promise<'delivered' | 'pending' | 'failed'> {
  const ok = r.status !== undefined && r.status >= 200 && r.status < 300;
  const state = ok ? 'delivered' : r.permanent ? 'failed' : 'pending';
  // one statement, so the log and the state change together (and as soon as the answer is in)
  await sql(
    `with attempt as (
       insert into ${qualified(schema, 'webhook_attempts')} (delivery_id, attempt, status_code, error, duration_ms, created_at)
       values (?, ?, ?, ?, ?, clock_timestamp())
     )
     update ${qualified(schema, 'webhook_deliveries')}
        set status = ?, last_status_code = ?, last_error = ?, delivered_at = case when ? then clock_timestamp() else null end
      where id = ? and status = 'delivering'`,
    [d.id, d.attempts, r.status ?? null, r.error ?? null, r.durationMs, state, r.status ?? null, ok ? null : (r.error ?? 'failed').slice(0, 1000), ok, d.id],
  );
  return state;
}

/** The dead letter: the queue gave up on the delivery's job (attempts used up, or refused for good). */
export async function markDead(sql: Sql, schema: string, deliveryId: string, error: string): Promise<void> {
  await sql(
    `update ${qualified(schema, 'webhook_deliveries')} set status = 'failed', last_error = coalesce(last_error, ?)
      where id = ? and status <> 'delivered'`,
    [error.slice(0, 1000), deliveryId],
  );
}
