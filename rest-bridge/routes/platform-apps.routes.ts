// Apps, their API keys and domain verification (apps and accounts). JWT + X-Platform; `scope` is
// the documented scope table (docs/platform.md).
import { intParam } from '../query.js';
import type { Route } from '../types.js';
import { appRes, base, domainRes, keyRes } from './platform-resources.js';

const read = { ...base, scope: 'platform:read' } as const;
const manage = { ...base, scope: 'platform:manage' } as const;

const APP_ROWS: Route[] = [
  {
    ...manage,
    method: 'POST',
    path: '/accounts/:url_id/apps',
    operation: 'CreateApp',
    summary: 'Create an app in the account (platform:manage)',
    body: { type: 'apps', input: 'input' },
    variables: (r) => ({ accountUrlId: r.params.url_id, input: r.attributes }),
    result: (d) => ({ data: appRes(d.createApp) }),
    status: 201,
    responseType: 'apps',
  },
  {
    ...read,
    method: 'GET',
    path: '/accounts/:url_id/apps',
    operation: 'ListApps',
    summary: 'List the apps of the account (platform:read)',
    variables: (r) => ({ accountUrlId: r.params.url_id }),
    result: (d) => ({ data: d.apps.map(appRes) }),
    status: 200,
    responseType: 'apps',
    list: true,
  },
  {
    ...manage,
    method: 'PUT',
    path: '/accounts/:url_id/apps/:id',
    operation: 'UpdateApp',
    summary: 'Update an app; attributes left out keep their value; a new preferred_domain must be verified again (platform:manage)',
    body: { type: 'apps', input: 'input' },
    variables: (r) => ({ accountUrlId: r.params.url_id, id: r.params.id, input: r.attributes }),
    result: (d) => ({ data: appRes(d.updateApp) }),
    status: 200,
    responseType: 'apps',
  },
  {
    ...manage,
    method: 'DELETE',
    path: '/accounts/:url_id/apps/:id',
    operation: 'DeleteApp',
    summary: 'Delete an app (soft): it leaves every list and its keys stop working at once (platform:manage)',
    variables: (r) => ({ accountUrlId: r.params.url_id, id: r.params.id }),
    result: (d) => ({ data: appRes(d.deleteApp) }),
    status: 200,
    responseType: 'apps',
  },
];

const DOMAIN_ROWS: Route[] = [
  {
    ...manage,
    method: 'POST',
    path: '/accounts/:url_id/apps/:id/verify_domain',
    operation: 'VerifyAppDomain',
    summary: "Issue the app's domain verification token (once per domain), check DNS and list the records to publish (platform:manage)",
    variables: (r) => ({ accountUrlId: r.params.url_id, appId: r.params.id }),
    result: (d) => ({ data: domainRes(d.verifyAppDomain) }),
    status: 200,
    responseType: 'domain_verifications',
  },
  {
    ...read,
    method: 'GET',
    path: '/accounts/:url_id/apps/:id/check_domain',
    operation: 'CheckAppDomain',
    summary: "Check the app's DNS records (ownership TXT, SPF, DKIM) and record the outcome (platform:read)",
    variables: (r) => ({ accountUrlId: r.params.url_id, appId: r.params.id }),
    result: (d) => ({ data: domainRes(d.checkAppDomain) }),
    status: 200,
    responseType: 'domain_verifications',
  },
  {
    ...manage,
    method: 'POST',
    path: '/accounts/:url_id/domain/verify',
    operation: 'VerifyAccountDomain',
    summary: "Issue the account's domain verification token (once per domain), check DNS and list the records to publish (platform:manage)",
    variables: (r) => ({ urlId: r.params.url_id }),
    result: (d) => ({ data: domainRes(d.verifyAccountDomain) }),
    status: 200,
    responseType: 'domain_verifications',
  },
  {
    ...read,
    method: 'GET',
    path: '/accounts/:url_id/domain/check',
    operation: 'CheckAccountDomain',
    summary: "Check the account's DNS records (ownership TXT, SPF, DKIM) and record the outcome (platform:read)",
    variables: (r) => ({ urlId: r.params.url_id }),
    result: (d) => ({ data: domainRes(d.checkAccountDomain) }),
    status: 200,
    responseType: 'domain_verifications',
  },
];

const KEYS = '/accounts/:url_id/apps/:app_id/api_keys';
const keyVars = (r: { params: Record<string, string> }) => ({ accountUrlId: r.params.url_id, appId: r.params.app_id, id: r.params.id });

const KEY_ROWS: Route[] = [
  {
    ...manage,
    method: 'POST',
    path: KEYS,
    operation: 'CreateApiKey',
    summary: 'Create an API key; the response carries the full key value in key_id (shown once) (platform:manage)',
    body: { type: 'api_keys', input: 'input' },
    variables: (r) => ({ accountUrlId: r.params.url_id, appId: r.params.app_id, input: r.attributes }),
    result: (d) => ({ data: keyRes(d.createApiKey) }),
    status: 201,
    responseType: 'api_keys',
  },
  {
    ...read,
    method: 'GET',
    path: KEYS,
    operation: 'ListApiKeys',
    summary: 'List the API keys of the app: key_id masked to prefix and last four (platform:read)',
    variables: (r) => ({ accountUrlId: r.params.url_id, appId: r.params.app_id }),
    result: (d) => ({ data: d.apiKeys.map(keyRes) }),
    status: 200,
    responseType: 'api_keys',
    list: true,
  },
  {
    ...manage,
    method: 'POST',
    path: `${KEYS}/:id/regenerate`,
    operation: 'RegenerateApiKey',
    summary: 'Replace the key value at once: the old value stops working immediately; the new one is in key_id, shown once (platform:manage)',
    variables: keyVars,
    result: (d) => ({ data: keyRes(d.regenerateApiKey) }),
    status: 200,
    responseType: 'api_keys',
  },
  {
    ...manage,
    method: 'POST',
    path: `${KEYS}/:id/rotate_secret`,
    operation: 'RotateApiKeySecret',
    summary: 'Roll the key: a new value (key_id, shown once); the old one keeps working for grace_period_seconds (default 86400) (platform:manage)',
    query: [{ name: 'grace_period_seconds', type: 'integer', description: '0 to 604800 (7 days); default 86400 (24 h)' }],
    variables: (r) => ({ ...keyVars(r), gracePeriodSeconds: intParam(r.query, 'grace_period_seconds', { default: 86_400, min: 0, max: 604_800 }) }),
    result: (d) => ({ data: keyRes(d.rotateApiKeySecret) }),
    status: 200,
    responseType: 'api_keys',
  },
  {
    ...manage,
    method: 'DELETE',
    path: `${KEYS}/:id`,
    operation: 'RevokeApiKey',
    summary: 'Revoke the key: it stops working at once and leaves the list (platform:manage)',
    variables: keyVars,
    result: (d) => ({ data: keyRes(d.revokeApiKey) }),
    status: 200,
    responseType: 'api_keys',
  },
];

export const PLATFORM_APP_ROUTES: Route[] = [...APP_ROWS, ...DOMAIN_ROWS, ...KEY_ROWS];
