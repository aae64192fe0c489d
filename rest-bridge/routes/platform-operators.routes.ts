// The operators of a platform: who (a JWT `sub`) may operate it, with which platform scopes
// (docs/security.md, "Platform operators"). Under the platform's own path, like its accounts:
// :pid is the platform's unique_id, url_id or code, :user_id the operator's JWT sub. A caller who
// does not operate the platform gets 404, as for any of its paths.
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';
import { base } from './platform-resources.js';

const operatorRes = (o: Record<string, unknown>) => resource('platform_operators', o, { uniqueId: true });

export const PLATFORM_OPERATOR_ROUTES: Route[] = [
  {
    ...base,
    scope: 'platform:read',
    method: 'GET',
    path: '/platforms/:pid/operators',
    operation: 'ListPlatformOperators',
    summary: 'List who may operate the platform and with which scopes, oldest first (platform:read)',
    variables: (r) => ({ platformId: r.params.pid }),
    result: (d) => ({ data: (d.platformOperators as Record<string, unknown>[]).map(operatorRes) }),
    status: 200,
    responseType: 'platform_operators',
    list: true,
  },
  {
    ...base,
    scope: 'platform:admin',
    method: 'POST',
    path: '/platforms/:pid/operators',
    operation: 'AddPlatformOperator',
    summary: 'Let a user (user_id: the JWT sub) operate the platform with the given scopes (default platform:read); 409 when already an operator (platform:admin)',
    body: { type: 'platform_operators', input: 'input' },
    variables: (r) => ({ platformId: r.params.pid, input: r.attributes }),
    result: (d) => ({ data: operatorRes(d.addPlatformOperator) }),
    status: 201,
    responseType: 'platform_operators',
  },
  {
    ...base,
    scope: 'platform:admin',
    method: 'DELETE',
    path: '/platforms/:pid/operators/:user_id',
    operation: 'RemovePlatformOperator',
    summary: "Remove an operator; 409 for the platform's last operator with platform:admin (platform:admin)",
    variables: (r) => ({ platformId: r.params.pid, userId: r.params.user_id }),
    result: (d) => ({ data: operatorRes(d.removePlatformOperator) }),
    status: 200,
    responseType: 'platform_operators',
  },
];
