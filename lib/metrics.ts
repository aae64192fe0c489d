// Prometheus metrics (prom-client), one registry per process, served at GET /metrics by every HTTP
// server of the process (gateway, REST bridge, each subgraph). With `npm start` every component
// runs in one process: each port answers the same registry, and the `component` label tells the
// components apart; split into processes, each answers its own. docs/operations.md#metrics lists them.
//
// Per request the cost is one `finish` listener and two label lookups (a counter and a histogram);
// values that exist elsewhere (pool sizes, queue depths, socket counts) are read when scraped.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Seconds; requests are mostly sub-10 ms (docs/performance.md), uploads and AI calls take seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by component, route (REST route pattern or GraphQL operation name), method and status',
  labelNames: ['component', 'route', 'method', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to the last byte of the response',
  labelNames: ['component', 'route', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const subgraphFetch = new Histogram({
  name: 'gateway_subgraph_fetch_duration_seconds',
  help: 'Gateway → subgraph fetches (one per query plan fetch node), by subgraph and outcome (HTTP status, or error)',
  labelNames: ['subgraph', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const jobWait = new Histogram({
  name: 'jobs_wait_seconds',
  help: 'Time a job waited from when it was due to when a worker claimed it (search tasks: queue = search)',
  labelNames: ['queue', 'kind'] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
  registers: [registry],
});

const jobRun = new Histogram({
  name: 'jobs_run_duration_seconds',
  help: 'Time a job handler ran, by queue, kind and outcome (succeeded, retry, dead)',
  labelNames: ['queue', 'kind', 'outcome'] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
  registers: [registry],
});

// ---------------------------------------------------------------------------------------------
// Values read at scrape time from sources that register themselves (and unregister when stopped)

type Labels = Record<string, string>;
type Sample = { labels: Labels; value: number };
type Source = () => Sample[] | Promise<Sample[]>;

function sourcedGauge(name: string, help: string, labelNames: readonly string[]): Map<string, Source> {
  const sources = new Map<string, Source>();
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      const all = await Promise.all([...sources.values()].map((s) => Promise.resolve().then(s).catch(() => [] as Sample[])));
      for (const { labels, value } of all.flat()) this.inc(labels, value);
    },
  });
  return sources;
}

const poolSources = sourcedGauge('db_pool_connections', 'PostgreSQL pool connections by pool and state (total, idle, waiting = callers queued for a connection, max)', ['pool', 'state']);
const queueSources = sourcedGauge('jobs_queue_depth', 'Jobs queued (all, delayed ones too) and running, by queue (the subgraph schema) and kind: the whole queue as the database holds it, the same on every replica running workers: aggregate with max, never sum', ['queue', 'kind', 'status']);
const lagSources = sourcedGauge('jobs_queue_lag_seconds', 'Age of the oldest job that is due and not yet claimed, by queue and kind (search tasks: queue = search); the same on every replica running workers: aggregate with max', ['queue', 'kind']);
const engineSources = sourcedGauge(
  'search_engines',
  'Search engines of this process, by measure: loaded (engines in memory), bytes (their estimated memory), budget_bytes (SEARCH_MEMORY_BUDGET_MB), and since start loads, loads_from_snapshot, unloads (memory budget), drops (index deleted)',
  ['measure'],
);
const wsSources = sourcedGauge('websocket_connections', 'Open WebSocket connections (GraphQL subscriptions), by component', ['component']);

let nextId = 0;
function register(sources: Map<string, Source>, source: Source, key = `s${nextId++}`): () => void {
  sources.set(key, source);
  return () => {
    if (sources.get(key) === source) sources.delete(key);
  };
}

/** The search engines' figures (subgraphs/search/engine-registry/engine-registry.ts), read per scrape. */
export function trackSearchEngines(read: () => Record<string, number>): () => void {
  return register(engineSources, () => Object.entries(read()).map(([measure, value]) => ({ labels: { measure }, value })));
}

/** The pg Pool fields read (pg.Pool has them). */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/** Report a pool's use under `name` until the returned function is called. */
export function trackPool(name: string, pool: PoolStats): () => void {
  return register(
    poolSources,
    () => [
      { labels: { pool: name, state: 'total' }, value: pool.totalCount },
      { labels: { pool: name, state: 'idle' }, value: pool.idleCount },
      { labels: { pool: name, state: 'waiting' }, value: pool.waitingCount },
      ...(pool.options?.max ? [{ labels: { pool: name, state: 'max' }, value: pool.options.max }] : []),
    ],
    `pool:${name}`,
  );
}

export interface QueueSnapshot {
  kind: string;
  queued: number;
  running: number;
  /** seconds since the oldest due, unclaimed job became due (0 when none) */
  lagSeconds: number;
}

/** Report a job queue (one subgraph's jobs table) until the returned function is called; `read` runs per scrape. */
export function trackJobQueue(queue: string, read: () => Promise<QueueSnapshot[]>): () => void {
  let last: Promise<QueueSnapshot[]> | undefined;
  // both gauges of one scrape share one read
  const once = () => (last ??= read().finally(() => setImmediate(() => (last = undefined))));
  const stopDepth = register(
    queueSources,
    async () =>
      (await once()).flatMap((q) => [
        { labels: { queue, kind: q.kind, status: 'queued' }, value: q.queued },
        { labels: { queue, kind: q.kind, status: 'running' }, value: q.running },
      ]),
    `queue:${queue}`,
  );
  const stopLag = register(lagSources, async () => (await once()).map((q) => ({ labels: { queue, kind: q.kind }, value: q.lagSeconds })), `queue:${queue}`);
  return () => {
    stopDepth();
    stopLag();
  };
}

/** A job was claimed `waitedMs` after it was due. */
export function observeJobClaimed(queue: string, kind: string, waitedMs: number): void {
  jobWait.observe({ queue, kind }, Math.max(0, waitedMs) / 1000);
}

export function observeJobRun(queue: string, kind: string, outcome: 'succeeded' | 'retry' | 'dead', ms: number): void {
  jobRun.observe({ queue, kind, outcome }, ms / 1000);
}

/** Report a component's open WebSocket connections until the returned function is called. */
export function trackWebSockets(component: string, count: () => number): () => void {
  return register(wsSources, () => [{ labels: { component }, value: count() }]);
}

const responseCache = new Counter({
  name: 'gateway_response_cache_total',
  help: 'Gateway response cache (docs/response-cache.md) by result: hit (answered from the cache), miss (computed; stored when cacheable), stale (found but expired or its tenant written since), bypass (a no-cache or no-store request)',
  labelNames: ['result'] as const,
  registers: [registry],
});
const responseCacheSources = sourcedGauge('gateway_response_cache', 'Gateway response cache size by measure: entries, bytes (estimated), max_bytes (RESPONSE_CACHE_MAX_BYTES)', ['measure']);

export function observeResponseCache(result: 'hit' | 'miss' | 'stale' | 'bypass'): void {
  responseCache.inc({ result });
}

/** The response cache's size, read per scrape, until the returned function is called. */
export function trackResponseCache(read: () => Record<string, number>): () => void {
  return register(responseCacheSources, () => Object.entries(read()).map(([measure, value]) => ({ labels: { measure }, value })));
}

export function observeSubgraphFetch(subgraph: string, outcome: string, ms: number): void {
  subgraphFetch.observe({ subgraph, outcome }, ms / 1000);
}

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * Route labels must stay few: a GraphQL operation name is chosen by the client, so past
 * MAX_ROUTES distinct values of a component new ones count as "other" (and a name is cut to 80 characters).
 */
const MAX_ROUTES = 300;
/** per component: in the one-process stack, clients' GraphQL operation names must not use up the REST bridge's route labels */
const routes = new Map<string, Set<string>>();

function boundedRoute(component: string, route: string): string {
  const r = route.length > 80 ? route.slice(0, 80) : route;
  let seen = routes.get(component);
  if (!seen) routes.set(component, (seen = new Set()));
  if (seen.has(r)) return r;
  if (seen.size >= MAX_ROUTES) return 'other';
  seen.add(r);
  return r;
}

const ROUTE = Symbol('metrics.route');
type Labelled = IncomingMessage & { [ROUTE]?: string };

/** Name the request's route (a REST pattern, a GraphQL operation) for its metrics; the path's first segment otherwise. */
export function labelRoute(req: IncomingMessage, route: string): void {
  (req as Labelled)[ROUTE] = route;
}

/** The route the request was labelled with, if any. */
export function routeOf(req: IncomingMessage): string | undefined {
  return (req as Labelled)[ROUTE];
}

/** Count and time the request when its response finishes. */
export function observeRequest(component: string, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  res.once('finish', () => {
    const labels = { component, route: boundedRoute(component, (req as Labelled)[ROUTE] ?? 'unmatched'), method: req.method ?? 'GET', status: String(res.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, (performance.now() - started) / 1000);
  });
}

/** Count and time a request served in process (lib/local-transport.ts) as its HTTP twin would be. */
export function observeLocalRequest(component: string, route: string, status: number, ms: number): void {
  const labels = { component, route: boundedRoute(component, route), method: 'POST', status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, ms / 1000);
}

export const METRICS_PATH = '/metrics';

/** GET /metrics: the registry in the Prometheus text format; with `token`, only for `Authorization: Bearer <token>`. */
export async function sendMetrics(req: IncomingMessage, res: ServerResponse, token?: string): Promise<void> {
  labelRoute(req, METRICS_PATH);
  if (token && !bearerMatches(req.headers.authorization, token)) {
    res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' });
    res.end('METRICS_TOKEN required\n');
    return;
  }
  const text = await registry.metrics();
  res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  res.end(text);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
