// Logo upload: presign → PUT (through the REST bridge, chunked into uploadChunk mutations) →
// publish. The upload URL is the credential of the PUT; publishing checks the bytes are a PNG,
// JPEG, GIF or WebP, moves them to the account's published logos and sets the logo URL, which
// the REST bridge serves publicly at PUBLIC_URL/logos/<account id>/<file>.
import { createHash } from 'node:crypto';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { MiB } from '../../../lib/http.js';
import { signUploadToken, verifyUploadToken, type UploadGrant } from '../../../lib/upload-token.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { AccountDetailsEntity } from '../account-details/account-details.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { fail, intInRange } from '../validation.js';
import { sniffImage, MAX_IMAGE_SIDE, type ImageInfo } from './image.rules.js';
import { accountObjectKey, ensureStorage } from './storage.service.js';

/** CONTRACT: image bodies up to 10 MiB. */
export const LOGO_MAX_BYTES = 10 * MiB;
export const UPLOAD_TTL_SEC = 15 * 60;
/** raw bytes per uploadChunk call: base64 of it stays well under the gateway's 1 MiB body limit */
export const UPLOAD_CHUNK_BYTES = 512 * 1024;
const MAX_CHUNKS = Math.ceil(LOGO_MAX_BYTES / UPLOAD_CHUNK_BYTES);
const UPLOAD_ID_RE = /^upl_[A-Za-z0-9]{20}$/;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

const stagingKey = (uploadId: string) => `logos/uploads/${uploadId}`;

export async function presignLogo(ctx: PlatformContext, accountUrlId: string, contentLength?: number | null) {
  const account = await getAccount(ctx, accountUrlId);
  const declared = intInRange(contentLength, 'content_length', 1, LOGO_MAX_BYTES);
  await ensureStorage(ctx, account);
  const { cfg } = ctx.runtime;
  const uploadId = newId('upl');
  const grant: UploadGrant = {
    uploadId,
    accountId: account.id,
    platformId: account.platform.id,
    key: stagingKey(uploadId),
    maxBytes: declared ?? LOGO_MAX_BYTES,
    expiresAt: Math.floor(Date.now() / 1000) + UPLOAD_TTL_SEC,
  };
  return {
    id: uploadId,
    uploadUrl: `${cfg.publicUrl}/uploads/${signUploadToken(grant, cfg.internalSecret)}`,
    method: 'PUT',
    expiresAt: new Date(grant.expiresAt * 1000),
    maxBytes: grant.maxBytes,
    objectKey: grant.key,
  };
}

function grantOf(ctx: PlatformContext, token: string): UploadGrant {
  const check = verifyUploadToken(token, ctx.runtime.cfg.internalSecret);
  if (!check.ok) throw new DomainError(check.code, check.message, { parameter: 'token' });
  return check.grant;
}

/**
 * One chunk of a presigned upload (public: the signed token is the credential). Chunks arrive in
 * order from the REST bridge; each is stored as a part, and the last one assembles the object,
 * checking size and SHA-256 against what the bridge read.
 */
