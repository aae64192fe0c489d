// Meilisearch's per-setting routes (/indexes/:index_uid/settings/<setting>): GET reads the one
// setting (its default when unset), PUT replaces it (PATCH for typo-tolerance, faceting and
// pagination, merged key by key as Meilisearch does), DELETE resets it; writes are settings_update tasks (202). They ride the same
// operations as the whole-settings routes: the body is that one attribute, null resets it.
// synonyms, stop-words and ranking-rules have had their PUT (and synonyms its GET) since the spec's
// first routes (search.routes.ts); here they get the rest.
import { DomainError } from '../../lib/errors.js';
import { resource } from '../jsonapi.js';
import { graphqlName } from '../naming.js';
import type { HttpMethod, Route, RouteInput } from '../types.js';
import { taskRes } from './search-ops.routes.js';

const base = { service: 'search', auth: 'apiKey' } as const;

interface OneSetting {
  /** the path segment */
  path: string;
  /** the settings keys it stands for (REST names); the first is its attribute */
  keys: readonly string[];
  /** the methods it gets here */
  methods: readonly HttpMethod[];
}

const SETTINGS: readonly OneSetting[] = [
  { path: 'searchable-attributes', keys: ['searchable_attributes'], methods: ['GET', 'PUT', 'DELETE'] },
  { path: 'filterable-attributes', keys: ['filterable_attributes'], methods: ['GET', 'PUT', 'DELETE'] },
  { path: 'sortable-attributes', keys: ['sortable_attributes'], methods: ['GET', 'PUT', 'DELETE'] },
  { path: 'distinct-attribute', keys: ['distinct_attribute'], methods: ['GET', 'PUT', 'DELETE'] },
  { path: 'typo-tolerance', keys: ['typo_tolerance'], methods: ['GET', 'PATCH', 'DELETE'] },
  { path: 'languages', keys: ['languages'], methods: ['GET', 'PUT', 'DELETE'] },
  { path: 'embedding-attributes', keys: ['embedding_attributes'], methods: ['GET', 'PUT', 'DELETE'] },
  { path: 'faceting', keys: ['faceting'], methods: ['GET', 'PATCH', 'DELETE'] },
  { path: 'pagination', keys: ['pagination'], methods: ['GET', 'PATCH', 'DELETE'] },
  { path: 'ranking-rules', keys: ['ranking_rules'], methods: ['GET', 'DELETE'] },
  { path: 'stop-words', keys: ['stop_words'], methods: ['GET', 'DELETE'] },
  { path: 'synonyms', keys: ['synonyms', 'one_way_synonyms'], methods: ['DELETE'] },
];

/** FilterableAttributes: the setting's name in operation ids */
const pascal = (path: string) => path.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());

/** The body's one attribute, required: an absent one is a mistake, not a reset (null resets). */
function onlySetting(key: string) {
  const name = graphqlName(key);
  return (r: RouteInput) => {
    if (r.attributes[name] === undefined) throw new DomainError('VALIDATION_FAILED', `${key} is required (null resets it to its default)`, { parameter: key });
    return { uid: r.params.index_uid, settings: { [name]: r.attributes[name] } };
  };
}

function settingRoutes(s: OneSetting): Route[] {
  const path = `/search/v1/indexes/:index_uid/settings/${s.path}`;
  const key = s.keys[0]!;
  const name = pascal(s.path);
  // what every route of the setting shares; writes answer their settings_update task
  const route = (method: HttpMethod, r: Omit<Route, 'service' | 'auth' | 'method' | 'path' | 'status' | 'responseType'>): Route =>
    method === 'GET' ? { ...base, method, path, ...r, status: 200, responseType: key } : { ...base, method, path, ...r, status: 202, responseType: 'indexing_tasks' };
  const written = (d: Record<string, any>) => ({ data: taskRes(d.updateIndexSettings) });
  return s.methods.map((method): Route => {
    if (method === 'GET') {
      return route(method, {
        operation: 'GetIndexSettings',
        operationId: `GetIndex${name}`,
        summary: `The index's ${key} (search:read; its default when never set)`,
        variables: (r) => ({ uid: r.params.index_uid }),
        result: (d) => ({ data: resource(key, { id: d.index.uid, [graphqlName(key)]: d.index.settings[graphqlName(key)] }) }),
      });
    }
    if (method === 'DELETE') {
      return route(method, {
        operation: 'UpdateIndexSettings',
        operationId: `ResetIndex${name}`,
        summary: `${s.keys.join(' and ')} back to the default (search:write): 202 with the settings_update task`,
        variables: (r) => ({ uid: r.params.index_uid, settings: Object.fromEntries(s.keys.map((k) => [graphqlName(k), null])) }),
        result: written,
      });
    }
    return route(method, {
      operation: 'UpdateIndexSettings',
      operationId: `UpdateIndex${name}`,
      summary: `${method === 'PATCH' ? 'Change' : 'Replace'} the index's ${key} (search:write; null resets it): 202 with the settings_update task`,
      body: { type: key, fieldsOf: 'IndexSettings', pick: [key], required: [key] },
      variables: onlySetting(key),
      result: written,
    });
  });
}

export const SEARCH_SETTING_ROUTES: Route[] = SETTINGS.flatMap(settingRoutes);
