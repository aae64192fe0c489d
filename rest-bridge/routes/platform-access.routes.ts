// Platform service: user access control. JWT + X-Platform; platform:manage for grants and state
// moves, platform:read for the lists. Grant is idempotent: 201 created, 200 the same active grant.
// `:access_id` is the spec's `:id` of /user_accesses/:id/...
import { resource } from '../jsonapi.js';
import type { QueryValue } from '../query.js';
import type { Route } from '../types.js';

const accessRes = (a: Record<string, unknown>) => resource('user_accesses', a);

/** An app the user reaches: the app's attributes plus role, access_via and access_id. */
const userAppRes = (x: Record<string, any>) => resource('apps', { ...x.app, role: x.role, accessVia: x.via, accessId: x.accessId }, { uniqueId: true });
const userAccountRes = (x: Record<string, any>) => resource('accounts', { ...x.account, role: x.role, accessVia: x.via, accessId: x.accessId }, { uniqueId: true });

/** ?status=active; a structured value is passed on as text so the service's 422 names `status`. */
function statusParam(v: QueryValue | undefined): string | null {
  if (v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const base = { service: 'platform', auth: 'jwt+platform' } as const;

const move = (action: 'revoke' | 'suspend' | 'reactivate', operation: string, field: string, summary: string): Route => ({
  ...base,
  method: 'POST',
  path: `/user_accesses/:access_id/${action}`,
  operation,
  summary,
  variables: (r) => ({ id: r.params.access_id }),
  result: (d) => ({ data: accessRes(d[field]) }),
  status: 200,
  responseType: 'user_accesses',
});

export const PLATFORM_ACCESS_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/user_accesses',
    operation: 'GrantUserAccess',
    summary:
      'Grant a user (user_id) a role (owner, admin, member (default), viewer) on an account (account_id: url_id or unique_id) or an app (app_id); ' +
      '201 created, 200 the same active grant already existed; another role or a suspended grant → 409 access_already_exists',
    body: { type: 'user_accesses', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: accessRes(d.grantUserAccess.access), meta: { created: d.grantUserAccess.created } }),
    status: 201,
    statusOf: (d) => (d.grantUserAccess.created ? 201 : 200),
    responseType: 'user_accesses',
  },
  move('revoke', 'RevokeUserAccess', 'revokeUserAccess', 'Revoke (active or suspended → revoked, terminal); other moves → 409 invalid_state_transition'),
  move('suspend', 'SuspendUserAccess', 'suspendUserAccess', 'Suspend (active → suspended); other moves → 409 invalid_state_transition'),
  move('reactivate', 'ReactivateUserAccess', 'reactivateUserAccess', 'Reactivate (suspended → active); other moves → 409 invalid_state_transition'),
  {
    ...base,
    method: 'GET',
    path: '/users/:user_id/apps',
    operation: 'ListUserApps',
    summary: 'Apps the user can reach through ACTIVE grants (an account grant reaches every app of the account), with the effective role',
    variables: (r) => ({ userId: r.params.user_id }),
    result: (d) => ({ data: d.userApps.map(userAppRes) }),
    status: 200,
    responseType: 'apps',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/users/:user_id/accounts',
    operation: 'ListUserAccounts',
    summary: 'Accounts the user can reach through ACTIVE grants on the account or on one of its apps, with the role and access_via',
    variables: (r) => ({ userId: r.params.user_id }),
    result: (d) => ({ data: d.userAccounts.map(userAccountRes) }),
    status: 200,
    responseType: 'accounts',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/users/:user_id/accesses',
    operation: 'ListUserAccesses',
    summary: 'All access records of the user in this platform, any status (?status=active|suspended|revoked to filter)',
    query: [{ name: 'status', type: 'string', description: 'active, suspended or revoked' }],
    variables: (r) => ({ userId: r.params.user_id, status: statusParam(r.query.status) }),
    result: (d) => ({ data: d.userAccesses.map(accessRes) }),
    status: 200,
    responseType: 'user_accesses',
    list: true,
  },
];
