// Search SERVICE bench (end to end, real processes): the search subgraph runs as its own process
// (its RSS is the search process's), the rest of the stack in this one, a scratch database.
//  1. indexing: 63,666 Debian packages in 1,000-document batches through REST → gateway → search
//     subgraph → task queue in PostgreSQL → worker → engine, from the first POST until the last task
//     has succeeded and a search counts every document;
//  2. search latency over 1–3-word queries (some with a typo, the last word a prefix), one filter and
//     two facets: through the gateway (GraphQL) and through the REST bridge, sequential;
//  3. RSS (and peak) of the search process.
// Run: BENCH_PORT_BASE=33000 DATABASE_URL=postgres://… npx node --import @swc-node/register/esm-register bench/search-service.bench.ts
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { postJson, requestJson } from '../lib/http-client.js';
import { startStack } from '../scripts/stack.js';
import { fmt, summarize } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..');
const DATA = resolve(ROOT, '..', 'shared', 'datasets');
const base = Number(process.env.BENCH_PORT_BASE ?? 33000);
const N = Number(process.env.BENCH_N ?? 300);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const BATCH = 1000;
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
const searchPort = base + 10;
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
  // the gateway sends search traffic to the separate search process below
  SEARCH_URL: `http://127.0.0.1:${searchPort}/graphql`,
};
// The in-process search subgraph of the stack gets no traffic and runs no worker.
process.env.SEARCH_WORKER = '0';
Object.assign(process.env, shared);
const cfg = loadConfig(env);
const stack = await startStack(cfg, createLogger({}, 'error'));
const dbForChild = stack.dbUrl;

