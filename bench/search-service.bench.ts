// Search SERVICE bench (end to end, real processes): the search subgraph runs as its own process
// (its RSS is the search process's), the rest of the stack in this one, a scratch database.
//  1. indexing: 63,666 Debian packages in 1,000-document batches sent one after another by one client
//     (BENCH_IN_FLIGHT, default 1) through REST → gateway → search subgraph → task queue in PostgreSQL →
//     worker → engine, from the first POST until the last task has succeeded and a search counts every
//     document;
//  2. search latency over 1–3-word queries (some with a typo, the last word a prefix), one filter and
//     two facets, sequential, hop by hop: the engine in this process on the same documents and the same
//     request (the service's defaults: _formatted and _matchesPosition on), the search subgraph called
//     directly (signed tenant header, as the gateway sends it), the gateway (GraphQL), the REST bridge;
//     printed side by side with the targets;
//  3. hybrid search: an index with embedding_attributes through REST (BENCH_HYBRID_DOCS packages) and
//     the hybrid recall figure (HNSW against the exact scan, bench/search-hybrid.ts);
//  4. RSS (and peak) of the search process; restarts from the snapshot and from rows.
// BENCH_PROFILE=<dir> writes CPU profiles: the search process (--cpu-prof, its whole life) and this process
// (client + gateway + REST bridge) during the indexing and during the search phase; read them with
// `npm run bench:profile-summary -- <dir>`.
// Run: BENCH_PORT_BASE=33000 DATABASE_URL=postgres://… npx node --import @swc-node/register/esm-register bench/search-service.bench.ts
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { signTenantContext, TENANT_HEADER, type Environment } from '../lib/tenant.js';
import { engineFactory, DEFAULT_SETTINGS, type EngineSettings } from '../lib/search-engine/index.js';
import { BATCH, FILTERS, loadDebian, makeQueries } from './search-corpus.js';
import { hybridBench } from './search-hybrid.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { postJson, requestJson } from '../lib/http-client.js';
import { startStack } from '../scripts/stack.js';
import { fmt, summarize } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 24000); // below Linux's ephemeral ports (32768–60999)
const N = Number(process.env.BENCH_N ?? 300);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 1);
const HYBRID_DOCS = Number(process.env.BENCH_HYBRID_DOCS ?? 20_000); // 0: no hybrid part
// BENCH_RESTARTS=0 skips the restart measurements
const PROFILE = process.env.BENCH_PROFILE;
const TARGETS = { restOverEngineP50: 3, restP95: 15, indexingDocsPerSec: 10_000 };
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

// ---------------------------------------------------------------- database and processes
let scratch: string | undefined;
let dbUrl = process.env.DATABASE_URL;
if (dbUrl) {
  scratch = `bench_search_${process.pid}`;
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  await admin.query(`create database ${scratch}`);
  await admin.end();
  dbUrl = dbUrl.replace(/\/[^/?]*(\?.*)?$/, `/${scratch}$1`);
}
// BENCH_SEARCH_PROCESS=one: the search subgraph in this process, as `npm start` runs it (the gateway
// calls it without HTTP); the default runs it apart, to split CPU and memory per process
const ONE = process.env.BENCH_SEARCH_PROCESS === 'one';
const searchPort = ONE ? base + 4 : base + 10;
const shared = { JWT_SECRET: 'bench-secret', INTERNAL_SECRET: 'bench-internal', LOG_LEVEL: 'error', SEARCH_DEFAULT_PLAN: 'enterprise', REDIS_URL: '' };
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ...shared,
  DATABASE_URL: dbUrl ?? '',
  GATEWAY_PORT: String(base),
  PLATFORM_PORT: String(base + 1),
  AI_PORT: String(base + 2),
  CATALOG_PORT: String(base + 3),
  SEARCH_PORT: String(base + 4),
  REST_PORT: String(base + 80),
  EMBEDDED_PG_PORT: String(base + 329),
  DATA_DIR: resolve(ROOT, '.data', 'bench-search'),
  // apart: the gateway sends search traffic to the separate search process below
  ...(ONE ? {} : { SEARCH_URL: `http://127.0.0.1:${searchPort}/graphql` }),
};
// Apart, the in-process search subgraph of the stack gets no traffic and runs no worker.
process.env.SEARCH_WORKER = ONE ? '1' : '0';
Object.assign(process.env, shared);
const cfg = loadConfig(env);
const stack = await startStack(cfg, createLogger({}, 'error'));
const dbForChild = stack.dbUrl;

