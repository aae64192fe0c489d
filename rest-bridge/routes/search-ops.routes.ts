// Search service (document 3 part B): tasks, analytics and webhooks.
import { DomainError } from '../../lib/errors.js';
import { freeFormNames } from '../api-schema.js';
import { resource } from '../jsonapi.js';
import { camelCase, restParameter } from '../naming.js';
import { boolParam, getParam, intParam } from '../query.js';
import type { QueryParamSpec, ResourceObject, Route, RouteInput } from '../types.js';
import { webhookDeliveriesRoute } from './webhook-deliveries.js';

const base = { service: 'search', auth: 'apiKey' } as const;
export const MAX_TASK_PAGE = 1000;

/**
 * A task as JSON:API, of the one type the spec gives tasks (`indexing_tasks`, the answer to adding
 * documents) wherever it is answered: created, read, listed or canceled. The spec's fields of an
 * indexing task (`documents_received`, `documents_indexed`) sit at the top level, beside the full
 * `details` (null where the task counts no documents). The settings and filter it was given (JSON
 * in the schema) are kept as written. A failed task's error names its parameter in GraphQL terms,
 * spelled here for REST as the bridge's error bodies are (naming.ts restParameter).
 */
export function taskRes(t: Record<string, unknown>): ResourceObject {
  const task = resource('indexing_tasks', t);
  const details = (task.attributes.details ?? {}) as Record<string, unknown>;
  const error = task.attributes.error as { parameter?: unknown } | null | undefined;
  task.attributes = {
    ...task.attributes,
    documents_received: details.documents_received ?? null,
    documents_indexed: details.documents_indexed ?? null,
    ...(error && typeof error.parameter === 'string' ? { error: { ...error, parameter: restParameter(error.parameter, [], freeFormNames()) } } : {}),
  };
  return task;
}

const PERIOD_QUERY = [
  { name: 'period', type: 'string' as const, description: '24h, 7d (default), 30d or 90d' },
  { name: 'limit', type: 'integer' as const, description: 'default 10, at most 1000' },
];

function analyticsVars(r: RouteInput) {
  return { indexUid: r.params.index_uid, period: getParam(r.query, 'period') || null, limit: intParam(r.query, 'limit', { default: 10, min: 1, max: 1000 }) };
}

/** `status` or Meilisearch's `statuses` (and so on): comma lists. */
function listParam(r: RouteInput, ...names: string[]): string | null {
  for (const n of names) {
    const v = getParam(r.query, n);
    if (v) return v;
  }
  return null;
}

/** Meilisearch's strict time bounds of a task selection, by REST name (the GraphQL argument is its camelCase). */
const TIME_BOUNDS = ['before_enqueued_at', 'after_enqueued_at', 'before_started_at', 'after_started_at', 'before_finished_at', 'after_finished_at'] as const;

/** The task selection the list, bulk cancel and bulk delete take: index_uid, type, uids and the time bounds. */
const SELECTION_QUERY: QueryParamSpec[] = [
  { name: 'index_uid', type: 'string', description: 'comma list of index uids' },
  { name: 'type', type: 'string', description: 'comma list of task types' },
  { name: 'uids', type: 'string', description: 'comma list of task ids' },
  ...TIME_BOUNDS.map((name) => {
    const [side, what] = name.split('_');
    return { name, type: 'string' as const, description: `ISO 8601 date or date-time: tasks ${what} ${side} it (strictly)` };
  }),
];
const selection = (r: RouteInput) => ({
  indexUid: listParam(r, 'index_uid', 'index_uids'),
  type: listParam(r, 'type', 'types'),
  uids: getParam(r.query, 'uids') || null,
  ...Object.fromEntries(TIME_BOUNDS.map((name) => [camelCase(name), getParam(r.query, name) || null])),
});

function taskIdParam(r: RouteInput): string {
  const id = r.params.task_id;
  // Numbers only; anything else cannot name a task (404 from the service keeps the error shape uniform).
  return /^\d{1,18}$/.test(id) ? id : '0';
}

