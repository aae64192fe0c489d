// CORS for the gateway and the REST bridge: which browser origins may call, decided once here.
//  - API-key requests (they carry X-App-Id): the origin must be in the key's `allowed_origins`, or,
//    when the key lists none, the app's (`*` allows any); both empty allows any origin. The gateway's
//    key verification enforces this (403 ORIGIN_NOT_ALLOWED), so a request that authenticated with a
//    key from an Origin is allowed from it. A key is a header credential, never ambient, so a page
//    cannot use one it does not hold: the lists are the owner's restriction, not the only defence.
//  - every other request (JWT, anonymous): the origin must be in CORS_ORIGINS (comma-separated
//    origins, or `*`; empty by default), or be the server's own origin (GraphiQL, the bridge's pages).
// A preflight carries no credentials, so it is answered from what it announces: one that will send
// X-App-Id is allowed (the real request is checked against the key's list), any other by CORS_ORIGINS.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What CORS reads of a request: its headers (and method), over HTTP or in process. */
export type RequestHead = Pick<IncomingMessage, 'headers' | 'method'>;

export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'x-api-key', 'x-app-id', 'x-platform', 'x-request-id', 'traceparent', 'tracestate', 'last-event-id', 'x-graphql-event-stream-token'];
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'location', 'content-disposition'];
const METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const MAX_AGE_S = '600';

/** `*`, or the origin `scheme://host[:port]` written exactly; undefined for anything else (CORS_ORIGINS entries). */
export function parseOrigin(raw: string): string | undefined {
  const v = raw.trim();
  if (v === '*') return v;
  try {
    const u = new URL(v);
    return ['http:', 'https:'].includes(u.protocol) && u.origin === v.replace(/\/$/, '') ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

export function originIn(list: readonly string[], origin: string): boolean {
  return list.includes('*') || list.includes(origin);
}

function header(req: RequestHead, name: string): string | undefined {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

export function requestOrigin(req: RequestHead): string | undefined {
  const o = header(req, 'origin');
  return o && o !== 'null' ? o : undefined;
}

/** The request comes from a page of this very server (Origin's host equals Host). */
export function sameOrigin(req: RequestHead, origin: string): boolean {
  try {
    return new URL(origin).host === header(req, 'host');
  } catch {
    return false;
  }
}

export function isKeyRequest(req: RequestHead): boolean {
  return !!header(req, 'x-app-id');
}

/** Allowed for a non-key request: own origin or CORS_ORIGINS. */
export function originAllowedWithoutKey(req: RequestHead, origin: string, configured: readonly string[]): boolean {
  return sameOrigin(req, origin) || originIn(configured, origin);
}

/** Answer a CORS preflight; false when `req` is not one (then the caller routes it as usual). */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, configured: readonly string[]): boolean {
  const origin = requestOrigin(req);
  const method = header(req, 'access-control-request-method');
  if (req.method !== 'OPTIONS' || !origin || !method) return false;
  const requested = (header(req, 'access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const willSendKey = requested.includes('x-app-id');
  const allowed = willSendKey || originAllowedWithoutKey(req, origin, configured);
  const headers: Record<string, string> = { vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers', 'content-length': '0' };
  if (allowed) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-allow-methods'] = METHODS;
    headers['access-control-allow-headers'] = requested.filter((h) => CORS_ALLOWED_HEADERS.includes(h)).join(', ') || CORS_ALLOWED_HEADERS.join(', ');
    headers['access-control-max-age'] = MAX_AGE_S;
  }
  res.writeHead(204, headers);
  res.end();
  return true;
}

/** Set the CORS headers of an actual response from `origin` (Vary always, so caches keep origins apart). */
export function setCorsHeaders(res: ServerResponse, origin: string | undefined, allowed: boolean): void {
  for (const [k, v] of Object.entries(corsHeaders(origin, allowed))) res.setHeader(k, v);
}

/** The CORS headers of an actual response from `origin`, as a record. */
export function corsHeaders(origin: string | undefined, allowed: boolean): Record<string, string> {
  if (!origin || !allowed) return { vary: 'Origin' };
  return { vary: 'Origin', 'access-control-allow-origin': origin, 'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', ') };
}

/**
 * Whether an authenticated (or refused) request's response may be read by its origin's page: key
 * requests that verified were checked against the key's/app's list; a refusal for the origin is not
 * readable; others go by the request's kind (key-bearing, else own origin or CORS_ORIGINS).
 */
export function responseOriginAllowed(
  req: RequestHead,
  origin: string,
  outcome: { ok: true; kind: string } | { ok: false; code: string },
  configured: readonly string[],
): boolean {
  if (outcome.ok) return outcome.kind === 'key' || originAllowedWithoutKey(req, origin, configured);
  if (outcome.code === 'ORIGIN_NOT_ALLOWED') return false;
  return isKeyRequest(req) || originAllowedWithoutKey(req, origin, configured);
}
