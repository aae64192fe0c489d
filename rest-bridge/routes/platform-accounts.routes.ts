// Accounts addressed through their platform: /platforms/:pid/accounts[/:id]. :pid is the platform's
// unique_id, url_id or code, :id the account's url_id or unique_id. A token may name a platform it
// operates (its operator record grants the route's scope there), the one its `platform` claim names,
// or any with platform:superadmin; any other is 404 (docs/security.md, "Platform operators").
import type { Route } from '../types.js';
import { PAGE_QUERY, accountRes, base, pageDocument, pageVariables } from './platform-resources.js';

const read = { ...base, scope: 'platform:read' } as const;
const manage = { ...base, scope: 'platform:manage' } as const;

export const PLATFORM_ACCOUNT_ROUTES: Route[] = [
  {
    ...read,
    method: 'GET',
    path: '/platforms/:pid/accounts',
    operation: 'ListPlatformAccounts',
    summary: 'List the live accounts of the platform, oldest first, paged (platform:read)',
    query: PAGE_QUERY,
    variables: (r) => ({ platformId: r.params.pid, ...pageVariables(r) }),
    result: (d) => pageDocument(d.accounts),
    status: 200,
    responseType: 'accounts',
    list: true,
  },
  {
    ...read,
    method: 'GET',
    path: '/platforms/:pid/accounts/:id',
    operation: 'GetPlatformAccount',
    summary: 'Show an account of the platform (platform:read)',
    variables: (r) => ({ platformId: r.params.pid, urlId: r.params.id }),
    result: (d) => ({ data: accountRes(d.account) }),
    status: 200,
    responseType: 'accounts',
  },
  {
    ...manage,
    method: 'POST',
    path: '/platforms/:pid/accounts',
    operation: 'CreatePlatformAccount',
    summary: 'Create an account in the platform; capabilities follow deployment_model (platform:manage)',
    body: { type: 'accounts', input: 'input' },
    variables: (r) => ({ platformId: r.params.pid, input: r.attributes }),
    result: (d) => ({ data: accountRes(d.createAccount) }),
    status: 201,
    responseType: 'accounts',
  },
  {
    ...manage,
    method: 'PUT',
    path: '/platforms/:pid/accounts/:id',
    operation: 'UpdatePlatformAccount',
    summary: 'Update an account of the platform; attributes left out keep their value (platform:manage)',
    body: { type: 'accounts', input: 'input' },
    variables: (r) => ({ platformId: r.params.pid, urlId: r.params.id, input: r.attributes }),
    result: (d) => ({ data: accountRes(d.updateAccount) }),
    status: 200,
    responseType: 'accounts',
  },
  {
    ...manage,
    method: 'DELETE',
    path: '/platforms/:pid/accounts/:id',
    operation: 'DeletePlatformAccount',
    summary: 'Soft-delete an account of the platform (as DELETE /accounts/:url_id) (platform:manage)',
    variables: (r) => ({ platformId: r.params.pid, urlId: r.params.id }),
    result: (d) => ({ data: accountRes(d.deleteAccount) }),
    status: 200,
    responseType: 'accounts',
  },
];
