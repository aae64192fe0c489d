// Search STALL bench: how much one tenant's re-index slows searches of another index in the same
// search process. One search subgraph process (subgraphs/search/main.ts of BENCH_ROOT, default this
// checkout) on a scratch database; a small index (books.json, 244 documents) and a big one (the first
// BENCH_DOCS Debian packages, default 60,000, added in 500-document tasks). Once the big index's
// snapshot is written (so no snapshot runs during the measurement), one client searches the small
// index back to back (the searches of "other tenants"):
//  1. idle: BENCH_IDLE_MS (5,000) with nothing else running;
//  2. rebuild: from the settings change of the big index that re-indexes every document (a new
//     filterable attribute) until a search of the big index answers with it.
// Printed per phase: searches, p50, p99, max (ms), and the load average. Compare the engine thread
// on and off (SEARCH_ENGINE_THREAD=1/0 is passed to the search process), or an older checkout
// (BENCH_ROOT=<dir> with node_modules).
// Run: DATABASE_URL=postgres://… BENCH_PORT=22090 npx node --import @swc-node/register/esm-register bench/search-stall.ts
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../lib/tenant.js';
import { datasetsDir } from '../scripts/datasets.js';
import { scratchDatabase } from './harness.js';
import { loadDebian } from './search-corpus.js';
import { summarize } from './stats.js';

