// The one webhook signature of every service (Stripe's scheme). A delivery carries
//
//   X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
//
// The receiver recomputes the HMAC over the raw request body, compares in constant time, and
// refuses timestamps older than its tolerance (replay). Several v1= entries may appear (e.g. during
// a secret roll); any match passes. docs/kernel.md (## Webhooks) documents it for every service.
import { hmacSha256, safeEqual } from '../crypto.js';

export const SIGNATURE_HEADER = 'x-webhook-signature';
export const DEFAULT_TOLERANCE_SEC = 300;

export function signWebhook(secret: string, body: string, timestampSec = Math.floor(Date.now() / 1000)): string {
  return `t=${timestampSec},v1=${hmacSha256(secret, `${timestampSec}.${body}`).toString('hex')}`;
}

export type WebhookCheck = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'mismatch' | 'too_old' };

export function verifyWebhook(secret: string, body: string, header: string | undefined, opts: { nowSec?: number; toleranceSec?: number } = {}): WebhookCheck {
  if (!header) return { ok: false, reason: 'malformed' };
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const sigs = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '')).map(([, v]) => v);
  if (!Number.isInteger(t) || sigs.length === 0) return { ok: false, reason: 'malformed' };
  const expected = hmacSha256(secret, `${t}.${body}`).toString('hex');
  if (!sigs.some((s) => safeEqual(s, expected))) return { ok: false, reason: 'mismatch' };
  const now = opts.nowSec ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (opts.toleranceSec ?? DEFAULT_TOLERANCE_SEC)) return { ok: false, reason: 'too_old' };
  return { ok: true, timestamp: t };
}