const spawnSearch = (): ChildProcess =>
  spawn(resolve(ROOT, 'node_modules', '.bin', 'node'), [...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE)}`] : []), '--import', '@swc-node/register/esm-register', 'subgraphs/search/main.ts'], {
    cwd: ROOT,
    // one search replica on the bench's scratch database: it migrates it, Redis only when the bench has it
    env: { ...process.env, ...shared, NODE_OPTIONS: '', SINGLE_PROCESS: '1', MIGRATE_ON_START: '1', DATABASE_URL: dbForChild, SEARCH_PORT: String(searchPort), SEARCH_WORKER: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
const children: ChildProcess[] = [];
const child = ONE ? undefined : spawnSearch();
if (child) children.push(child);
/** the process that serves searches (this one with BENCH_SEARCH_PROCESS=one) */
const searchPid = child?.pid ?? process.pid;
// Never leave a search process behind (a failed run included).
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));
process.on('uncaughtException', (e) => {
  console.error(e);
  process.exit(1);
});
process.on('unhandledRejection', (e) => {
  console.error(e);
  process.exit(1);
});
for (let i = 0; ; i++) {
  try {
    if ((await requestJson('GET', `http://127.0.0.1:${searchPort}/health/ready`, {})).status === 200) break;
  } catch {
    /* not yet */
  }
  if (i > 240) throw new Error('search process did not start');
  await new Promise((r) => setTimeout(r, 250));
}
const rssOf = (pid: number) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};
console.log(ONE ? `search subgraph in this process (BENCH_SEARCH_PROCESS=one): rss at start ${mb(rssOf(searchPid).rss)}` : `search process pid ${searchPid}: rss at start ${mb(rssOf(searchPid).rss)}`);

// ---------------------------------------------------------------- tenant
const rest = `http://127.0.0.1:${cfg.restPort}`;
const gateway = `http://127.0.0.1:${cfg.gatewayPort}/graphql`;
const now = Math.floor(Date.now() / 1000);
const token = signJwt({ sub: 'bench', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, cfg.jwtSecret);
const code = `sbench${process.pid}`;
const ph = { authorization: `Bearer ${token}`, 'x-platform': code, 'content-type': 'application/json' };
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const r = await requestJson(method, `${rest}${path}`, headers, body === undefined ? undefined : JSON.stringify(body), 120_000);
  const parsed = JSON.parse(r.text);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
  return parsed;
}
const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
await call('POST', '/platforms', ph, doc('platforms', { code, name: 'Search bench' }));
const acct = (await call('POST', '/accounts', ph, doc('accounts', { name: 'Bench', code, deployment_model: 'dedicated_cloud' }))).data;
// The enterprise plan (through a real subscription): the Free plan caps an index at 10,000 documents.
await call('POST', `/accounts/${acct.attributes.url_id}/subscriptions`, ph, doc('subscriptions', { model_code: 'enterprise', trial: false }));
// the app's shared limit (1,000 a minute by default) would stop the hybrid part after the searches
const app = (await call('POST', `/accounts/${acct.attributes.url_id}/apps`, ph, doc('apps', { name: 'Bench app', rate_limit_per_minute: 100_000 }))).data;
const key = (await call('POST', `/accounts/${acct.attributes.url_id}/apps/${app.id}/api_keys`, ph, doc('api_keys', { name: 'bench', key_type: 'secret', rate_limit_per_minute: 100_000 })))
  .data;
const kh = { 'x-app-id': app.id, 'x-api-key': key.attributes.key_id as string, 'content-type': 'application/json' };

// ---------------------------------------------------------------- data
const docs = loadDebian();
const uid = 'debian';
const indexSettings = { searchable_attributes: ['name', 'summary', 'description', 'tags'], filterable_attributes: ['section', 'priority', 'installed_size_kb'], sortable_attributes: ['installed_size_kb'] };
await call('POST', '/search/v1/indexes', kh, doc('indexes', { uid, primary_key: 'id', settings: indexSettings }));
// A first search loads the (empty) engine, so every batch lands in it as its task commits.
await call('POST', `/search/v1/indexes/${uid}/search`, kh, doc('search_queries', { query: 'warm' }));

