// The tenant context: who is calling, on whose behalf, with which scopes. The gateway builds it
// once per request and sends it to subgraphs in a header signed with INTERNAL_SECRET; a subgraph
// trusts nothing else, so reaching a subgraph port directly bypasses nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TENANT_HEADER = 'x-tenant-context';
export type Environment = 'test' | 'live';

export interface TenantContext {
  /** how the caller authenticated */
  kind: 'anonymous' | 'user' | 'key' | 'service';
  requestId: string;
  scopes: string[];
  /** JWT subject (user unique id) when a user token was presented */
  userId?: string;
  /** JWT scopes when a user token accompanies an API key (then `scopes` are the key's) */
  userScopes?: string[];
  /** X-Platform header value (platform code) */
  platformCode?: string;
  /** a JWT's `platform` claim: the token may only ever reach this platform's records */
  boundPlatform?: string;
  /** API-key callers: the app unique id, key id and environment partition */
  appId?: string;
  keyId?: string;
  environment?: Environment;
  accountId?: string;
  platformId?: string;
  /** the account's active plan code, for plan limits */
  plan?: string;
}

const MAX_AGE_MS = 5 * 60_000;

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

export function signTenantContext(ctx: TenantContext, secret: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ ...ctx, iat: now })).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

export type VerifyResult = { ok: true; ctx: TenantContext } | { ok: false; reason: 'missing' | 'bad_signature' | 'expired' | 'malformed' };

export function verifyTenantContext(header: string | undefined, secret: string, now = Date.now()): VerifyResult {
  if (!header) return { ok: false, reason: 'missing' };
  const dot = header.indexOf('.');
  if (dot <= 0) return { ok: false, reason: 'malformed' };
  const payload = header.slice(0, dot);
  let given: Buffer;
  try {
    given = Buffer.from(header.slice(dot + 1), 'base64url');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  let parsed: TenantContext & { iat?: number };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof parsed.iat !== 'number' || now - parsed.iat > MAX_AGE_MS) return { ok: false, reason: 'expired' };
  const { iat: _iat, ...ctx } = parsed;
  return { ok: true, ctx };
}

export function hasScope(ctx: TenantContext, scope: string): boolean {
  return ctx.scopes.includes(scope);
}
