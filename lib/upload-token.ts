// Presigned upload URLs (S3's idea, our transport). A service signs a grant (what the upload is
// for, whose it is, which object key, how many bytes at most, until when) with a key derived from
// INTERNAL_SECRET, and hands out `PUBLIC_URL/<route>/<token>`. The REST bridge checks the signature,
// expiry and purpose before reading a byte of the body (no database, no gateway call), streams the
// bytes into the object store under the grant's key, and then calls the route's mutation with a
// reference to the stored object, sealed by a receipt: only the bridge, which read every byte,
// can vouch for its size, media type and SHA-256. The service verifies token and receipt, since
// its mutation is reachable by anyone who can reach the gateway.
import { hmacSha256, purposeKey, safeEqual } from './crypto.js';

export interface UploadGrant {
  /** upl_… : names the upload */
  uploadId: string;
  /** what the upload is for (`logo`); a route takes only grants of its own purpose */
  purpose: string;
  /** whose upload it is, in the issuing service's words (`{ platform, account }`) */
  owner: Record<string, string>;
  /** the object's key in the store, where the bridge writes the bytes */
  key: string;
  maxBytes: number;
  /** unix seconds */
  expiresAt: number;
}

export type UploadTokenCheck = { ok: true; grant: UploadGrant } | { ok: false; code: 'UPLOAD_SIGNATURE_INVALID' | 'UPLOAD_EXPIRED'; message: string };

/** What the bridge stored for an upload, as the route's mutation receives it. */
export interface StoredUpload {
  key: string;
  size: number;
  /** decided from the first bytes (lib/media-type.ts) */
  contentType: string;
  /** hex SHA-256 of the whole object */
  sha256: string;
}

const TOKEN_PURPOSE = 'upload-url-v2';
const RECEIPT_PURPOSE = 'upload-receipt-v1';

function mac(secret: string, purpose: string, payload: string): string {
  return hmacSha256(purposeKey(secret, purpose), payload).toString('base64url');
}

export function signUploadToken(g: UploadGrant, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ u: g.uploadId, r: g.purpose, o: g.owner, k: g.key, m: g.maxBytes, e: g.expiresAt })).toString('base64url');
  return `${payload}.${mac(secret, TOKEN_PURPOSE, payload)}`;
}

const isOwner = (o: unknown): o is Record<string, string> =>
  typeof o === 'object' && o !== null && !Array.isArray(o) && Object.values(o).every((v) => typeof v === 'string');

export function verifyUploadToken(token: string, secret: string, nowMs = Date.now()): UploadTokenCheck {
  const invalid = { ok: false, code: 'UPLOAD_SIGNATURE_INVALID', message: 'The upload URL is not valid (bad or tampered signature)' } as const;
  if (token.length > 2048) return invalid;
  const dot = token.indexOf('.');
  if (dot <= 0) return invalid;
  const payload = token.slice(0, dot);
  // compared as canonical text: base64url's last character has spare bits, which must not vary
  if (!safeEqual(token.slice(dot + 1), mac(secret, TOKEN_PURPOSE, payload))) return invalid;
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return invalid;
  }
  const { u, r, o, k, m, e } = p;
  if (typeof u !== 'string' || typeof r !== 'string' || !isOwner(o) || typeof k !== 'string' || typeof m !== 'number' || typeof e !== 'number') return invalid;
  if (nowMs >= e * 1000) return { ok: false, code: 'UPLOAD_EXPIRED', message: `The upload URL expired at ${new Date(e * 1000).toISOString()}; ask for a new one` };
  return { ok: true, grant: { uploadId: u, purpose: r, owner: o, key: k, maxBytes: m, expiresAt: e } };
}

const receiptPayload = (uploadId: string, s: StoredUpload) => JSON.stringify([uploadId, s.key, s.size, s.contentType, s.sha256.toLowerCase()]);

/** The bridge's seal over what it stored for `uploadId`. */
export function signUploadReceipt(uploadId: string, stored: StoredUpload, secret: string): string {
  return mac(secret, RECEIPT_PURPOSE, receiptPayload(uploadId, stored));
}

export function verifyUploadReceipt(uploadId: string, stored: StoredUpload, receipt: string, secret: string): boolean {
  return typeof receipt === 'string' && receipt.length <= 128 && safeEqual(receipt, signUploadReceipt(uploadId, stored, secret));
}
