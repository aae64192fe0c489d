// Logo upload: presign → PUT (the REST bridge streams the bytes into the object store, checking
// size and media type, then calls recordLogoUpload with the stored object's reference) → publish.
// The upload URL is the credential of the PUT; publishing checks the image's header (format and
// size), copies it to the account's published logos and sets the logo URL, which the REST bridge
// serves publicly at PUBLIC_URL/logos/<account id>/<file>.
import { sealObjectRef } from '../../../lib/object-ref.js';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { MiB } from '../../../lib/http.js';
import { readObject } from '../../../lib/object-store.js';
import { acceptStoredUpload, type StoredUploadInput } from '../../../lib/stored-upload.js';
import { signUploadToken, type UploadGrant } from '../../../lib/upload-token.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { AccountDetailsEntity } from '../account-details/account-details.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { fail, intInRange } from '../validation.js';
import { sniffImage, FILE_EXTENSIONS, formatOfFile, IMAGE_CONTENT_TYPES, MAX_IMAGE_SIDE, type ImageInfo } from './image.rules.js';
import { accountObjectKey, ensureStorage } from './storage.service.js';

/** CONTRACT: image bodies up to 10 MiB. */
export const LOGO_MAX_BYTES = 10 * MiB;
export const UPLOAD_TTL_SEC = 15 * 60;
/** the grant purpose of logo uploads: the REST route PUT /uploads/:token takes only these */
export const LOGO_UPLOAD_PURPOSE = 'logo';
const UPLOAD_ID_RE = /^upl_[A-Za-z0-9]{20}$/;

/** Staged uploads not published within a day are removed (at the account's next presign). */
export const STAGED_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const stagingKey = (uploadId: string) => `logos/uploads/${uploadId}`;

async function sweepStagedUploads(ctx: PlatformContext, accountId: string): Promise<void> {
  const objects = ctx.runtime.objects;
  const before = Date.now() - STAGED_UPLOAD_MAX_AGE_MS;
  for (const o of await objects.list(accountObjectKey(accountId, 'logos/uploads'))) {
    if (o.lastModified.getTime() < before) await objects.delete(o.key);
  }
}

export async function presignLogo(ctx: PlatformContext, accountUrlId: string, contentLength?: number | null) {
  const account = await getAccount(ctx, accountUrlId);
  const declared = intInRange(contentLength, 'contentLength', 1, LOGO_MAX_BYTES);
  await ensureStorage(ctx, account);
  await sweepStagedUploads(ctx, account.id);
  const { cfg } = ctx.runtime;
  const uploadId = newId('upl');
  const grant: UploadGrant = {
    uploadId,
    purpose: LOGO_UPLOAD_PURPOSE,
    owner: { platform: account.platform.id, account: account.id },
    key: accountObjectKey(account.id, stagingKey(uploadId)),
    maxBytes: declared ?? LOGO_MAX_BYTES,
    expiresAt: Math.floor(Date.now() / 1000) + UPLOAD_TTL_SEC,
  };
  return {
    id: uploadId,
    uploadUrl: `${cfg.publicUrl}/uploads/${signUploadToken(grant, cfg.internalSecret)}`,
    method: 'PUT',
    expiresAt: new Date(grant.expiresAt * 1000),
    maxBytes: grant.maxBytes,
    objectKey: stagingKey(uploadId),
  };
}

/**
 * The REST bridge stored a logo upload (public: the signed token and the bridge's receipt are the
 * credentials). Checks both and that the account still exists; the bridge deletes the object when
 * this refuses it.
 */
export async function recordLogoUpload(ctx: PlatformContext, token: string, object: StoredUploadInput) {
  const { grant, stored } = await acceptStoredUpload(ctx.runtime.objects, ctx.runtime.cfg.internalSecret, LOGO_UPLOAD_PURPOSE, token, object);
  const account = await ctx.em.findOne(AccountEntity, { id: grant.owner.account, deletedAt: null }, { filters: false });
  if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', 'The account of this upload no longer exists');
  return { id: grant.uploadId, objectKey: stagingKey(grant.uploadId), complete: true, bytes: stored.size, contentType: stored.contentType, sha256: stored.sha256 };
}

export async function publishLogo(ctx: PlatformContext, accountUrlId: string, uploadId: string) {
  const account = await getAccount(ctx, accountUrlId);
  if (!UPLOAD_ID_RE.test(uploadId ?? '')) fail('uploadId', 'upload_id must be the id returned by logo/presign (upl_…)');
  const objects = ctx.runtime.objects;
  const staging = accountObjectKey(account.id, stagingKey(uploadId));
  const bytes = await readObject(objects, staging, LOGO_MAX_BYTES);
  if (!bytes) throw new DomainError('UPLOAD_NOT_FOUND', `Nothing was uploaded for ${uploadId} (PUT the file to its upload_url first)`, { parameter: 'uploadId' });
  const image = checkImage(bytes);
  if (!image.ok) {
    await objects.delete(staging);
    throw new DomainError('INVALID_IMAGE', image.message, { parameter: 'uploadId' });
  }
  const info = image.info;
  const file = `${uploadId}.${FILE_EXTENSIONS[info.format]}`;
  const logoKey = `logos/${file}`;
  await objects.copy(staging, accountObjectKey(account.id, logoKey));
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
  const objectKey = accountObjectKey(accountId, details.logoObjectKey);
  const head = await ctx.runtime.objects.head(objectKey);
  if (!head) throw new DomainError('LOGO_NOT_FOUND', 'No such logo', { parameter: 'file' });
  // the key names the account: it leaves this service sealed, for the bridge only
  return { contentType: IMAGE_CONTENT_TYPES[formatOfFile(file)], storageRef: sealObjectRef(objectKey, ctx.runtime.cfg.internalSecret), bytes: head.size };
}
