// Search service (document 3 part B): API key, JSON:API error list with lower_snake codes.
// Indexes and settings here (one setting's routes in search-settings.routes.ts); documents and search in search-documents.routes.ts; tasks,
// analytics and webhooks in search-ops.routes.ts. Writes answer 202 with the task they enqueued.
import { resource } from '../jsonapi.js';
import { intParam } from '../query.js';
import { INDEX_PAGE } from '../contract-limits.js';
import type { Route, RouteInput } from '../types.js';
import { SEARCH_DOCUMENT_ROUTES } from './search-documents.routes.js';
import { SEARCH_OPS_ROUTES, taskRes } from './search-ops.routes.js';
import { SEARCH_SETTING_ROUTES } from './search-settings.routes.js';

// Settings keys convert (searchableAttributes → searchable_attributes); synonym terms are data (JSONObject).
const indexRes = (i: Record<string, unknown>) => resource('indexes', i);

const base = { service: 'search', auth: 'apiKey' } as const;

interface IndexStats {
  indexUid: string;
  numberOfDocuments: number;
  isIndexing: boolean;
  fieldDistribution: Record<string, number>;
}
// field_distribution's keys are the documents' field names: data, kept as written
const statsAttributes = (s: IndexStats) => ({ number_of_documents: s.numberOfDocuments, is_indexing: s.isIndexing, field_distribution: s.fieldDistribution });
const uidVar = (r: { params: Record<string, string> }) => ({ uid: r.params.index_uid });
/** The index list's page (offset, limit), checked against the service's bounds. */
const indexPage = (r: RouteInput) => ({
  offset: intParam(r.query, 'offset', { default: 0, min: 0 }),
  limit: intParam(r.query, 'limit', { default: INDEX_PAGE.default, min: 1, max: INDEX_PAGE.max }),
});

