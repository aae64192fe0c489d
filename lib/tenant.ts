// The tenant context: who is calling, on whose behalf, with which scopes. The gateway builds it
// once per request and sends it to subgraphs in a header signed with INTERNAL_SECRET, bound to the
// subgraph and the request body; a subgraph trusts nothing else, so reaching a subgraph port
// directly (or replaying a captured header) bypasses nothing.
import { createHash, createHmac } from 'node:crypto';
import { safeEqual } from './crypto.js';

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
  /**
   * The X-Platform platform's id when the gateway found an operator record of the JWT's `sub` for it
   * (docs/security.md, "Platform operators"); `scopes` are then capped to the record's scopes.
   */
  operatorPlatformId?: string;
  /** the client's address as the gateway resolved it (per-address limits of public paths) */
  clientAddress?: string;
  /** API-key callers: the app unique id, key id and environment partition */
  appId?: string;
  keyId?: string;
  environment?: Environment;
  /** API-key callers: publishable keys live in browsers, so some reads need a secret key (SECRET_KEY) */
  keyType?: 'publishable' | 'secret';
  accountId?: string;
  platformId?: string;
  /** the account's active plan code, for plan limits */
  plan?: string;
}

/** A signed header is good for this long after signing (and this much clock skew ahead). */
export const TENANT_HEADER_MAX_AGE_MS = 30_000;

/**
 * What a signed header is bound to (issue 12): the subgraph it is sent to (its name, the audience)
 * and the exact request body it travels with (SHA-256 of the bytes), so a header captured on one
 * request is refused on any other request or subgraph, and after 30 s on the same one.
 */
export interface TenantBinding {
  audience: string;
  body: string | Buffer;
}

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

function bodyHash(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('base64url');
}

/** The context's part of the header: encoded once per request, signed per subgraph fetch. */
export function encodeTenantContext(ctx: TenantContext): string {
  return Buffer.from(JSON.stringify(ctx)).toString('base64url');
}

/** `ctx.aud.iat.bodyhash.mac` (audience is a subgraph name: no dots). */
export function signEncodedTenant(encoded: string, secret: string, binding: TenantBinding, now = Date.now()): string {
  const payload = `${encoded}.${binding.audience}.${now}.${bodyHash(binding.body)}`;
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

export function signTenantContext(ctx: TenantContext, secret: string, binding: TenantBinding, now = Date.now()): string {
  return signEncodedTenant(encodeTenantContext(ctx), secret, binding, now);
}

export type VerifyResult =
  | { ok: true; ctx: TenantContext }
  | { ok: false; reason: 'missing' | 'bad_signature' | 'expired' | 'malformed' | 'wrong_audience' | 'wrong_request' };

export function verifyTenantContext(header: string | undefined, secret: string, binding: TenantBinding, now = Date.now()): VerifyResult {
  if (!header) return { ok: false, reason: 'missing' };
  const parts = header.split('.');
  if (parts.length !== 5) return { ok: false, reason: 'malformed' };
  const [encoded, audience, iat, hash, sig] = parts;
  // compared as canonical base64url text, as JWT signatures are: decoding would accept many spellings
  if (!safeEqual(sig, mac(secret, `${encoded}.${audience}.${iat}.${hash}`).toString('base64url'))) return { ok: false, reason: 'bad_signature' };
  if (audience !== binding.audience) return { ok: false, reason: 'wrong_audience' };
  const issued = Number(iat);
  if (!Number.isFinite(issued) || now - issued > TENANT_HEADER_MAX_AGE_MS || issued - now > TENANT_HEADER_MAX_AGE_MS) return { ok: false, reason: 'expired' };
  if (hash !== bodyHash(binding.body)) return { ok: false, reason: 'wrong_request' };
  let ctx: TenantContext;
  try {
    ctx = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!ctx || typeof ctx !== 'object' || !Array.isArray(ctx.scopes)) return { ok: false, reason: 'malformed' };
  return { ok: true, ctx };
}

/**
 * A pseudo-scope for @Authorized: the caller must not be a publishable key. Publishable keys live in
 * browsers: what only the app's server side should read (webhooks, customer prices, reservations,
 * the inventory ledger, search tasks and analytics) declares it (docs/security.md, key table).
 */
export const SECRET_KEY = 'key:secret';

/**
 * A pseudo-scope for @Authorized: the caller is a platform operator (a JWT with a platform scope,
 * a super-admin, or the gateway itself), never an API key. Declared on fields the REST API serves
 * only to operators (platform records, accounts, an app's configuration), wherever GraphQL lets a
 * key reach their type (an app's `account`, an account's `platform`).
 */
export const OPERATOR = 'caller:operator';

/** Whether the caller passes OPERATOR. */
export function isOperator(ctx: TenantContext): boolean {
  if (ctx.kind === 'service') return true;
  return ctx.kind === 'user' && ctx.scopes.some((s) => s === SUPER_ADMIN_SCOPE || (PLATFORM_SCOPES as readonly string[]).includes(s));
}

/**
 * The deployment operator's scope (docs/security.md): reaches every platform without an operator
 * record, and sees /health/detailed in full. Ordinary platform:admin tokens reach only the platforms
 * they operate (or the one their `platform` claim names).
 */
export const SUPER_ADMIN_SCOPE = 'platform:superadmin';

/** A user token carrying SUPER_ADMIN_SCOPE: every platform, no operator record needed. */
export function isSuperAdmin(ctx: TenantContext): boolean {
  return ctx.kind === 'user' && ctx.scopes.includes(SUPER_ADMIN_SCOPE) && !ctx.boundPlatform;
}

/** The platform scopes an operator record can grant (CONTRACT.md). */
export const PLATFORM_SCOPES = ['platform:admin', 'platform:manage', 'platform:read'] as const;

/** A token's scopes with its platform scopes limited to those an operator record grants. */
export function capPlatformScopes(tokenScopes: readonly string[], granted: readonly string[]): string[] {
  return tokenScopes.filter((s) => !(PLATFORM_SCOPES as readonly string[]).includes(s) || granted.includes(s));
}

export function hasScope(ctx: TenantContext, scope: string): boolean {
  return ctx.scopes.includes(scope);
}