export async function putUploadChunk(
  ctx: PlatformContext,
  a: { token: string; index: number; data: string; final: boolean; totalBytes?: number | null; sha256?: string | null },
) {
  const grant = grantOf(ctx, a.token);
  const account = await ctx.em.findOne(AccountEntity, { id: grant.accountId, deletedAt: null }, { filters: false });
  if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', 'The account of this upload no longer exists');
  intInRange(a.index, 'index', 0, MAX_CHUNKS - 1);
  if (!BASE64_RE.test(a.data)) fail('data', 'data must be base64');
  const bytes = Buffer.from(a.data, 'base64');
  if (bytes.length > UPLOAD_CHUNK_BYTES) fail('data', `a chunk holds at most ${UPLOAD_CHUNK_BYTES} bytes`);
  const objects = ctx.runtime.objects;
  const key = accountObjectKey(grant.accountId, grant.key);
  const partKey = (i: number) => `${key}.part-${String(i).padStart(4, '0')}`;
  if (!a.final) {
    await objects.put(partKey(a.index), bytes);
    return { id: grant.uploadId, objectKey: grant.key, complete: false, bytes: bytes.length };
  }
  const parts: Buffer[] = [];
  for (let i = 0; i < a.index; i++) {
    const p = await objects.get(partKey(i));
    if (!p) fail('index', `chunk ${i} of this upload is missing`);
    parts.push(p);
  }
  parts.push(bytes);
  const whole = Buffer.concat(parts);
  if (whole.length > grant.maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE', `This upload URL takes at most ${grant.maxBytes} bytes`);
  if (a.totalBytes != null && a.totalBytes !== whole.length) fail('total_bytes', `received ${whole.length} bytes, expected ${a.totalBytes}`);
  const sha256 = createHash('sha256').update(whole).digest('hex');
  if (a.sha256 != null && a.sha256.toLowerCase() !== sha256) fail('sha256', 'the assembled object does not match its SHA-256');
  await objects.put(key, whole);
  for (let i = 0; i < a.index; i++) await objects.delete(partKey(i));
  return { id: grant.uploadId, objectKey: grant.key, complete: true, bytes: whole.length, sha256 };
}

export async function publishLogo(ctx: PlatformContext, accountUrlId: string, uploadId: string) {
  const account = await getAccount(ctx, accountUrlId);
  if (!UPLOAD_ID_RE.test(uploadId ?? '')) fail('upload_id', 'upload_id must be the id returned by logo/presign (upl_…)');
  const objects = ctx.runtime.objects;
  const staging = accountObjectKey(account.id, stagingKey(uploadId));
  const bytes = await objects.get(staging);
  if (!bytes) throw new DomainError('UPLOAD_NOT_FOUND', `Nothing was uploaded for ${uploadId} (PUT the file to its upload_url first)`, { parameter: 'upload_id' });
  const image = checkImage(bytes);
  if (!image.ok) {
    await objects.delete(staging);
    throw new DomainError('INVALID_IMAGE', image.message, { parameter: 'upload_id' });
  }
  const info = image.info;
  const file = `${uploadId}.${info.format === 'jpeg' ? 'jpg' : info.format}`;
  const logoKey = `logos/${file}`;
  await objects.put(accountObjectKey(account.id, logoKey), bytes);
  const logoUrl = `${ctx.runtime.cfg.publicUrl}/logos/${account.id}/${file}`;
  await withAccountEvents(ctx, async (tx) => {
    let details = await tx.em.findOne(AccountDetailsEntity, { account: account.id });
    details ??= tx.em.create(AccountDetailsEntity, {
      platform: tx.em.getReference(PlatformEntity, account.platform.id),
      account: tx.em.getReference(AccountEntity, account.id),
    });
    details.logoUrl = logoUrl;
    details.logoObjectKey = logoKey;
    await recordAccountEvent(tx, {
      account,
      event: 'logo.published',
      data: { logo_url: logoUrl, format: info.format, width: info.width, height: info.height, bytes: bytes.length },
      summary: `${account.name}: new logo published (${info.width}×${info.height} ${info.format})`,
    });
  });
  await objects.delete(staging);
  return { id: uploadId, logoUrl, format: info.format, contentType: info.contentType, width: info.width, height: info.height, bytes: bytes.length };
}

function checkImage(bytes: Buffer): { ok: true; info: ImageInfo } | { ok: false; message: string } {
  const info = sniffImage(bytes);
  if (!info) return { ok: false, message: 'The upload is not a PNG, JPEG, GIF or WebP image' };
  if (info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE) {
    return { ok: false, message: `The image is ${info.width}×${info.height}; logos are at most ${MAX_IMAGE_SIDE} pixels a side` };
  }
  return { ok: true, info };
}

/** The published logo `file` of `accountId` (public): only the current logo is served. */
export async function logoFile(ctx: PlatformContext, accountId: string, file: string) {
  const details = await ctx.em.findOne(AccountDetailsEntity, { account: accountId }, { filters: false });
  if (!details?.logoObjectKey || details.logoObjectKey !== `logos/${file}`) throw new DomainError('LOGO_NOT_FOUND', 'No such logo', { parameter: 'file' });
  const bytes = await ctx.runtime.objects.get(accountObjectKey(accountId, details.logoObjectKey));
  if (!bytes) throw new DomainError('LOGO_NOT_FOUND', 'No such logo', { parameter: 'file' });
  const info = sniffImage(bytes);
  return { contentType: info?.contentType ?? 'application/octet-stream', data: bytes.toString('base64'), bytes: bytes.length };
}
