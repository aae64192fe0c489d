// Platform service (document 1): platforms and accounts of the X-Platform platform. JWT +
// X-Platform, platform error shape; `scope` is the documented scope table (docs/platform.md).
import { DomainError } from '../../lib/errors.js';
import type { Route } from '../types.js';
import {
  PAGE_QUERY,
  accountRes,
  base,
  pageDocument,
  pageVariables,
  platformRes,
} from './platform-resources.js';

const admin = { ...base, scope: 'platform:admin' } as const;
const read = { ...base, scope: 'platform:read' } as const;
const manage = { ...base, scope: 'platform:manage' } as const;

const PLATFORM_ROWS: Route[] = [
  {
    ...admin,
    method: 'POST',
    path: '/platforms',
    operation: 'CreatePlatform',
    summary: 'Create a platform (platform:admin; needs no X-Platform, so the first platform can be created)',
    body: { type: 'platforms', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: platformRes(d.createPlatform) }),
    status: 201,
    responseType: 'platforms',
  },
  {
    ...admin,
    method: 'GET',
    path: '/platforms',
    operation: 'ListPlatforms',
    summary: 'List platforms (platform:admin; a platform-bound token sees its own)',
    variables: () => ({}),
    result: (d) => ({ data: d.platforms.map(platformRes) }),
    status: 200,
    responseType: 'platforms',
    list: true,
  },
  {
    ...admin,
    method: 'GET',
    path: '/platforms/:unique_id',
    operation: 'GetPlatform',
    summary: 'Show a platform by unique_id, url_id or code (platform:admin)',
    variables: (r) => ({ id: r.params.unique_id }),
    result: (d) => ({ data: platformRes(d.platform) }),
    status: 200,
    responseType: 'platforms',
  },
  {
    ...admin,
    method: 'PUT',
    path: '/platforms/:unique_id',
    operation: 'UpdatePlatform',
    summary: 'Update a platform; attributes left out keep their value; code is immutable (platform:admin)',
    body: { type: 'platforms', input: 'input' },
    variables: (r) => ({ id: r.params.unique_id, input: r.attributes }),
    result: (d) => ({ data: platformRes(d.updatePlatform) }),
    status: 200,
    responseType: 'platforms',
  },
  {
    ...admin,
    method: 'DELETE',
    path: '/platforms/:unique_id',
    operation: 'DeletePlatform',
    summary: 'Soft-delete a platform; 409 platform_not_empty while it has live accounts (platform:admin, unbound token)',
    variables: (r) => ({ id: r.params.unique_id }),
    result: (d) => ({ data: platformRes(d.deletePlatform) }),
    status: 200,
    responseType: 'platforms',
  },
  {
    ...admin,
    method: 'POST',
    path: '/platforms/:unique_id/restore',
    operation: 'RestorePlatform',
    summary: 'Restore a soft-deleted platform (platform:admin, unbound token)',
    variables: (r) => ({ id: r.params.unique_id }),
    result: (d) => ({ data: platformRes(d.restorePlatform) }),
    status: 200,
    responseType: 'platforms',
  },
];

const ACCOUNT_ROWS: Route[] = [
  {
    ...manage,
    method: 'POST',
    path: '/accounts',
    operation: 'CreateAccount',
    summary: 'Create an account in the X-Platform platform; capabilities follow deployment_model (platform:manage)',
    body: { type: 'accounts', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: accountRes(d.createAccount) }),
    status: 201,
    responseType: 'accounts',
  },
  {
    ...read,
    method: 'GET',
    path: '/accounts',
    operation: 'ListAccounts',
    summary: 'List the live accounts of the X-Platform platform, oldest first, paged (platform:read)',
    query: PAGE_QUERY,
    variables: (r) => pageVariables(r),
    result: (d) => pageDocument(d.accounts),
    status: 200,
    responseType: 'accounts',
    list: true,
  },
  {
    ...read,
    method: 'GET',
    path: '/accounts/:url_id',
    operation: 'GetAccount',
    summary: 'Show an account by url_id or unique_id (platform:read)',
    variables: (r) => ({ urlId: r.params.url_id }),
    result: (d) => ({ data: accountRes(d.account) }),
    status: 200,
    responseType: 'accounts',
  },
  {
    ...manage,
    method: 'PUT',
    path: '/accounts/:url_id',
    operation: 'UpdateAccount',
    summary: 'Update an account; attributes left out keep their value; capabilities follow deployment_model (platform:manage)',
    body: { type: 'accounts', input: 'input' },
    variables: (r) => ({ urlId: r.params.url_id, input: r.attributes }),
    result: (d) => ({ data: accountRes(d.updateAccount) }),
    status: 200,
    responseType: 'accounts',
  },
  {
    ...manage,
    method: 'DELETE',
    path: '/accounts/:url_id',
    operation: 'DeleteAccount',
    summary: 'Soft-delete an account: gone from lists and lookups, its keys stop working, restorable (platform:manage)',
    variables: (r) => ({ urlId: r.params.url_id }),
    result: (d) => ({ data: accountRes(d.deleteAccount) }),
    status: 200,
    responseType: 'accounts',
  },
  {
    ...admin,
    method: 'POST',
    path: '/accounts/:url_id/restore',
    operation: 'RestoreAccount',
    summary: 'Restore a soft-deleted account of the X-Platform platform (platform:admin)',
    variables: (r) => ({ urlId: r.params.url_id }),
    result: (d) => ({ data: accountRes(d.restoreAccount) }),
    status: 200,
    responseType: 'accounts',
  },
  {
    ...admin,
    method: 'GET',
    path: '/global/accounts',
    operation: 'ListGlobalAccounts',
    summary: 'Accounts across all platforms, newest first, paged; include_deleted=true adds soft-deleted ones (platform:admin)',
    query: [...PAGE_QUERY, { name: 'include_deleted', type: 'boolean', description: 'default false' }],
    variables: (r) => ({ ...pageVariables(r), includeDeleted: boolParam(r.query.include_deleted) }),
    result: (d) => pageDocument(d.globalAccounts),
    status: 200,
    responseType: 'accounts',
    list: true,
  },
];

function boolParam(v: unknown): boolean {
  if (v === undefined || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw new DomainError('BAD_REQUEST', 'include_deleted must be true or false', { parameter: 'include_deleted' });
}

export const PLATFORM_ROUTES: Route[] = [...PLATFORM_ROWS, ...ACCOUNT_ROWS];