const INDEX_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/search/v1/indexes',
    operation: 'CreateIndex',
    summary: 'Create an index (search:write); index_already_exists when the uid is taken; index_limit_exceeded (403) beyond the plan',
    body: { type: 'indexes', input: 'input' },
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
    summary: `List indexes by uid (search:read): query offset, limit (default ${INDEX_PAGE.default}, at most ${INDEX_PAGE.max}); meta offset, limit, total`,
    query: [
      { name: 'offset', type: 'integer', description: 'indexes skipped (default 0)' },
      { name: 'limit', type: 'integer', description: `default ${INDEX_PAGE.default}, at most ${INDEX_PAGE.max}` },
    ],
    variables: indexPage,
    result: (d, r) => ({ data: d.indexes.map(indexRes), meta: { ...indexPage(r), total: d.indexCount } }),
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
    variables: uidVar,
    result: (d) => ({ data: indexRes(d.index) }),
    status: 200,
    responseType: 'indexes',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/stats',
    operation: 'GetIndexStats',
    summary: "Meilisearch's index stats (search:read): number_of_documents, is_indexing, field_distribution (top-level field → documents holding it)",
    variables: uidVar,
    result: (d) => ({ data: { id: d.indexStats.indexUid, type: 'index_stats', attributes: statsAttributes(d.indexStats) } }),
    status: 200,
    responseType: 'index_stats',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/stats',
    operation: 'GetSearchStats',
    summary: "Meilisearch's GET /stats (search:read): last_update (when a task last finished) and each index's stats by uid",
    variables: () => ({}),
    result: (d) => ({ data: { id: 'stats', type: 'search_stats', attributes: { last_update: d.searchStats.lastUpdate, indexes: Object.fromEntries(d.searchStats.indexes.map((i: IndexStats) => [i.indexUid, statsAttributes(i)])) } } }),
    status: 200,
    responseType: 'search_stats',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/swap-indexes',
    operation: 'SwapIndexes',
    summary: "Swap the names of pairs of indexes, atomically (search:write, Meilisearch's swap-indexes): 202 with the succeeded index_swap task",
    body: { type: 'index_swaps', args: ['swaps'], required: ['swaps'] },
    variables: (r) => ({ swaps: r.attributes.swaps ?? null }),
    result: (d) => ({ data: taskRes(d.swapIndexes) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/search/v1/indexes/:index_uid',
    operation: 'UpdateIndex',
    summary:
      "Rename the index (new_uid: at once) and/or change its primary key (search:write, Meilisearch's PATCH /indexes/{uid}): 202 with the index_update task; the key's task fails with index_primary_key_already_exists when the index holds documents",
    body: { type: 'indexes', args: ['primaryKey', 'newUid'] },
    variables: (r) => ({ uid: r.params.index_uid, primaryKey: r.attributes.primaryKey ?? null, newUid: r.attributes.newUid ?? null }),
    result: (d) => ({ data: taskRes(d.updateIndex) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/search/v1/indexes/:index_uid',
    operation: 'DeleteIndex',
    summary: 'Delete the index and its documents (search:write): 202 with the index_deletion task',
    variables: uidVar,
    result: (d) => ({ data: taskRes(d.deleteIndex) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/settings',
    operation: 'GetIndexSettings',
    summary: "The index's settings, defaults filled in (search:read; Meilisearch's GET settings)",
    variables: uidVar,
    result: (d) => ({ data: resource('index_settings', { id: d.index.uid, ...d.index.settings }) }),
    status: 200,
    responseType: 'index_settings',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/search/v1/indexes/:index_uid/settings',
    operation: 'ResetIndexSettings',
    summary: "Every setting back to its default (search:write; Meilisearch's DELETE settings): 202 with the settings_update task",
    variables: uidVar,
    result: (d) => ({ data: taskRes(d.resetIndexSettings) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/search/v1/indexes/:index_uid/settings',
    operation: 'UpdateIndexSettings',
    summary: 'Change settings (search:write): 202 with the settings_update task; a key set to null returns to its default',
    body: { type: 'index_settings', fieldsOf: 'IndexSettings' },
    variables: (r) => ({ uid: r.params.index_uid, settings: r.attributes }),
    result: (d) => ({ data: taskRes(d.updateIndexSettings) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'PUT',
    path: '/search/v1/indexes/:index_uid/settings/synonyms',
    operation: 'UpdateIndexSynonyms',
    summary: 'Replace the synonyms (search:write): synonyms (two-way) and one_way_synonyms; 202 with the task',
    body: { type: 'synonyms', args: ['synonyms', 'oneWaySynonyms'] },
    variables: (r) => ({ uid: r.params.index_uid, synonyms: r.attributes.synonyms ?? null, oneWaySynonyms: r.attributes.oneWaySynonyms ?? null }),
    result: (d) => ({ data: taskRes(d.updateIndexSynonyms) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/settings/synonyms',
    operation: 'GetIndexSynonyms',
    summary: 'The synonyms of an index (search:read)',
    variables: uidVar,
    result: (d) => ({
      data: { id: d.indexSynonyms.indexUid, type: 'synonyms', attributes: { synonyms: d.indexSynonyms.synonyms, one_way_synonyms: d.indexSynonyms.oneWaySynonyms } },
    }),
    status: 200,
    responseType: 'synonyms',
  },
  {
    ...base,
    method: 'PUT',
    path: '/search/v1/indexes/:index_uid/settings/stop-words',
    operation: 'UpdateIndexStopWords',
    summary: 'Replace the stop words (search:write): 202 with the task',
    body: { type: 'stop_words', args: ['stopWords'], required: ['stop_words'] },
    variables: (r) => ({ uid: r.params.index_uid, stopWords: r.attributes.stopWords ?? null }),
    result: (d) => ({ data: taskRes(d.updateIndexStopWords) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'PUT',
    path: '/search/v1/indexes/:index_uid/settings/ranking-rules',
    operation: 'UpdateIndexRankingRules',
    summary: 'Replace the ranking rules (search:write): 202 with the task',
    body: { type: 'ranking_rules', args: ['rankingRules'], required: ['ranking_rules'] },
    variables: (r) => ({ uid: r.params.index_uid, rankingRules: r.attributes.rankingRules ?? null }),
    result: (d) => ({ data: taskRes(d.updateIndexRankingRules) }),
    status: 202,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/search/v1/indexes/:index_uid/settings/suggestions',
    operation: 'UpdateIndexSuggestionSettings',
    summary: 'Change suggestion settings (search:write): applied at once, 200 with the settings',
    body: { type: 'suggestion_settings', input: 'input' },
    variables: (r) => ({ uid: r.params.index_uid, input: r.attributes }),
    result: (d, r) => ({ data: resource('suggestion_settings', { id: r.params.index_uid, ...d.updateIndexSuggestionSettings }) }),
    status: 200,
    responseType: 'suggestion_settings',
  },
];

export const SEARCH_ROUTES: Route[] = [...INDEX_ROUTES, ...SEARCH_SETTING_ROUTES, ...SEARCH_DOCUMENT_ROUTES, ...SEARCH_OPS_ROUTES];
