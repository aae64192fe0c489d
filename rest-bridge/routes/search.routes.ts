// Search service (document 3 part B): API key, JSON:API error list with lower_snake codes.
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';

// Settings keys convert (searchableAttributes → searchable_attributes); synonym terms are data.
const INDEX_OPAQUE = ['settings.synonyms'];
const indexRes = (i: Record<string, unknown>) => resource('indexes', i, { opaque: INDEX_OPAQUE });

const base = { service: 'search', auth: 'apiKey' } as const;

export const SEARCH_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes',
    operation: 'CreateIndex',
    summary: 'Create an index (search:write); index_already_exists when the uid is taken',
    body: {
      type: 'indexes',
      // settings go through as the client wrote them (snake_case); the search subgraph reads them
      attributes: { uid: 'string', primary_key: 'string', settings: 'json' },
      required: ['uid'],
    },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: indexRes(d.createIndex) }),
    status: 201,
    responseType: 'indexes',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes',
    operation: 'ListIndexes',
    summary: 'List indexes (search:read)',
    variables: () => ({}),
    result: (d) => ({ data: d.indexes.map(indexRes) }),
    status: 200,
    responseType: 'indexes',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid',
    operation: 'GetIndex',
    summary: 'Get an index with its settings (search:read)',
    variables: (r) => ({ uid: r.params.index_uid }),
    result: (d) => ({ data: indexRes(d.index) }),
    status: 200,
    responseType: 'indexes',
  },
];
