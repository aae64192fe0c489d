// Search service (document 3 part B): documents, search, multi-search and suggestions.
import { resource } from '../jsonapi.js';
import { getParam, intAttribute, intParam } from '../query.js';
import type { ResourceObject, Route, RouteInput } from '../types.js';
import { taskRes } from './search-ops.routes.js';

const base = { service: 'search', auth: 'apiKey' } as const;
export const MAX_DOCUMENT_PAGE = 1000;

/** Document fields are data: never renamed. */
const documentRes = (d: { id: string; fields: Record<string, unknown> }): ResourceObject => ({ id: String(d.id), type: 'documents', attributes: d.fields });
/** Hits and facet maps are data (JSON in the schema: document fields, facet values): kept as the engine returns them. */
/** The numbered-page fields, answered only by a search that asked for pages (as Meilisearch's two shapes). */
const PAGE_FIELDS = ['page', 'hitsPerPage', 'totalHits', 'totalPages'];
/** a federated answer's facet fields: present only when the federation asked for them */
const FEDERATED_FACET_FIELDS = ['facetsByIndex', 'facetDistribution', 'facetStats'];
const withoutNull = (r: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(Object.entries(r).filter(([k, v]) => v !== null || !fields.includes(k)));

const resultRes = (r: Record<string, unknown>) =>
  resource('search_results', r.page === null || r.page === undefined ? Object.fromEntries(Object.entries(r).filter(([k]) => !PAGE_FIELDS.includes(k))) : r);

const documentPage = (d: Record<string, any>) => ({
  data: d.indexDocuments.results.map(documentRes),
  meta: { offset: d.indexDocuments.offset, limit: d.indexDocuments.limit, total: d.indexDocuments.total },
});

/** A comma list query parameter (`fields`, `ids`), null when absent or empty. */
function listParam(r: RouteInput, name: string): string[] | null {
  const raw = getParam(r.query, name);
  return raw ? raw.split(',').map((f) => f.trim()).filter(Boolean) : null;
}

const fieldsParam = (r: RouteInput) => listParam(r, 'fields');


export const SEARCH_DOCUMENT_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes/:index_uid/documents',
    operation: 'AddIndexDocuments',
    summary: 'Add or replace documents by primary key (search:write): 202 with the indexing task; at most 10,000 documents per request (max_documents_exceeded)',
    body: { type: 'documents', args: ['documents', 'primaryKey'], required: ['documents'] },
    variables: (r) => ({ indexUid: r.params.index_uid, documents: r.attributes.documents ?? null, primaryKey: r.attributes.primaryKey ?? null }),
    result: (d) => ({ data: taskRes(d.addIndexDocuments) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'PUT',
    path: '/search/v1/indexes/:index_uid/documents',
    operation: 'UpdateIndexDocuments',
    summary:
      "Add documents or update stored ones by primary key (search:write, Meilisearch's PUT): a document's top-level fields replace the stored document's, the others stay; 202 with the indexing task; at most 10,000 documents per request",
    body: { type: 'documents', args: ['documents', 'primaryKey'], required: ['documents'] },
    variables: (r) => ({ indexUid: r.params.index_uid, documents: r.attributes.documents ?? null, primaryKey: r.attributes.primaryKey ?? null }),
    result: (d) => ({ data: taskRes(d.updateIndexDocuments) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/documents/:document_id',
    operation: 'GetIndexDocument',
    summary: 'Get one document (search:read); query fields (comma list)',
    query: [{ name: 'fields', type: 'string', description: 'comma list of fields to return' }],
    variables: (r) => ({ indexUid: r.params.index_uid, id: r.params.document_id, fields: fieldsParam(r) }),
    result: (d) => ({ data: documentRes(d.indexDocument) }),
    status: 200,
    responseType: 'documents',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/documents',
    operation: 'ListIndexDocuments',
    summary: `List documents in insertion order (search:read); query offset, limit (at most ${MAX_DOCUMENT_PAGE}), fields, filter`,
    query: [
      { name: 'offset', type: 'integer', description: 'default 0' },
      { name: 'limit', type: 'integer', description: `default 20, at most ${MAX_DOCUMENT_PAGE}` },
      { name: 'fields', type: 'string', description: 'comma list of fields to return' },
      { name: 'filter', type: 'string', description: 'filter expression (attributes must be filterable)' },
      { name: 'ids', type: 'string', description: `comma list of document ids (at most ${MAX_DOCUMENT_PAGE}): only those, in listing order` },
    ],
    variables: (r) => ({
      indexUid: r.params.index_uid,
      offset: intParam(r.query, 'offset', { default: 0, min: 0 }),
      limit: intParam(r.query, 'limit', { default: 20, min: 1, max: MAX_DOCUMENT_PAGE }),
      fields: fieldsParam(r),
      filter: getParam(r.query, 'filter') || null,
      ids: listParam(r, 'ids'),
    }),
    result: documentPage,
    status: 200,
    responseType: 'documents',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes/:index_uid/documents/fetch',
    operation: 'ListIndexDocuments',
    scope: 'search:read',
    summary: `List documents with the query in a body (search:read, Meilisearch's documents/fetch): offset, limit (at most ${MAX_DOCUMENT_PAGE}), fields (array), filter (string or array form), ids (array)`,
    body: { type: 'document_queries', args: ['offset', 'limit', 'fields', 'filter', 'ids'] },
    variables: (r) => ({
      indexUid: r.params.index_uid,
      ...r.attributes,
      // checked here, as the GET route checks them: the gateway prices a query by its limit
      offset: intAttribute(r.attributes.offset, 'offset', { default: 0, min: 0 }),
      limit: intAttribute(r.attributes.limit, 'limit', { default: 20, min: 1, max: MAX_DOCUMENT_PAGE }),
    }),
    result: documentPage,
    status: 200,
    responseType: 'documents',
    list: true,
  },
  {
    ...base,
    method: 'DELETE',
    path: '/search/v1/indexes/:index_uid/documents',
    operation: 'DeleteIndexDocuments',
    summary: 'Delete documents by id (search:write): 202 with the document_deletion task',
    body: { type: 'document_deletions', args: ['documentIds'], required: ['document_ids'] },
    variables: (r) => ({ indexUid: r.params.index_uid, documentIds: r.attributes.documentIds ?? null }),
    result: (d) => ({ data: taskRes(d.deleteIndexDocuments) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/search/v1/indexes/:index_uid/documents/:document_id',
    operation: 'DeleteIndexDocument',
    summary: "Delete one document (search:write, Meilisearch's DELETE /documents/{id}): 202 with the document_deletion task",
    variables: (r) => ({ indexUid: r.params.index_uid, id: r.params.document_id }),
    result: (d) => ({ data: taskRes(d.deleteIndexDocument) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes/:index_uid/documents/delete-by-filter',
    operation: 'DeleteIndexDocumentsByFilter',
    summary: 'Delete the documents a filter matches (search:write): 202 with the task',
    body: { type: 'document_deletions', args: ['filter'], required: ['filter'] },
    variables: (r) => ({ indexUid: r.params.index_uid, filter: r.attributes.filter ?? null }),
    result: (d) => ({ data: taskRes(d.deleteIndexDocumentsByFilter) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes/:index_uid/search',
    operation: 'SearchIndex',
    scope: 'search:read',
    summary: "Search an index (search:read): hits with _formatted and _matchesPosition, facets; 429 rate_limit_exceeded beyond the plan's searches per second",
    body: { type: 'search_queries', input: 'input' },
    variables: (r) => ({ indexUid: r.params.index_uid, input: r.attributes }),
    result: (d) => ({ data: resultRes(d.searchIndex) }),
    status: 200,
    responseType: 'search_results',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes/:index_uid/similar',
    operation: 'SimilarDocuments',
    scope: 'search:read',
    summary:
      "The documents whose vectors are closest to one document's (search:read; Meilisearch's similar documents): id, and filter, offset, limit, attributes_to_retrieve, show_ranking_score, ranking_score_threshold; the index needs embedding_attributes",
    body: { type: 'similar_queries', input: 'input' },
    variables: (r) => ({ indexUid: r.params.index_uid, input: r.attributes }),
    result: (d) => ({ data: resultRes(d.similarDocuments) }),
    status: 200,
    responseType: 'search_results',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/multi-search',
    operation: 'MultiSearch',
    scope: 'search:read',
    summary: 'Several searches in one call (search:read); attributes.queries: array of index_uid, query, limit and any search attribute',
    body: { type: 'multi_search_queries', args: ['queries'] },
    variables: (r) => ({ queries: r.attributes.queries ?? [] }),
    result: (d) => ({ data: d.multiSearch.map(resultRes) }),
    status: 200,
    responseType: 'search_results',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/federated-search',
    operation: 'FederatedSearch',
    scope: 'search:read',
    summary:
      "Several queries answered as one ranked list (search:read; Meilisearch's multi-search with federation): attributes.queries as multi-search's (each may carry federation_options.weight), attributes.federation { limit, offset, facets_by_index, merge_facets }",
    body: { type: 'federated_search_queries', args: ['queries', 'federation'] },
    variables: (r) => ({ queries: r.attributes.queries ?? [], federation: r.attributes.federation ?? null }),
    result: (d) => ({ data: resource('federated_search_results', withoutNull(d.federatedSearch, FEDERATED_FACET_FIELDS)) }),
    status: 200,
    responseType: 'federated_search_results',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes/:index_uid/facet-search',
    operation: 'FacetSearch',
    scope: 'search:read',
    summary: "Search the values of a filterable attribute (search:read; Meilisearch's facet search): facet_name, facet_query, and query, filter, matching_strategy selecting the documents counted; most frequent first",
    body: { type: 'facet_search_queries', input: 'input' },
    variables: (r) => ({ indexUid: r.params.index_uid, input: r.attributes }),
    result: (d) => ({ data: resource('facet_search_results', { id: d.facetSearch.indexUid, ...d.facetSearch }) }),
    status: 200,
    responseType: 'facet_search_results',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes/:index_uid/suggest',
    operation: 'IndexSuggestions',
    scope: 'search:read',
    summary: 'Suggestions for a partial query (search:read): past queries and source_attributes values, with frequency and highlighting',
    body: { type: 'suggestion_queries', input: 'input', anyType: true },
    variables: (r) => ({ indexUid: r.params.index_uid, input: r.attributes }),
    result: (d) => ({ data: resource('suggestions', { id: d.indexSuggestions.indexUid, ...d.indexSuggestions }) }),
    status: 200,
    responseType: 'suggestions',
  },
];