export const SEARCH_OPS_ROUTES: Route[] = [
  {
    ...base,
    method: 'GET',
    path: '/search/v1/tasks/:task_id',
    operation: 'GetSearchTask',
    summary: 'A task (search:read): status, task_type, index_uid, details, error, timestamps, duration_ms',
    variables: (r) => ({ id: taskIdParam(r) }),
    result: (d) => ({ data: taskRes(d.searchTask) }),
    status: 200,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/tasks',
    operation: 'ListSearchTasks',
    summary: 'Tasks, newest first (search:read); query status, index_uid, type, uids (comma lists), before_/after_ enqueued_at, started_at, finished_at, limit, from, reverse',
    query: [
      { name: 'status', type: 'string', description: 'comma list: enqueued, processing, succeeded, failed, canceled' },
      ...SELECTION_QUERY,
      { name: 'limit', type: 'integer', description: `default 20, at most ${MAX_TASK_PAGE}` },
      { name: 'from', type: 'integer', description: 'first task id of the page (meta.next of the previous page)' },
      { name: 'reverse', type: 'boolean', description: 'true: oldest first (default false: newest first)' },
    ],
    variables: (r) => {
      const from = getParam(r.query, 'from');
      if (from && !/^\d{1,18}$/.test(from)) throw new DomainError('BAD_REQUEST', 'from must be a task id', { parameter: 'from' });
      return {
        ...selection(r),
        status: listParam(r, 'status', 'statuses'),
        limit: intParam(r.query, 'limit', { default: 20, min: 1, max: MAX_TASK_PAGE }),
        from: from || null,
        reverse: boolParam(r.query, 'reverse'),
      };
    },
    result: (d) => ({ data: d.searchTasks.results.map((t: Record<string, unknown>) => taskRes(t)), meta: { limit: d.searchTasks.limit, next: d.searchTasks.next } }),
    status: 200,
    responseType: 'indexing_tasks',
    list: true,
  },
  {
    ...base,
    method: 'DELETE',
    path: '/search/v1/tasks',
    operation: 'DeleteSearchTasks',
    summary: `Delete finished tasks from the history (search:write; Meilisearch's DELETE /tasks): query index_uid, type, uids, status (comma lists), before_/after_ enqueued_at, started_at, finished_at (at least one); enqueued and processing tasks stay; at most 10,000 a call, meta.remaining says how many are left`,
    query: [...SELECTION_QUERY, { name: 'status', type: 'string', description: 'comma list of succeeded, failed, canceled (default: all three)' }],
    variables: (r) => ({ ...selection(r), status: listParam(r, 'status', 'statuses') }),
    result: (d) => ({ data: [], meta: { deleted: d.deleteSearchTasks.deleted, remaining: d.deleteSearchTasks.remaining } }),
    status: 200,
    responseType: 'indexing_tasks',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/tasks/cancel',
    operation: 'CancelSearchTasks',
    summary: `Cancel the enqueued tasks a selection names (search:write; Meilisearch's POST /tasks/cancel): query index_uid, type, uids (comma lists), before_/after_ enqueued_at, started_at, finished_at (at least one); at most 1,000 a call, meta.remaining says how many are left`,
    query: SELECTION_QUERY,
    variables: selection,
    result: (d) => ({
      data: d.cancelSearchTasks.canceled.map((t: Record<string, unknown>) => taskRes(t)),
      meta: { canceled: d.cancelSearchTasks.canceled.length, remaining: d.cancelSearchTasks.remaining },
    }),
    status: 200,
    responseType: 'indexing_tasks',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/tasks/:task_id/cancel',
    operation: 'CancelSearchTask',
    summary: 'Cancel a task still enqueued (search:write); 200 with the task, meta.canceled false when it had already left the queue',
    variables: (r) => ({ id: taskIdParam(r) }),
    result: (d) => ({ data: taskRes(d.cancelSearchTask.task), meta: { canceled: d.cancelSearchTask.canceled } }),
    status: 200,
    responseType: 'indexing_tasks',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/analytics/popular-searches',
    operation: 'PopularSearches',
    summary: 'Most frequent queries over a period (search:read, secret key)',
    query: PERIOD_QUERY,
    variables: analyticsVars,
    result: (d) => ({ data: resource('popular_searches', { id: d.popularSearches.indexUid, ...d.popularSearches }) }),
    status: 200,
    responseType: 'popular_searches',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/analytics/no-result-searches',
    operation: 'NoResultSearches',
    summary: 'Queries that found nothing, over a period (search:read, secret key)',
    query: PERIOD_QUERY,
    variables: analyticsVars,
    result: (d) => ({ data: resource('no_result_searches', { id: d.noResultSearches.indexUid, ...d.noResultSearches }) }),
    status: 200,
    responseType: 'no_result_searches',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/indexes/:index_uid/analytics/clicks',
    operation: 'SearchClickAnalytics',
    summary: 'Clicks, impressions, CTR and average position per document over a period (search:read, secret key)',
    query: PERIOD_QUERY,
    variables: analyticsVars,
    result: (d) => ({ data: resource('click_analytics', { id: d.searchClickAnalytics.indexUid, ...d.searchClickAnalytics }) }),
    status: 200,
    responseType: 'click_analytics',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/analytics/events',
    operation: 'RecordSearchEvent',
    summary: 'Record a search analytics event: click (document_id, position; search:read, publishable keys too), search (query), conversion, view (search:write)',
    scope: 'search:read',
    body: { type: 'search_events', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('search_events', d.recordSearchEvent) }),
    status: 201,
    responseType: 'search_events',
  },
  {
    ...base,
    method: 'POST',
    path: '/search/v1/webhooks',
    operation: 'RegisterSearchWebhook',
    summary: 'Register a webhook (search:write): url, events, secret; deliveries signed with X-Signature (HMAC-SHA256)',
    body: { type: 'webhooks', input: 'input' },
    variables: (r) => ({ input: r.attributes }),
    result: (d) => ({ data: resource('webhooks', d.registerSearchWebhook) }),
    status: 201,
    responseType: 'webhooks',
  },
  {
    ...base,
    method: 'GET',
    path: '/search/v1/webhooks',
    operation: 'ListSearchWebhooks',
    summary: 'Active webhooks (search:read); secrets are never returned',
    variables: () => ({}),
    result: (d) => ({ data: d.searchWebhooks.map((w: Record<string, unknown>) => resource('webhooks', w)) }),
    status: 200,
    responseType: 'webhooks',
    list: true,
  },
  {
    ...base,
    method: 'DELETE',
    path: '/search/v1/webhooks/:webhook_id',
    operation: 'DeleteSearchWebhook',
    summary: 'Stop a webhook (search:write); queued deliveries are still sent',
    variables: (r) => ({ id: r.params.webhook_id }),
    result: (d) => ({ data: resource('webhooks', d.deleteSearchWebhook) }),
    status: 200,
    responseType: 'webhooks',
  },
  webhookDeliveriesRoute({
    base,
    path: '/search/v1/webhooks/:webhook_id/deliveries',
    param: 'webhook_id',
    operation: 'SearchWebhookDeliveries',
    field: 'searchWebhook',
    summary: 'Latest deliveries of a webhook with every attempt (search:read)',
  }),
];
