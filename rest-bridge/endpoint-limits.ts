// Per-endpoint request limits per API key (the products service's limits table): a route row's
// `rateLimit` is its budget per minute for one key, counted here, before the gateway call, in fixed
// one-minute windows of lib/rate-limit (Redis when REDIS_URL is set, so every bridge shares them).
// Over budget: 429 RATE_LIMITED with Retry-After; every answer of a limited route carries X-RateLimit-*.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RateLimiter } from '../lib/rate-limit.js';
import type { Route } from './types.js';

export interface EndpointLimitOutcome {
  allowed: boolean;
  /** X-RateLimit-* (and Retry-After when refused) */
  headers: Record<string, string>;
  message?: string;
}

/** Hashes of the credentials seen lately: a client sends the same key request after request. */
const hashed = new Map<string, string>();
const HASHES_KEPT = 10_000;

/** The caller's key as sent (X-Api-Key, else the bearer token), hashed: raw keys never become counter names. */
function callerKey(req: IncomingMessage): string | undefined {
  const raw = (req.headers['x-api-key'] as string | undefined) ?? (req.headers.authorization as string | undefined)?.replace(/^Bearer\s+/i, '');
  if (!raw) return undefined;
  let key = hashed.get(raw);
  if (key === undefined) {
    key = createHash('sha256').update(raw).digest('base64url').slice(0, 32);
    if (hashed.size >= HASHES_KEPT) hashed.clear();
    hashed.set(raw, key);
  }
  return key;
}

/** Count the request against the route's budget; not allowed once it is spent. */
export async function checkEndpointLimit(limiter: RateLimiter, route: Route, req: IncomingMessage): Promise<EndpointLimitOutcome> {
  if (!route.rateLimit) return { allowed: true, headers: {} };
  const key = callerKey(req);
  if (!key) return { allowed: true, headers: {} };
  const r = await limiter.hit(`ep:${route.method} ${route.path}:${key}`, route.rateLimit);
  const reset = String(Math.max(1, Math.ceil(r.resetMs / 1000)));
  const headers = { 'x-ratelimit-limit': String(r.limit), 'x-ratelimit-remaining': String(r.remaining), 'x-ratelimit-reset': reset };
  if (!r.allowed) {
    return { allowed: false, headers: { ...headers, 'retry-after': reset }, message: `${route.method} ${route.path} allows ${route.rateLimit} requests per minute per key; retry in ${reset} s` };
  }
  return { allowed: true, headers };
}
