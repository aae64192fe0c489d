// JSON:API resources and body specs shared by the platform route files. Every platform resource
// repeats its id as the `unique_id` attribute, the identifier the spec lists among the fields.
import { resource } from '../jsonapi.js';
import { intParam } from '../query.js';
import type { AttrSpec, QueryParamSpec, RouteInput } from '../types.js';

// Free-form objects keep the client's keys.
const PLATFORM_OPAQUE = ['settings', 'metadata'];

export const platformRes = (p: Record<string, unknown>) => resource('platforms', p, { uniqueId: true, opaque: PLATFORM_OPAQUE });
export const accountRes = (a: Record<string, unknown>) => resource('accounts', a, { uniqueId: true });
export const appRes = (a: Record<string, unknown>) => resource('apps', a, { uniqueId: true });
export const keyRes = (k: Record<string, unknown>) => resource('api_keys', k, { uniqueId: true });
export const domainRes = (d: Record<string, unknown>) => resource('domain_verifications', d);

export const base = { service: 'platform', auth: 'jwt+platform' } as const;

export const PLATFORM_ATTRIBUTES: Record<string, AttrSpec> = {
  code: 'string',
  name: 'string',
  url_id: 'string',
  description: 'string',
  email: 'string',
  website: 'string',
  status: 'string',
  enabled: 'boolean',
  settings: 'json',
  metadata: 'json',
};

/** capabilities is deliberately absent: it is derived from deployment_model, so a client value is ignored. */
export const ACCOUNT_ATTRIBUTES: Record<string, AttrSpec> = {
  name: 'string',
  code: 'string',
  deployment_model: 'string',
  preferred_domain: 'string',
  preferred_language: 'string',
  status: 'string',
  url_id: 'string',
};

export const APP_ATTRIBUTES: Record<string, AttrSpec> = {
  name: 'string',
  description: 'string',
  app_type: 'string',
  purpose: 'string',
  status: 'string',
  rate_limit_per_minute: 'integer',
  webhook_url: 'string',
  allowed_origins: 'string[]',
  preferred_domain: 'string',
  oauth_enabled: 'boolean',
};

export const ACCOUNT_PAGE = { defaultSize: 50, maxSize: 200 } as const;

export const PAGE_QUERY: QueryParamSpec[] = [
  { name: 'page[number]', type: 'integer', description: 'default 1' },
  { name: 'page[size]', type: 'integer', description: `default ${ACCOUNT_PAGE.defaultSize}, at most ${ACCOUNT_PAGE.maxSize}` },
];

export function pageVariables(r: RouteInput): { page: number; pageSize: number } {
  return {
    page: intParam(r.query, 'page[number]', { default: 1, min: 1 }),
    pageSize: intParam(r.query, 'page[size]', { default: ACCOUNT_PAGE.defaultSize, min: 1, max: ACCOUNT_PAGE.maxSize }),
  };
}

export function pageDocument(p: { items: Record<string, unknown>[]; total: number; page: number; pageSize: number }, render = accountRes) {
  return { data: p.items.map(render), meta: { total: p.total, page: p.page, per_page: p.pageSize } };
}
