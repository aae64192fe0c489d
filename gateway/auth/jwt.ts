// HS256 JWTs (CONTRACT: sub = user unique id, scope = space-separated scopes, exp required).
// Small enough to own: one algorithm, constant-time comparison, no `alg` negotiation. The rules
// (docs/security.md, "JWT"): exp required and at most maxLifetimeSec after iat (or now); nbf
// honoured; iss/aud checked when configured (checkClaims, shared with the JWKS path); the header's `kid` picks the secret (current, or a
// previous one until the end of its grace period), a token without kid is checked with the current.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/crypto.js';
import type { JwtConfig } from '../../lib/config.js';
import { checkClaims, decodeJwt, type JwtClaims, type JwtResult } from './jwt-claims.js';

export type { JwtClaims, JwtFailure, JwtResult } from './jwt-claims.js';

/** What verifyJwt checks against: the config's `jwt`, or a bare secret (kid "k1", 24 h cap). */
export type JwtRules = Pick<JwtConfig, 'keys' | 'maxLifetimeSec'> & Partial<Pick<JwtConfig, 'issuer' | 'audience' | 'currentKid'>>;

export function jwtRules(secretOrRules: string | JwtRules): JwtRules {
  return typeof secretOrRules === 'string' ? { keys: [{ kid: 'k1', secret: secretOrRules }], currentKid: 'k1', maxLifetimeSec: 86_400 } : secretOrRules;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export function signJwt(claims: JwtClaims, secret: string, kid?: string): string {
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT', ...(kid ? { kid } : {}) }));
  const body = b64(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3 && token.startsWith('eyJ');
}

export function verifyJwt(token: string, secretOrRules: string | JwtRules, nowSec = Math.floor(Date.now() / 1000)): JwtResult {
  const rules = jwtRules(secretOrRules);
  const decoded = decodeJwt(token);
  if (!decoded) return { ok: false, reason: 'malformed' };
  const { head, body, sig, header, claims } = decoded;
  if (header.alg !== 'HS256') return { ok: false, reason: 'unsupported_alg' };
  const kid = header.kid === undefined ? (rules.currentKid ?? rules.keys[0]?.kid) : header.kid;
  const key = rules.keys.find((k) => k.kid === kid);
  // a previous secret past its grace period is as unknown as a kid never configured
  if (!key || (key.notAfterSec !== undefined && nowSec >= key.notAfterSec)) return { ok: false, reason: 'unknown_kid' };
  // compared as canonical base64url text: decoding would ignore stray characters and padding, and the
  // last character's spare bits, so one signature would have many accepted spellings
  if (!safeEqual(sig, createHmac('sha256', key.secret).update(`${head}.${body}`).digest('base64url'))) return { ok: false, reason: 'bad_signature' };
  // the same claim rules as the identity providers' tokens (jwt-claims.ts); our own clock signs these, so no skew
  return checkClaims(claims, { maxLifetimeSec: rules.maxLifetimeSec, issuer: rules.issuer, audience: rules.audience, skewSec: 0 }, nowSec);
}
