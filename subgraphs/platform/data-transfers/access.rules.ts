// The two secrets of the public data-transfer flow.
// - Access code: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L), shown as
//   two groups of 4 (e.g. K7QP-3MZD), ~39.6 bits; stored as SHA-256; 15 minutes; 5 wrong tries burn it.
// - Access token: issued by a correct code, proves "verified access" for 30 minutes to accept,
//   decline and record events. Stateless: HMAC under a key derived from INTERNAL_SECRET, binding
//   the transfer and the code that was verified.
import { randomInt } from 'node:crypto';
import { hmacSha256, purposeKey, safeEqual, sha256Hex } from '../../../lib/crypto.js';

export const ACCESS_CODE_TTL_MS = 15 * 60_000;
export const ACCESS_TOKEN_TTL_MS = 30 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
/** access requests per transfer per hour: each one mails (webhooks) a code, so they are bounded */
export const MAX_CODE_REQUESTS_PER_HOUR = 5;

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newAccessCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

/** What the recipient typed, reduced to the canonical form before hashing. */
export function normaliseAccessCode(typed: string): string {
  const s = typed.toUpperCase().replace(/[\s-]/g, '');
  return s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4)}` : s;
}

export function hashAccessCode(code: string): string {
  return sha256Hex(`data-transfer-access-code:${normaliseAccessCode(code)}`);
}

export interface AccessClaims {
  transferId: string;
  codeId: string;
  /** unix ms */
  expiresAt: number;
}

const PURPOSE = 'data-transfer-access-token-v1';

export function signAccessToken(c: AccessClaims, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ t: c.transferId, c: c.codeId, e: c.expiresAt })).toString('base64url');
  return `dtt_${payload}.${hmacSha256(purposeKey(secret, PURPOSE), payload).toString('base64url')}`;
}

export function verifyAccessToken(token: string, secret: string, now = Date.now()): AccessClaims | null {
  const m = /^dtt_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token ?? '');
  if (!m) return null;
  if (!safeEqual(m[2], hmacSha256(purposeKey(secret, PURPOSE), m[1]).toString('base64url'))) return null;
  try {
    const p = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as { t?: unknown; c?: unknown; e?: unknown };
    if (typeof p.t !== 'string' || typeof p.c !== 'string' || typeof p.e !== 'number' || p.e <= now) return null;
    return { transferId: p.t, codeId: p.c, expiresAt: p.e };
  } catch {
    return null;
  }
}

/** j•••@example.com: enough for the recipient to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
