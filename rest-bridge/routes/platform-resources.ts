// JSON:API resources and paging shared by the platform route files. Every platform resource
// repeats its id as the `unique_id` attribute, the identifier the spec lists among the fields.
import { resource } from '../jsonapi.js';
import { intParam } from '../query.js';
import { ACCOUNT_PAGE } from '../contract-limits.js';
import type { QueryParamSpec, RouteInput } from '../types.js';

export const platformRes = (p: Record<string, unknown>) => resource('platforms', p, { uniqueId: true });
export const accountRes = (a: Record<string, unknown>) => resource('accounts', a, { uniqueId: true });
export const appRes = (a: Record<string, unknown>) => resource('apps', a, { uniqueId: true });
export const keyRes = (k: Record<string, unknown>) => resource('api_keys', k, { uniqueId: true });
export const domainRes = (d: Record<string, unknown>) => resource('domain_verifications', d);

export const base = { service: 'platform', auth: 'jwt+platform' } as const;


export const PAGE_QUERY: QueryParamSpec[] = [
  { name: 'page[number]', type: 'integer', description: 'default 1' },
  { name: 'page[size]', type: 'integer', description: `default ${ACCOUNT_PAGE.default}, at most ${ACCOUNT_PAGE.max}` },
];

export function pageVariables(r: RouteInput): { page: number; pageSize: number } {
  return {
    page: intParam(r.query, 'page[number]', { default: 1, min: 1 }),
    pageSize: intParam(r.query, 'page[size]', { default: ACCOUNT_PAGE.default, min: 1, max: ACCOUNT_PAGE.max }),
  };
}

export function pageDocument(p: { items: Record<string, unknown>[]; total: number; page: number; pageSize: number }, render = accountRes) {
  return { data: p.items.map(render), meta: { total: p.total, page: p.page, per_page: p.pageSize } };
}