const spawnSearch = (): ChildProcess =>
  spawn(resolve(ROOT, 'node_modules', '.bin', 'node'), ['--import', '@swc-node/register/esm-register', 'subgraphs/search/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...shared, NODE_OPTIONS: '', DATABASE_URL: dbForChild, SEARCH_PORT: String(searchPort), SEARCH_WORKER: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
const children: ChildProcess[] = [];
const child = spawnSearch();
children.push(child);
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
console.log(`search process pid ${child.pid}: rss at start ${mb(rssOf(child.pid!).rss)}`);

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
const app = (await call('POST', `/accounts/${acct.attributes.url_id}/apps`, ph, doc('apps', { name: 'Bench app' }))).data;
const key = (await call('POST', `/accounts/${acct.attributes.url_id}/apps/${app.id}/api_keys`, ph, doc('api_keys', { name: 'bench', key_type: 'secret', rate_limit_per_minute: 100_000 })))
  .data;
const kh = { 'x-app-id': app.id, 'x-api-key': key.attributes.key_id as string, 'content-type': 'application/json' };

// ---------------------------------------------------------------- data
const docs = gunzipSync(readFileSync(resolve(DATA, 'debian-packages.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record<string, any>);
const uid = 'debian';
await call('POST', '/search/v1/indexes', kh, doc('indexes', {
  uid,
  primary_key: 'id',
  settings: { searchable_attributes: ['name', 'summary', 'description', 'tags'], filterable_attributes: ['section', 'priority', 'installed_size_kb'], sortable_attributes: ['installed_size_kb'] },
}));
// A first search loads the (empty) engine, so every batch lands in it as its task commits.
await call('POST', `/search/v1/indexes/${uid}/search`, kh, doc('search_queries', { query: 'warm' }));

// ---------------------------------------------------------------- 1. indexing end to end
const bodies: string[] = [];
for (let i = 0; i < docs.length; i += BATCH) bodies.push(JSON.stringify(doc('documents', { documents: docs.slice(i, i + BATCH) })));
console.log(`${docs.length} documents in ${bodies.length} batches; largest body ${mb(Math.max(...bodies.map((b) => b.length)))} (${Math.max(...bodies.map((b) => b.length))} bytes)`);
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
const last = taskIds.map(Number).sort((a, b) => b - a)[0];
for (;;) {
  const t = (await call('GET', `/search/v1/tasks/${last}`, kh)).data.attributes;
  if (t.status === 'succeeded') break;
  if (t.status !== 'enqueued' && t.status !== 'processing') throw new Error(`last task ${t.status}: ${JSON.stringify(t.error)}`);
  await new Promise((r) => setTimeout(r, 20));
}
const all = await call('POST', `/search/v1/indexes/${uid}/search`, kh, doc('search_queries', { query: '', limit: 0 }));
const took = performance.now() - t0;
const failed = (await call('GET', `/search/v1/tasks?index_uid=${uid}&status=failed&limit=100`, kh)).data.length;
console.log(
  `indexing end to end: ${docs.length} docs in ${(took / 1000).toFixed(2)} s = ${Math.round(docs.length / (took / 1000))} docs/s ` +
    `(all POSTs answered after ${(posted / 1000).toFixed(2)} s; ${IN_FLIGHT} requests in flight; failed tasks ${failed}; searchable total ${all.data.attributes.estimated_total_hits})`,
);
console.log(fmt('  POST /documents (1,000 docs, 202)', summarize(postMs, posted)));
const durations = (await call('GET', `/search/v1/tasks?index_uid=${uid}&type=document_addition_or_update&limit=100`, kh)).data.map((t: any) => t.attributes.duration_ms as number);
console.log(fmt('  task duration (claim → commit, worker)', summarize(durations, took)));
let mem = rssOf(child.pid!);
console.log(`search process after indexing: rss ${mb(mem.rss)}, peak ${mb(mem.peak)}`);

// The worker writes an engine snapshot once it has been idle for a few seconds; wait for it so the
// search figures below do not include that one-off pause.
const snapStart = performance.now();
const indexId = (await call('GET', `/search/v1/indexes/${uid}`, kh)).data.id;
const db = new pg.Client({ connectionString: dbForChild });
await db.connect();
let snapRow;
for (let i = 0; i < 600 && !snapRow; i++) {
  snapRow = (await db.query('select task_id, length(data) as bytes from search.index_snapshots where index_id = $1 and task_id >= $2', [indexId, last])).rows[0];
  if (!snapRow) await new Promise((res) => setTimeout(res, 100));
}
console.log(snapRow ? `engine snapshot written ${((performance.now() - snapStart) / 1000).toFixed(1)} s after the last task (${mb(Number(snapRow.bytes))} gzip'd)` : 'no engine snapshot within 60 s');

// ---------------------------------------------------------------- 2. search latency
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const r = rng(42);
const queries: string[] = [];
while (queries.length < N) {
  const words = String(docs[Math.floor(r() * docs.length)].summary ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
  if (!words.length) continue;
  const k = 1 + Math.floor(r() * 3);
  const s = Math.floor(r() * Math.max(1, words.length - k + 1));
  const q = words.slice(s, s + k);
  if (r() < 0.3) {
    const i = Math.floor(r() * q.length);
    if (q[i].length >= 5) {
      const p = 1 + Math.floor(r() * (q[i].length - 1));
      q[i] = q[i].slice(0, p) + q[i].slice(p + 1);
    }
  }
  const lastWord = q[q.length - 1];
  if (lastWord.length > 4 && r() < 0.6) q[q.length - 1] = lastWord.slice(0, 3 + Math.floor(r() * (lastWord.length - 3)));
  queries.push(q.join(' '));
}
const FILTERS = ['installed_size_kb < 50000', 'priority = optional', 'section IN [libs, devel, utils, python, net]', 'NOT section = games AND installed_size_kb >= 100'];
const GQL = `query($uid: String!, $input: SearchInput) { searchIndex(indexUid: $uid, input: $input) { estimatedTotalHits processingTimeMs hits facetDistribution } }`;

async function measure(label: string, fn: (q: string, f: string) => Promise<number>) {
  for (let i = 0; i < 20; i++) await fn(queries[i], FILTERS[i % FILTERS.length]);
  const samples: number[] = [];
  const engineMs: number[] = [];
  const start = performance.now();
  for (const [i, q] of queries.entries()) {
    const t = performance.now();
    engineMs.push(await fn(q, FILTERS[i % FILTERS.length]));
    samples.push(performance.now() - t);
  }
  const wall = performance.now() - start;
  console.log(fmt(label, summarize(samples, wall)));
  console.log(fmt('  of which in the engine (processing_time_ms)', summarize(engineMs, wall)));
}
await measure('search via gateway (GraphQL)', async (q, f) => {
  const res = await postJson(gateway, kh, JSON.stringify({ query: GQL, variables: { uid, input: { query: q, filter: f, facets: ['section', 'priority'], limit: 20 } } }));
  const body = JSON.parse(res.text);
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data.searchIndex.processingTimeMs;
});
await measure('search via REST bridge', async (q, f) => {
  const res = await requestJson('POST', `${rest}/search/v1/indexes/${uid}/search`, kh, JSON.stringify(doc('search_queries', { query: q, filter: f, facets: ['section', 'priority'], limit: 20 })));
  if (res.status !== 200) throw new Error(res.text);
  return JSON.parse(res.text).data.attributes.processing_time_ms;
});
mem = rssOf(child.pid!);
console.log(`search process after searches: rss ${mb(mem.rss)}, peak ${mb(mem.peak)} (limit 1.5 GB)`);

// ---------------------------------------------------------------- 3. restarts
// Time from starting a search process to its first answer for the full index: from the snapshot,
// then (snapshot deleted) from the rows alone.
async function restart(label: string): Promise<void> {
  current.kill('SIGTERM');
  await new Promise((res) => current.once('exit', res));
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
  console.log(`restart ${label}: first full answer ${((performance.now() - t) / 1000).toFixed(1)} s after the process started (process start-up included); rss ${mb(rssOf(current.pid!).rss)}`);
}
let current = child;
await restart('from the snapshot');
await db.query('delete from search.index_snapshots where index_id = $1', [indexId]);
await restart('from the rows alone (no snapshot)');
await db.end();

// ---------------------------------------------------------------- tear down
current.kill('SIGTERM');
await new Promise((res) => current.once('exit', res));
await stack.stop();
if (scratch) {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${scratch} with (force)`);
  await admin.end();
}
process.exit(0);