const ROOT = resolve(process.env.BENCH_ROOT ?? resolve(import.meta.dirname, '..'));
const PORT = Number(process.env.BENCH_PORT ?? 22090);
const DOCS = Number(process.env.BENCH_DOCS ?? 60_000);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5000);
const BATCH = 500;
const SECRET = 'bench-internal';
const url = `http://127.0.0.1:${PORT}/graphql`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required (a scratch database is created on its server)');
const db = await scratchDatabase('stall');
const child = spawn(process.execPath, ['--import', '@swc-node/register/esm-register', 'subgraphs/search/main.ts'], {
  cwd: ROOT,
  env: {
    ...process.env,
    NODE_OPTIONS: '',
    // one search replica on a scratch database: it migrates it
    SINGLE_PROCESS: '1',
    MIGRATE_ON_START: '1',
    DATABASE_URL: db.url,
    SEARCH_PORT: String(PORT),
    INTERNAL_SECRET: SECRET,
    JWT_SECRET: 'bench-secret',
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    SEARCH_DEFAULT_PLAN: 'enterprise',
    SEARCH_POLL_MS: '100',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const cleanup = async () => {
  if (child.exitCode === null) child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  await db.drop();
};
process.on('uncaughtException', (e) => {
  console.error(e);
  child.kill('SIGKILL');
  process.exit(1);
});

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${PORT}/health/ready`)).ok) break;
  } catch {
    /* not yet */
  }
  if (i > 240) throw new Error('search process did not start');
  await new Promise((r) => setTimeout(r, 250));
}

const ctx: TenantContext = { kind: 'key', requestId: '', scopes: ['search:read', 'search:write'], appId: 'app_stall', environment: 'live', plan: 'enterprise' };
async function gql(query: string, variables: Record<string, unknown>): Promise<any> {
  const body = JSON.stringify({ query, variables });
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TENANT_HEADER]: signTenantContext({ ...ctx, requestId: randomUUID() }, SECRET, { audience: 'search', body }) },
    body,
  });
  return r.json();
}
const TASK = `query($id: ID!) { searchTask(id: $id) { status error { code message } } }`;
async function waitTask(id: string): Promise<void> {
  for (;;) {
    const t = (await gql(TASK, { id })).data.searchTask;
    if (t.status === 'succeeded') return;
    if (t.status === 'failed' || t.status === 'canceled') throw new Error(`task ${id}: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const CREATE = `mutation($uid: String!) { createIndex(input: { uid: $uid, primaryKey: "id" }) { id } }`;
const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id } }`;
const SETTINGS = `mutation($uid: String!, $s: JSONObject!) { updateIndexSettings(uid: $uid, settings: $s) { id } }`;
const SEARCH = `query($uid: String!, $q: String!, $f: JSON) { searchIndex(indexUid: $uid, input: { query: $q, filter: $f, limit: 10 }) { estimatedTotalHits } }`;

// ---------------------------------------------------------------- data
const books = JSON.parse(readFileSync(resolve(datasetsDir(), 'books.json'), 'utf8')) as Record<string, unknown>[];
await gql(CREATE, { uid: 'small' });
await waitTask((await gql(ADD, { uid: 'small', docs: books })).data.addIndexDocuments.id);
const debian = loadDebian().slice(0, DOCS);
await gql(CREATE, { uid: 'big' });
const base = { searchable_attributes: ['name', 'summary', 'description', 'tags'], filterable_attributes: ['section', 'priority'] };
await waitTask((await gql(SETTINGS, { uid: 'big', s: base })).data.updateIndexSettings.id);
// the engine is loaded first, so every batch lands in it as its task commits (as in production)
await gql(SEARCH, { uid: 'big', q: 'warm', f: null });
const t0 = performance.now();
let last = '';
for (let i = 0; i < debian.length; i += BATCH) last = (await gql(ADD, { uid: 'big', docs: debian.slice(i, i + BATCH) })).data.addIndexDocuments.id;
await waitTask(last);
console.log(`indexed ${debian.length} documents in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// the snapshot the worker writes once idle (3 s): waited for, so it does not fall in a measurement
const pgc = new pg.Client({ connectionString: db.url });
await pgc.connect();
for (let i = 0; ; i++) {
  const r = await pgc.query(`select s.task_id, i.applied_task_id from search.index_snapshots s join search.indexes i on i.id = s.index_id where i.uid = 'big'`);
  if (r.rows[0] && r.rows[0].task_id === r.rows[0].applied_task_id) break;
  if (i > 600) throw new Error('no snapshot of the big index after 60 s');
  await new Promise((res) => setTimeout(res, 100));
}
await pgc.end();
// after writing it, the worker hands the compacted engine back (engine thread): let that pass too
await new Promise((res) => setTimeout(res, 10_000));

// ---------------------------------------------------------------- searches of the small index
const QUERIES = ['harry potter', 'lord of the rings', 'hunger games', 'pride', 'the great', 'kill mockingbird', 'twilight', 'divergent', 'hobbit', 'gone girl'];
async function searchUntil(stop: () => boolean): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; !stop(); i++) {
    const t = performance.now();
    const r = await gql(SEARCH, { uid: 'small', q: QUERIES[i % QUERIES.length], f: null });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    ms.push(performance.now() - t);
  }
  return ms;
}
const report = (label: string, ms: number[], wallMs: number, loadBefore: string) => {
  const s = summarize(ms, wallMs);
  const f = (x: number) => x.toFixed(1);
  console.log(`${label.padEnd(8)} ${String(s.n).padStart(5)} searches in ${(wallMs / 1000).toFixed(1)} s: p50 ${f(s.p50)} p99 ${f(s.p99)} max ${f(Math.max(...ms))} ms  (load average ${loadBefore} → ${load()})`);
};

await searchUntil(((n) => () => n-- <= 0)(50)); // warm-up
let l = load();
let start = performance.now();
const idle = await searchUntil(() => performance.now() - start > IDLE_MS);
report('idle', idle, performance.now() - start, l);

// ---------------------------------------------------------------- the big index re-indexed
l = load();
start = performance.now();
let rebuilt = false;
const task = (await gql(SETTINGS, { uid: 'big', s: { filterable_attributes: ['section', 'priority', 'maintainer'] } })).data.updateIndexSettings.id;
const watcher = (async () => {
  await waitTask(task);
  // the new attribute filters once the engine answers with the new settings (a query matching
  // nothing: the watcher's own search must not weigh on the event loop)
  for (;;) {
    const r = await gql(SEARCH, { uid: 'big', q: 'qqqzzx', f: 'maintainer EXISTS' });
    if (!r.errors) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  rebuilt = true;
})();
const during = await searchUntil(() => rebuilt);
await watcher;
report('rebuild', during, performance.now() - start, l);
console.log(`engine thread: ${process.env.SEARCH_ENGINE_THREAD ?? '(default)'}; root ${ROOT}; ${DOCS} documents`);
await cleanup();
