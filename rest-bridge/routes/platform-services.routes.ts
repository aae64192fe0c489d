// Platform service, account services (document 1): credentials (/keys), message-broker
// configurations (/exchange), details, storage, logo upload, notification settings. JWT +
// X-Platform; platform:read reads, platform:manage writes. Two public rows serve the logo upload
// (PUT to a presigned URL) and the published logo file; their credential is the URL itself.
import { DomainError } from '../../lib/errors.js';
import { MiB } from '../../lib/http.js';
import { verifyUploadToken } from '../../lib/upload-token.js';
import { resource } from '../jsonapi.js';
import { getParam, intParam } from '../query.js';
import type { Route } from '../types.js';

// free-form objects keep the client's keys
const credentialRes = (c: Record<string, unknown>) => resource('credentials', c, { opaque: ['metadata'] });
const exchangeRes = (x: Record<string, unknown>) => resource('exchanges', x, { opaque: ['options'] });
const detailsRes = (d: Record<string, unknown>) => resource('account_details', d);
const settingsRes = (s: Record<string, unknown>) => resource('notification_settings', s);

const base = { service: 'platform', auth: 'jwt+platform' } as const;
const account = (r: { params: Record<string, string> }) => ({ accountUrlId: r.params.url_id });

const CREDENTIAL_ATTRIBUTES = {
  name: 'string',
  provider: 'string',
  credential_type: 'string',
  identifier: 'string',
  secret: 'string',
  metadata: 'json',
  expires_at: 'datetime',
} as const;

const EXCHANGE_ATTRIBUTES = {
  name: 'string',
  broker_type: 'string',
  url: 'string',
  username: 'string',
  password: 'string',
  options: 'json',
  enabled: 'boolean',
} as const;

const DETAILS_BODY = {
  type: 'account_details',
  attributes: {
    legal_name: 'string',
    tax_id: 'string',
    website: 'string',
    address: { properties: { line1: 'string', line2: 'string', city: 'string', region: 'string', postal_code: 'string', country: 'string' } },
    contact: { properties: { name: 'string', email: 'string', phone: 'string' } },
    branding: { properties: { primary_color: 'string', secondary_color: 'string', accent_color: 'string', logo_url: 'string' } },
  },
} as const;

