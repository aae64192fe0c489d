// Presigned upload URLs (S3's idea, our transport): the platform subgraph signs a grant — which
// account, which object key, how many bytes at most, until when — with a key derived from
// INTERNAL_SECRET, and hands out `PUBLIC_URL/uploads/<token>`. The REST bridge checks the
// signature and expiry before reading a byte of the body (no database, no gateway call), then
// forwards the bytes through the gateway; the subgraph checks the token again, since its upload
// mutation is reachable by anyone who can reach the gateway.
import { hmacSha256, purposeKey, safeEqual } from './crypto.js';

export interface UploadGrant {
  /** upl_… : names the upload and its staging object */
  uploadId: string;
  accountId: string;
  platformId: string;
  /** object key inside the account's store */
  key: string;
  maxBytes: number;
  /** unix seconds */
  expiresAt: number;
}

export type UploadTokenCheck = { ok: true; grant: UploadGrant } | { ok: false; code: 'UPLOAD_SIGNATURE_INVALID' | 'UPLOAD_EXPIRED'; message: string };

const PURPOSE = 'upload-url-v1';

function mac(secret: string, payload: string): Buffer {
  return hmacSha256(purposeKey(secret, PURPOSE), payload);
}

export function signUploadToken(g: UploadGrant, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ u: g.uploadId, a: g.accountId, p: g.platformId, k: g.key, m: g.maxBytes, e: g.expiresAt })).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

export function verifyUploadToken(token: string, secret: string, nowMs = Date.now()): UploadTokenCheck {
  const invalid = { ok: false, code: 'UPLOAD_SIGNATURE_INVALID', message: 'The upload URL is not valid (bad or tampered signature)' } as const;
  if (token.length > 2048) return invalid;
  const dot = token.indexOf('.');
  if (dot <= 0) return invalid;
  const payload = token.slice(0, dot);
  // compared as canonical text: base64url's last character has spare bits, which must not vary
  if (!safeEqual(token.slice(dot + 1), mac(secret, payload).toString('base64url'))) return invalid;
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return invalid;
  }
  const { u, a, p: platformId, k, m, e } = p;
  if (typeof u !== 'string' || typeof a !== 'string' || typeof platformId !== 'string' || typeof k !== 'string' || typeof m !== 'number' || typeof e !== 'number') {
    return invalid;
  }
  if (nowMs >= e * 1000) return { ok: false, code: 'UPLOAD_EXPIRED', message: `The upload URL expired at ${new Date(e * 1000).toISOString()}; ask for a new one` };
  return { ok: true, grant: { uploadId: u, accountId: a, platformId, key: k, maxBytes: m, expiresAt: e } };
}
