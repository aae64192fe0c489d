// Platform service: the account object store and the logo (document 1). Two public rows serve the
// upload (PUT to a presigned URL, streamed into the object store) and the published logo file;
// their credential is the URL itself.
import { MiB } from '../../lib/http.js';
import { MEDIA_TYPES } from '../../lib/media-type.js';
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';

const base = { service: 'platform', auth: 'jwt+platform' } as const;
const account = (r: { params: Record<string, string> }) => ({ accountUrlId: r.params.url_id });

export const PLATFORM_STORAGE_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/storage',
    operation: 'ProvisionAccountStorage',
    summary: 'Provision the account object store (idempotent: a second call answers the same store). No body',
    variables: account,
    result: (d) => ({ data: resource('storage', d.provisionAccountStorage) }),
    status: 200,
    responseType: 'storage',
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/logo/presign',
    operation: 'PresignAccountLogo',
    summary: 'A signed upload URL (15 minutes, up to 10 MiB): PUT the image bytes to upload_url, then logo/publish with the id. No body',
    variables: account,
    result: (d) => ({ data: resource('logo_uploads', d.presignAccountLogo) }),
    status: 200,
    responseType: 'logo_uploads',
  },
  {
    service: 'platform',
    auth: 'none',
    method: 'PUT',
    path: '/uploads/:token',
    operation: 'RecordLogoUpload',
    summary: 'Upload to a presigned URL: the raw image bytes as the body (PNG, JPEG, GIF or WebP, decided from the bytes; any Content-Type); the signed URL is the credential',
    upload: { purpose: 'logo', maxBytes: 10 * MiB, types: MEDIA_TYPES },
    variables: (r) => ({ token: r.params.token, object: r.upload }),
    result: (d) => ({ data: resource('uploads', d.recordLogoUpload) }),
    status: 200,
    responseType: 'uploads',
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/logo/publish',
    operation: 'PublishAccountLogo',
    summary: 'Check the uploaded file is a PNG, JPEG, GIF or WebP image (by its bytes) and make it the logo',
    body: { type: 'logos', args: ['uploadId'] },
    variables: (r) => ({ ...account(r), uploadId: r.attributes.uploadId ?? '' }),
    result: (d) => ({ data: resource('logos', d.publishAccountLogo) }),
    status: 200,
    responseType: 'logos',
  },
  {
    service: 'platform',
    auth: 'none',
    method: 'GET',
    path: '/logos/:account_id/:file',
    operation: 'GetAccountLogoFile',
    summary: "An account's published logo (public; the URL is branding.logo_url)",
    variables: (r) => ({ accountId: r.params.account_id, file: r.params.file }),
    result: (d) => ({ data: resource('logo_files', { id: 'logo', contentType: d.accountLogoFile.contentType, bytes: d.accountLogoFile.bytes }) }),
    raw: (d) => ({ contentType: d.accountLogoFile.contentType, objectRef: d.accountLogoFile.storageRef, headers: { 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' } }),
    status: 200,
    responseType: 'logo_files',
  },
];
