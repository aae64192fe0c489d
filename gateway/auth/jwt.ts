// HS256 JWTs (CONTRACT: sub = user unique id, scope = space-separated scopes, exp honoured).
// Small enough to own: one algorithm, constant-time comparison, no `alg` negotiation.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtClaims {
  sub: string;
  scope?: string;
  exp?: number;
  nbf?: number;
  iat?: number;
  /** optional: restricts the token to one platform code */
  platform?: string;
  [k: string]: unknown;
}

export type JwtResult = { ok: true; claims: JwtClaims; scopes: string[] } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'unsupported_alg' | 'missing_sub' };

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export function signJwt(claims: JwtClaims, secret: string): string {
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3 && token.startsWith('eyJ');
}

export function verifyJwt(token: string, secret: string, nowSec = Math.floor(Date.now() / 1000)): JwtResult {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [head, body, sig] = parts;
  let header: { alg?: string };
  let claims: JwtClaims;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!header || typeof header !== 'object' || !claims || typeof claims !== 'object') return { ok: false, reason: 'malformed' };
  if (header.alg !== 'HS256') return { ok: false, reason: 'unsupported_alg' };
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  if (typeof claims.exp === 'number' && nowSec >= claims.exp) return { ok: false, reason: 'expired' };
  if (typeof claims.nbf === 'number' && nowSec < claims.nbf) return { ok: false, reason: 'not_yet_valid' };
  if (typeof claims.sub !== 'string' || !claims.sub) return { ok: false, reason: 'missing_sub' };
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(/\s+/).filter(Boolean) : [];
  return { ok: true, claims, scopes };
}