/** A CPU profile of this process (BENCH_PROFILE), from now until stopProfile. */
async function startProfile(): Promise<Session> {
  mkdirSync(PROFILE!, { recursive: true });
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 200 });
  await s.post('Profiler.start');
  return s;
}
async function stopProfile(s: Session, file: string): Promise<void> {
  const { profile } = await s.post('Profiler.stop');
  writeFileSync(join(PROFILE!, file), JSON.stringify(profile));
  s.disconnect();
}

/** CPU time (user + system, ms) a process has used so far, from /proc (clock ticks of 10 ms). */
function childCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
/** CPU (ms) used so far by this process, the search process and the scratch database's PostgreSQL backends (when local). */
async function cpuNow(pg0: pg.Client): Promise<{ here: number; search: number; postgres: number | null }> {
  const u = process.cpuUsage();
  const pids = (await pg0.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => Number(r.pid));
  let postgres: number | null = 0;
  for (const pid of pids) {
    try {
      postgres += childCpuMs(pid);
    } catch {
      postgres = null; // not on this machine, or not readable
      break;
    }
  }
  return { here: (u.user + u.system) / 1000, search: ONE ? 0 : childCpuMs(searchPid), postgres };
}

// ---------------------------------------------------------------- 1. indexing end to end
const bodies: string[] = [];
for (let i = 0; i < docs.length; i += BATCH) bodies.push(JSON.stringify(doc('documents', { documents: docs.slice(i, i + BATCH) })));
console.log(`${docs.length} documents in ${bodies.length} batches; largest body ${mb(Math.max(...bodies.map((b) => b.length)))} (${Math.max(...bodies.map((b) => b.length))} bytes)`);
// BENCH_PROFILE: this process (client, REST bridge, gateway) is profiled while it indexes too
const indexingSession = PROFILE ? await startProfile() : undefined;
const cpuDb = new pg.Client({ connectionString: dbForChild });
await cpuDb.connect();
const cpu0 = await cpuNow(cpuDb);
const t0 = performance.now();
const taskIds: string[] = [];
const postMs: number[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (next < bodies.length) {
      const i = next++;
      const t = performance.now();
      const r = await requestJson('POST', `${rest}/search/v1/indexes/${uid}/documents`, kh, bodies[i], 120_000);
      postMs.push(performance.now() - t);
      if (r.status !== 202) throw new Error(`batch ${i}: ${r.status} ${r.text.slice(0, 300)}`);
      taskIds[i] = JSON.parse(r.text).data.id;
    }
  }),
);
const posted = performance.now() - t0;
if (indexingSession) await stopProfile(indexingSession, `bench-indexing-${process.pid}.cpuprofile`);
const last = taskIds.map(Number).sort((a, b) => b - a)[0];
for (;;) {
  const t = (await call('GET', `/search/v1/tasks/${last}`, kh)).data.attributes;
  if (t.status === 'succeeded') break;
  if (t.status !== 'enqueued' && t.status !== 'processing') throw new Error(`last task ${t.status}: ${JSON.stringify(t.error)}`);
  await new Promise((r) => setTimeout(r, 20));
}
const all = await call('POST', `/search/v1/indexes/${uid}/search`, kh, doc('search_queries', { query: '', limit: 0 }));
const took = performance.now() - t0;
const cpu1 = await cpuNow(cpuDb);
await cpuDb.end();
const failed = (await call('GET', `/search/v1/tasks?index_uid=${uid}&status=failed&limit=100`, kh)).data.length;
const indexingRate = Math.round(docs.length / (took / 1000));
console.log(
  `indexing end to end: ${docs.length} docs in ${(took / 1000).toFixed(2)} s = ${indexingRate} docs/s (target ≥ ${TARGETS.indexingDocsPerSec}) ` +
    `(all POSTs answered after ${(posted / 1000).toFixed(2)} s; ${IN_FLIGHT} requests in flight; failed tasks ${failed}; searchable total ${all.data.attributes.estimated_total_hits})`,
);
console.log(fmt('  POST /documents (1,000 docs, 202)', summarize(postMs, posted)));
const durations = (await call('GET', `/search/v1/tasks?index_uid=${uid}&type=document_addition_or_update&limit=100`, kh)).data.map((t: any) => t.attributes.duration_ms as number);
console.log(fmt('  task duration (claim → commit, worker)', summarize(durations, took)));
// CPU per batch is what load on a shared machine distorts least (the PostgreSQL backends' CPU is
// read from /proc, so only with a local server; backends that ended during the part are missed)
const perBatch = (a: number, b: number) => ((b - a) / bodies.length).toFixed(1);
console.log(
  `  CPU per batch (ms): this process (client, bridge, gateway) ${perBatch(cpu0.here, cpu1.here)}, search process ${ONE ? '(in this process)' : perBatch(cpu0.search, cpu1.search)}, ` +
    `PostgreSQL backends ${cpu0.postgres === null || cpu1.postgres === null ? 'n/a' : perBatch(cpu0.postgres, cpu1.postgres)}`,
);
let mem = rssOf(searchPid);
console.log(`search process after indexing: rss ${mb(mem.rss)}, peak ${mb(mem.peak)}`);

