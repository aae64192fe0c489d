// Platform service, account services (document 1): credentials (/keys), message-broker
// configurations (/exchange) and details here; storage and the logo in platform-storage.routes.ts,
// notification settings in platform-notifications.routes.ts. JWT + X-Platform; platform:read reads,
// platform:manage writes.
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';
import { PLATFORM_NOTIFICATION_ROUTES } from './platform-notifications.routes.js';
import { PLATFORM_STORAGE_ROUTES } from './platform-storage.routes.js';

const credentialRes = (c: Record<string, unknown>) => resource('credentials', c);
const exchangeRes = (x: Record<string, unknown>) => resource('exchanges', x);
const detailsRes = (d: Record<string, unknown>) => resource('account_details', d);

const base = { service: 'platform', auth: 'jwt+platform' } as const;
const account = (r: { params: Record<string, string> }) => ({ accountUrlId: r.params.url_id });

const DETAILS_BODY = { type: 'account_details', input: 'input' } as const;

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
    body: { type: 'credentials', input: 'input' },
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
    body: { type: 'credentials', input: 'input' },
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
    body: { type: 'exchanges', input: 'input' },
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
    body: { type: 'exchanges', input: 'input' },
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
  ...PLATFORM_STORAGE_ROUTES,
  ...PLATFORM_NOTIFICATION_ROUTES,
];