export const PLATFORM_SERVICES_ROUTES: Route[] = [
  // ---- /keys: third-party and cloud credentials
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/keys',
    operation: 'ListAccountCredentials',
    summary: 'List the account credentials; secrets masked (last four characters)',
    variables: account,
    result: (d) => ({ data: d.accountCredentials.map(credentialRes) }),
    status: 200,
    responseType: 'credentials',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/keys',
    operation: 'CreateAccountCredential',
    summary: 'Store a credential; the secret is encrypted (AES-256-GCM) and never returned, not even here',
    body: { type: 'credentials', attributes: CREDENTIAL_ATTRIBUTES, required: ['name', 'provider', 'secret'] },
    variables: (r) => ({ ...account(r), input: r.attributes }),
    result: (d) => ({ data: credentialRes(d.createAccountCredential) }),
    status: 201,
    responseType: 'credentials',
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/keys/:credential_id',
    operation: 'GetAccountCredential',
    summary: 'Show a credential (secret masked)',
    variables: (r) => ({ ...account(r), id: r.params.credential_id }),
    result: (d) => ({ data: credentialRes(d.accountCredential) }),
    status: 200,
    responseType: 'credentials',
  },
  {
    ...base,
    method: 'PUT',
    path: '/accounts/:url_id/keys/:credential_id',
    operation: 'UpdateAccountCredential',
    summary: 'Update a credential: the attributes given change; a new secret replaces (rotates) the stored one',
    body: { type: 'credentials', attributes: CREDENTIAL_ATTRIBUTES },
    variables: (r) => ({ ...account(r), id: r.params.credential_id, input: r.attributes }),
    result: (d) => ({ data: credentialRes(d.updateAccountCredential) }),
    status: 200,
    responseType: 'credentials',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/accounts/:url_id/keys/:credential_id',
    operation: 'DeleteAccountCredential',
    summary: 'Delete a credential for good; answers it as it was',
    variables: (r) => ({ ...account(r), id: r.params.credential_id }),
    result: (d) => ({ data: credentialRes(d.deleteAccountCredential) }),
    status: 200,
    responseType: 'credentials',
  },

  // ---- /exchange: message-broker configurations
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/exchange',
    operation: 'ListAccountExchanges',
    summary: 'List the message-broker configurations; passwords masked',
    variables: account,
    result: (d) => ({ data: d.accountExchanges.map(exchangeRes) }),
    status: 200,
    responseType: 'exchanges',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/exchange',
    operation: 'CreateAccountExchange',
    summary: 'Add a broker (rabbitmq, kafka, nats, sqs, redis); user info in the URL moves to username/password; the password is encrypted',
    body: { type: 'exchanges', attributes: EXCHANGE_ATTRIBUTES, required: ['name', 'broker_type', 'url'] },
    variables: (r) => ({ ...account(r), input: r.attributes }),
    result: (d) => ({ data: exchangeRes(d.createAccountExchange) }),
    status: 201,
    responseType: 'exchanges',
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/exchange/:exchange_id',
    operation: 'GetAccountExchange',
    summary: 'Show a broker configuration',
    variables: (r) => ({ ...account(r), id: r.params.exchange_id }),
    result: (d) => ({ data: exchangeRes(d.accountExchange) }),
    status: 200,
    responseType: 'exchanges',
  },
  {
    ...base,
    method: 'PUT',
    path: '/accounts/:url_id/exchange/:exchange_id',
    operation: 'UpdateAccountExchange',
    summary: 'Update a broker configuration (attributes given change; password null removes it)',
    body: { type: 'exchanges', attributes: EXCHANGE_ATTRIBUTES },
    variables: (r) => ({ ...account(r), id: r.params.exchange_id, input: r.attributes }),
    result: (d) => ({ data: exchangeRes(d.updateAccountExchange) }),
    status: 200,
    responseType: 'exchanges',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/accounts/:url_id/exchange/:exchange_id',
    operation: 'DeleteAccountExchange',
    summary: 'Delete a broker configuration; answers it as it was',
    variables: (r) => ({ ...account(r), id: r.params.exchange_id }),
    result: (d) => ({ data: exchangeRes(d.deleteAccountExchange) }),
    status: 200,
    responseType: 'exchanges',
  },

  // ---- /details
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/details',
    operation: 'GetAccountDetails',
    summary: 'Address, contact and branding (empty until first saved); branding.logo_url is set by logo/publish',
    variables: account,
    result: (d) => ({ data: detailsRes(d.accountDetails) }),
    status: 200,
    responseType: 'account_details',
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/details',
    operation: 'CreateAccountDetails',
    summary: 'Save the details the first time (409 details_already_exist afterwards: use PUT)',
    body: DETAILS_BODY,
    variables: (r) => ({ ...account(r), input: r.attributes }),
    result: (d) => ({ data: detailsRes(d.createAccountDetails) }),
    status: 201,
    responseType: 'account_details',
  },
  {
    ...base,
    method: 'PUT',
    path: '/accounts/:url_id/details',
    operation: 'UpdateAccountDetails',
    summary: 'Update the details given (nested objects key by key, null clears); creates them when absent',
    body: DETAILS_BODY,
    variables: (r) => ({ ...account(r), input: r.attributes }),
    result: (d) => ({ data: detailsRes(d.updateAccountDetails) }),
    status: 200,
    responseType: 'account_details',
  },

  // ---- /storage and the logo
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
    operation: 'UploadChunk',
    summary: 'Upload to a presigned URL: the raw bytes as the body (any content type); the signed URL is the credential',
    upload: {
      maxBytes: 10 * MiB,
      chunkBytes: 512 * 1024,
      authorize: (r, { uploadSecret }) => {
        const check = verifyUploadToken(r.params.token, uploadSecret);
        if (!check.ok) throw new DomainError(check.code, check.message, { parameter: 'token' });
        return { maxBytes: check.grant.maxBytes };
      },
    },
    variables: (r) => ({
      token: r.params.token,
      index: r.chunk?.index,
      data: r.chunk?.data,
      final: r.chunk?.final,
      totalBytes: r.chunk?.totalBytes,
      sha256: r.chunk?.sha256,
    }),
    result: (d) => ({ data: resource('uploads', d.uploadChunk) }),
    status: 200,
    responseType: 'uploads',
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/logo/publish',
    operation: 'PublishAccountLogo',
    summary: 'Check the uploaded file is a PNG, JPEG, GIF or WebP image (by its bytes) and make it the logo',
    body: { type: 'logos', attributes: { upload_id: 'string' }, required: ['upload_id'] },
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
    result: (d) => ({ data: resource('logo_files', { id: 'logo', ...d.accountLogoFile }) }),
    raw: (d) => ({ contentType: d.accountLogoFile.contentType, body: Buffer.from(d.accountLogoFile.data, 'base64'), headers: { 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' } }),
    status: 200,
    responseType: 'logo_files',
  },

  // ---- notifications
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/settings/notifications',
    operation: 'GetNotificationSettings',
    summary: 'Team-chat webhook (masked) and the events sent to it',
    variables: account,
    result: (d) => ({ data: settingsRes(d.notificationSettings) }),
    status: 200,
    responseType: 'notification_settings',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/accounts/:url_id/settings/notifications',
    operation: 'UpdateNotificationSettings',
    summary: "Set the team-chat webhook URL (null removes it), the events sent ('*', 'key.*', 'account.created'…) and enabled",
    body: { type: 'notification_settings', attributes: { team_chat_webhook_url: 'string', events: 'string[]', enabled: 'boolean' } },
    variables: (r) => ({ ...account(r), input: r.attributes }),
    result: (d) => ({ data: settingsRes(d.updateNotificationSettings) }),
    status: 200,
    responseType: 'notification_settings',
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/settings/notifications/deliveries',
    operation: 'ListWebhookDeliveries',
    summary: 'Latest webhook deliveries of the account events (team chat and app webhooks), newest first',
    query: [
      { name: 'status', type: 'string', description: 'pending, delivering, delivered, failed' },
      { name: 'limit', type: 'integer', description: '1-200, default 50' },
    ],
    variables: (r) => ({ ...account(r), status: getParam(r.query, 'status') ?? null, limit: intParam(r.query, 'limit', { default: 50, min: 1, max: 200 }) }),
    result: (d) => ({ data: d.webhookDeliveries.map((x: Record<string, unknown>) => resource('webhook_deliveries', x)) }),
    status: 200,
    responseType: 'webhook_deliveries',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/apps/:app_id/webhook_secret',
    operation: 'RollAppWebhookSecret',
    summary: "Create or roll the app's webhook signing secret (shown only in this response); account events reach the app's webhook_url once it has one",
    variables: (r) => ({ ...account(r), appId: r.params.app_id }),
    result: (d) => ({ data: resource('webhook_secrets', d.rollAppWebhookSecret) }),
    status: 201,
    responseType: 'webhook_secrets',
  },
];