// The worker writes an engine snapshot once it has been idle for a few seconds; wait for it so the
// search figures below do not include that one-off pause.
const snapStart = performance.now();
const indexId = (await call('GET', `/search/v1/indexes/${uid}`, kh)).data.id;
const db = new pg.Client({ connectionString: dbForChild });
await db.connect();
let snapRow;
for (let i = 0; i < 600 && !snapRow; i++) {
  snapRow = (await db.query('select task_id, bytes from search.index_snapshots where index_id = $1 and task_id >= $2', [indexId, last])).rows[0];
  if (!snapRow) await new Promise((res) => setTimeout(res, 100));
}
console.log(snapRow ? `engine snapshot written ${((performance.now() - snapStart) / 1000).toFixed(1)} s after the last task (${mb(Number(snapRow.bytes))} gzip'd)` : 'no engine snapshot within 60 s');

// ---------------------------------------------------------------- 2. search latency, hop by hop
const queries = makeQueries(docs, N);
const GQL = `query($uid: String!, $input: SearchInput) { searchIndex(indexUid: $uid, input: $input) { estimatedTotalHits processingTimeMs hits facetDistribution } }`;
const request = (q: string, i: number, extra: Record<string, unknown> = {}) => ({ query: q, filter: FILTERS[i % FILTERS.length], facets: ['section', 'priority'], limit: 20, ...extra });

/** CPU per search: this process (client, REST bridge, gateway) and the search process, in ms. */
const cpuPerSearch: Record<string, { here: number; search: number }> = {};

/** Sequential latency of `fn` over the queries, after 20 warm-up calls; records CPU per call under `label`. */
async function measure(fn: (q: string, i: number) => Promise<unknown> | unknown, label?: string): Promise<ReturnType<typeof summarize>> {
  for (let i = 0; i < 20; i++) await fn(queries[i], i);
  const samples: number[] = [];
  const cpu0 = process.cpuUsage();
  const child0 = ONE ? 0 : childCpuMs(searchPid);
  const start = performance.now();
  for (const [i, q] of queries.entries()) {
    const t = performance.now();
    await fn(q, i);
    samples.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  if (label) cpuPerSearch[label] = { here: (cpu.user + cpu.system) / 1000 / queries.length, search: ONE ? 0 : (childCpuMs(searchPid) - child0) / queries.length };
  return summarize(samples, performance.now() - start);
}

// The engine alone: the same documents and settings in this process, the request as the service
// passes it to the engine (its defaults: attributes_to_highlight ['*'], show_matches_position true).
const local = engineFactory.create({
  ...DEFAULT_SETTINGS,
  searchableAttributes: indexSettings.searchable_attributes,
  filterableAttributes: indexSettings.filterable_attributes,
  sortableAttributes: indexSettings.sortable_attributes,
} as EngineSettings);
for (let i = 0; i < docs.length; i += BATCH) local.addDocuments(docs.slice(i, i + BATCH), 'id');
local.compact(); // as the service's engine after its snapshot
const engineStats = await measure((q, i) => local.search({ attributesToHighlight: ['*'], showMatchesPosition: true, ...request(q, i) }), 'engine (in process)');

// The search subgraph directly, with the signed tenant header the gateway would send.
const keyAttrs = key.attributes as Record<string, unknown>;
const tenant = {
  kind: 'key' as const,
  scopes: ['search:read', 'search:write'],
  appId: app.id as string,
  environment: ((keyAttrs.environment as string) ?? 'live') as Environment,
  keyType: 'secret' as const,
  plan: 'enterprise',
};
const subgraphUrl = `http://127.0.0.1:${searchPort}/graphql`;
const direct = async (input: Record<string, unknown>) => {
  const body = JSON.stringify({ query: GQL, variables: { uid, input } });
  const header = signTenantContext({ ...tenant, requestId: randomUUID() }, shared.INTERNAL_SECRET, { audience: 'search', body });
  const res = await postJson(subgraphUrl, { 'content-type': 'application/json', [TENANT_HEADER]: header }, body);
  const parsed = JSON.parse(res.text);
  if (parsed.errors) throw new Error(JSON.stringify(parsed.errors));
  return parsed;
};
const viaGateway = async (input: Record<string, unknown>) => {
  const res = await postJson(gateway, kh, JSON.stringify({ query: GQL, variables: { uid, input } }));
  const parsed = JSON.parse(res.text);
  if (parsed.errors) throw new Error(JSON.stringify(parsed.errors));
  return parsed;
};
const viaRest = async (attrs: Record<string, unknown>) => {
  const res = await requestJson('POST', `${rest}/search/v1/indexes/${uid}/search`, kh, JSON.stringify(doc('search_queries', attrs)));
  if (res.status !== 200) throw new Error(res.text);
  return JSON.parse(res.text);
};

const session = PROFILE ? await startProfile() : undefined;
const serviceEngineMs: number[] = [];
const subgraphStats = await measure(async (q, i) => serviceEngineMs.push((await direct(request(q, i))).data.searchIndex.processingTimeMs), 'search subgraph, direct');
const gatewayStats = await measure((q, i) => viaGateway(request(q, i)), 'gateway');
const restStats = await measure((q, i) => viaRest(request(q, i)), 'REST bridge');
// the same without _formatted/_matchesPosition: what the hits' formatting costs on the whole path
const plainRequest = (q: string, i: number) => request(q, i, { attributes_to_highlight: [], show_matches_position: false });
const restPlainStats = await measure((q, i) => viaRest(plainRequest(q, i)), 'REST bridge, no _formatted/_matchesPosition');
const enginePlainStats = await measure((q, i) => local.search({ ...request(q, i), attributesToHighlight: [], showMatchesPosition: false }));
if (session) await stopProfile(session, `bench-stack-${process.pid}.cpuprofile`);
const bytes = (await requestJson('POST', `${rest}/search/v1/indexes/${uid}/search`, kh, JSON.stringify(doc('search_queries', request(queries[0], 0))))).text.length;

const row = (label: string, st: ReturnType<typeof summarize>, target = '') =>
  `${label.padEnd(52)} p50 ${st.p50.toFixed(2).padStart(6)} ms (+${(st.p50 - engineStats.p50).toFixed(2).padStart(5)})  p95 ${st.p95.toFixed(2).padStart(6)} ms  p99 ${st.p99.toFixed(2).padStart(6)} ms  ${target}`;
console.log(`\nsearch latency, ${queries.length} queries, one filter + facets section, priority, limit 20 (response ${(bytes / 1024).toFixed(0)} KB via REST); (+x) = over the engine's p50`);
console.log(row('engine (in process, same documents and request)', engineStats));
console.log(row('search subgraph, direct HTTP (signed tenant header)', subgraphStats));
console.log(row('  of which its engine (processing_time_ms, whole ms)', summarize(serviceEngineMs.slice(20), 1)));
console.log(row('gateway (GraphQL)', gatewayStats));
console.log(
  row(
    'REST bridge',
    restStats,
    `target: p50 ≤ engine + ${TARGETS.restOverEngineP50} ms (${restStats.p50 - engineStats.p50 <= TARGETS.restOverEngineP50 ? 'met' : 'MISSED'}), p95 ≤ ${TARGETS.restP95} ms (${restStats.p95 <= TARGETS.restP95 ? 'met' : 'MISSED'})`,
  ),
);
console.log(row('engine, no _formatted/_matchesPosition', enginePlainStats));
console.log(row('REST bridge, no _formatted/_matchesPosition', restPlainStats));
// CPU per search is what load on a shared machine distorts least: where the work is, hop by hop
console.log(ONE ? 'CPU per search (ms): one process (client, REST bridge, gateway, subgraph and engine together)' : 'CPU per search (ms): this process = client + REST bridge + gateway; search process = subgraph + engine');
for (const [label, c] of Object.entries(cpuPerSearch)) console.log(`  ${label.padEnd(48)} this process ${c.here.toFixed(2).padStart(6)}  search process ${c.search.toFixed(2).padStart(6)}  total ${(c.here + c.search).toFixed(2).padStart(6)}`);

// ---------------------------------------------------------------- 3. hybrid search
if (HYBRID_DOCS > 0) await hybridPart();
async function hybridPart(): Promise<void> {
  const hybridUid = 'debian_hybrid';
  const hybridDocs = docs.slice(0, HYBRID_DOCS);
  await call('POST', '/search/v1/indexes', kh, doc('indexes', { uid: hybridUid, primary_key: 'id', settings: { ...indexSettings, embedding_attributes: ['name', 'summary'] } }));
  await call('POST', `/search/v1/indexes/${hybridUid}/search`, kh, doc('search_queries', { query: 'warm' }));
  const th = performance.now();
  let lastHybrid = '';
  for (let i = 0; i < hybridDocs.length; i += BATCH) {
    lastHybrid = (await call('POST', `/search/v1/indexes/${hybridUid}/documents`, kh, doc('documents', { documents: hybridDocs.slice(i, i + BATCH) }))).data.id;
  }
  for (;;) {
    const t = (await call('GET', `/search/v1/tasks/${lastHybrid}`, kh)).data.attributes;
    if (t.status === 'succeeded') break;
    if (t.status !== 'enqueued' && t.status !== 'processing') throw new Error(`hybrid task ${t.status}: ${JSON.stringify(t.error)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
  await call('POST', `/search/v1/indexes/${hybridUid}/search`, kh, doc('search_queries', { query: '', limit: 0 }));
  const hybridTook = performance.now() - th;
  console.log(`\nhybrid index (name + summary embedded): ${hybridDocs.length} docs end to end in ${(hybridTook / 1000).toFixed(2)} s = ${Math.round(hybridDocs.length / (hybridTook / 1000))} docs/s`);
  const hybridRest = async (attrs: Record<string, unknown>) => {
    const res = await requestJson('POST', `${rest}/search/v1/indexes/${hybridUid}/search`, kh, JSON.stringify(doc('search_queries', attrs)));
    if (res.status !== 200) throw new Error(res.text);
    return JSON.parse(res.text);
  };
  console.log(row('REST bridge, keyword (hybrid index)', await measure((q, i) => hybridRest(request(q, i)))));
  console.log(row('REST bridge, hybrid semantic_ratio 0.5', await measure((q, i) => hybridRest(request(q, i, { hybrid: { semantic_ratio: 0.5 } })))));
  console.log('hybrid recall and in-engine latency (same documents, in this process):');
  const { recall, recallFiltered } = hybridBench(hybridDocs, queries.slice(0, 200));
  console.log(`hybrid recall@10 (HNSW vs exact): ${recall.toFixed(3)} without filter, ${recallFiltered.toFixed(3)} with the filter priority = optional`);
}

mem = rssOf(searchPid);
console.log(`search process after searches: rss ${mb(mem.rss)}, peak ${mb(mem.peak)} (limit 1.5 GB)`);

// ---------------------------------------------------------------- 4. restarts
// Time from starting a search process to its first answer for the full index: from the snapshot,
// then (snapshot deleted) from the rows alone.
async function restart(label: string): Promise<void> {
  const was = current!;
  was.kill('SIGTERM');
  await new Promise((res) => was.once('exit', res));
  const t = performance.now();
  current = spawnSearch();
  children.push(current);
  for (;;) {
    try {
      if ((await requestJson('GET', `http://127.0.0.1:${searchPort}/health/ready`, {})).status === 200) break;
    } catch {
      /* starting */
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  for (;;) {
    try {
      const res = await requestJson('POST', `${rest}/search/v1/indexes/${uid}/search`, kh, JSON.stringify(doc('search_queries', { query: 'python', limit: 1 })));
      if (res.status === 200 && JSON.parse(res.text).data.attributes.estimated_total_hits > 0) break;
    } catch {
      /* starting */
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  console.log(`restart ${label}: first full answer ${((performance.now() - t) / 1000).toFixed(1)} s after the process started (process start-up included); rss ${mb(rssOf(current!.pid!).rss)}`);
}
let current: ChildProcess | undefined = child;
if (!ONE && process.env.BENCH_RESTARTS !== '0') {
  await restart('from the snapshot');
  await db.query('delete from search.index_snapshots where index_id = $1', [indexId]);
  await restart('from the rows alone (no snapshot)');
}
await db.end();

// ---------------------------------------------------------------- tear down
if (current) {
  const last = current;
  last.kill('SIGTERM');
  await new Promise((res) => last.once('exit', res));
}
await stack.stop();
if (scratch) {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${scratch} with (force)`);
  await admin.end();
}
process.exit(0);
