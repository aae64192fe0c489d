// npm run bench:search-scale: one large index through `npm start` (one process, a scratch database),
// each figure printed against its target with the load average at the time:
//  - indexing through REST: BENCH_DOCS documents (default 1,000,000: the Debian corpus repeated with new
//    ids), 1,000-document batches, BENCH_IN_FLIGHT (4) requests in flight, until the last task succeeded;
//  - the engine snapshot the worker writes once idle: stored size, chunks, time after the last task;
//    then the compacted layout that replaces it (the engine the searches below run on);
//  - warm searches (typo + prefix + a filter + 2 facets, 20 hits): the engine's processing_time_ms and
//    the REST latency, p50 / p95;
//  - RSS of the `npm start` process (bytes per document);
//  - cold start: the process restarted, time from /health/ready to the first full answer (503 answers
//    while the engine loads are counted, each must carry Retry-After).
// Env: BENCH_DOCS, BENCH_IN_FLIGHT, BENCH_N (queries, 200), BENCH_PORT_BASE (24500), BENCH_SETTLE_S (900:
// the longest wait for the compacted snapshot before the searches), BENCH_STACK_FLAGS
// (extra Node flags of the stack, e.g. --cpu-prof --cpu-prof-dir=<dir>), BENCH_PROFILE (a directory:
// a CPU profile of the stack's main thread over the indexing alone, indexing.cpuprofile, for
// bench:profile-summary), BENCH_INDEXING_ONLY (1: stop after the indexing lines), DATABASE_URL (a
// scratch database on that server), DATASETS_DIR (where debian-packages.jsonl.gz is), BENCH_COMPILED (1:
// the stack as `npm start` runs it: dist/ from `npm run build`, plain Node; 0: the TypeScript loader, as
// `START_FROM_SOURCE=1 npm start` runs it: ~190 MiB more at rest, see docs/search.md, "What the memory
// budget counts").
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { requestJson } from '../lib/http-client.js';
import { datasetsDir } from '../scripts/datasets.js';
import { nodeFlags } from '../scripts/node-flags.js';
import { benchStackEnv, benchTenant, cpuMs, jsonApi, mainThreadCpuMs, peakRssMiB, processTree, rssMiB, scratchDatabase, waitUntilUp } from './harness.js';
import { FILTERS, makeQueries } from './search-corpus.js';
import { summarize } from './stats.js';
import { placementParts } from './search-scale/placement.js';
import { inspectFlag, profileOverInspector } from './inspector-profile.js';

const ROOT = resolve(import.meta.dirname, '..');
const DOCS = Number(process.env.BENCH_DOCS ?? 1_000_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const N = Number(process.env.BENCH_N ?? 200);
const base = Number(process.env.BENCH_PORT_BASE ?? 24500);
const BATCH = 1000;
/** extra Node flags for the stack (e.g. `--cpu-prof --cpu-prof-dir=…`: Node refuses them in NODE_OPTIONS) */
const STACK_FLAGS = (process.env.BENCH_STACK_FLAGS ?? '').split(' ').filter(Boolean);
const COMPILED = process.env.BENCH_COMPILED !== '0';
const PROFILE = process.env.BENCH_PROFILE;
/** the stack's inspector (BENCH_PROFILE), in the bench's port block */
const INSPECT_PORT = base + 400;
const TARGETS = { docsPerSec: 10_000, engineP95: 40, restP95: 60, rssMiB: 1536, coldS: 15 };

const load = () => `load ${loadavg()[0].toFixed(2)}`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const say = (line: string) => console.log(`${line}  [${load()}]`);

// BENCH_PARTS: a (this file: one large index), b and c (placement across search nodes: search-scale/placement.ts)
const PARTS = new Set((process.env.BENCH_PARTS ?? 'a,b,c').split(',').map((p) => p.trim()));
if (!PARTS.has('a')) {
  await placementParts(PARTS);
  process.exit(0);
}

const corpus = gunzipSync(readFileSync(resolve(datasetsDir(), 'debian-packages.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record<string, unknown>);
/** document i of the repeated corpus: copy k of package j, with a new id */
const docAt = (i: number) => ({ ...corpus[i % corpus.length], id: i + 1 });

console.log(
  `# bench/search-scale.bench.ts ${new Date().toISOString()} node ${process.version}; ${DOCS} documents (${corpus.length} packages repeated), npm start ${COMPILED ? 'compiled (dist/)' : 'from source (START_FROM_SOURCE=1, TypeScript loader)'}, ${load()}`,
);
const scratch = await scratchDatabase('scale');
const env = benchStackEnv('search-scale', base, scratch.url, {
  SEARCH_DEFAULT_PLAN: 'enterprise',
  REDIS_URL: '',
  START_PROCESSES: 'one',
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
});
if (COMPILED) execFileSync(process.execPath, [resolve(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
/** what `npm start` runs: dist/ (rebuilt when stale), or with START_FROM_SOURCE=1 the sources through the loader */
const ENTRY = COMPILED ? [resolve(ROOT, 'dist', 'scripts', 'start-all.js')] : ['--import', '@swc-node/register/esm-register', resolve(ROOT, 'scripts', 'start-all.ts')];
const gatewayPort = Number(env.GATEWAY_PORT);
const restPort = Number(env.REST_PORT);
const rest = `http://127.0.0.1:${restPort}`;
let stack: ChildProcess | undefined;

async function startStack(): Promise<number> {
  stack = spawn(process.execPath, [...nodeFlags(ROOT), ...STACK_FLAGS, ...(PROFILE ? [inspectFlag(INSPECT_PORT)] : []), ...ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitUntilUp(`${rest}/health/ready`, stack);
  await waitUntilUp(`http://127.0.0.1:${gatewayPort}/health/ready`, stack);
  return performance.now();
}
async function stopStack(): Promise<void> {
  const s = stack!;
  s.kill('SIGTERM');
  if (s.exitCode === null) await new Promise((r) => s.once('exit', r));
}
const rssOfStack = () => processTree(stack!.pid!).reduce((n, p) => n + rssMiB(p), 0);
/** the highest RSS each process of the stack has had (VmHWM), summed */
const peakOfStack = () => processTree(stack!.pid!).reduce((n, p) => n + peakRssMiB(p), 0);
process.on('exit', () => stack?.exitCode === null && stack.kill('SIGKILL'));
// a failed run stops its stack and drops its scratch database too
process.on('unhandledRejection', (e) => {
  console.error(e);
  stack?.kill('SIGKILL');
  void scratch.drop().finally(() => process.exit(1));
});

await startStack();
// ---------------------------------------------------------------- tenant (enterprise plan: no document cap)
const { call, keys } = await benchTenant(rest, env.JWT_SECRET!, 'scale', { plan: 'enterprise', timeoutMs: 300_000 });
const kh = keys[0]!;
const jd = jsonApi;

const uid = 'debian';
const settings = { searchable_attributes: ['name', 'summary', 'description', 'tags'], filterable_attributes: ['section', 'priority', 'installed_size_kb'], sortable_attributes: ['installed_size_kb'] };
await call('POST', '/search/v1/indexes', kh, jd('indexes', { uid, primary_key: 'id', settings }));
await call('POST', `/search/v1/indexes/${uid}/search`, kh, jd('search_queries', { query: 'warm' }));
const rssEmpty = rssOfStack();

// ---------------------------------------------------------------- indexing
const batches = Math.ceil(DOCS / BATCH);
/** CPU ms so far: the stack's event loop, the whole stack process (its threads too), the scratch database's backends */
const pgAdmin = new pg.Client({ connectionString: scratch.url });
await pgAdmin.connect();
const dbName = scratch.name!;
const backends = new Set<number>();
async function cpuNow(): Promise<{ loop: number; proc: number; db: number }> {
  for (const r of (await pgAdmin.query('select pid from pg_stat_activity where datname = $1', [dbName])).rows) backends.add(Number(r.pid));
  let db = 0;
  for (const pid of backends) db += cpuMs(pid, false);
  return { loop: mainThreadCpuMs(stack!.pid!), proc: cpuMs(stack!.pid!), db };
}
const profiler = PROFILE ? await profileOverInspector(INSPECT_PORT) : undefined;
const cpu0 = await cpuNow();
const t0 = performance.now();
// RSS sampled twice a second, its highest value kept per phase: which step makes the peak
let phase = 'indexing';
const phasePeaks = new Map<string, number>();
const sampler = setInterval(() => {
  const now = rssOfStack();
  if (now > (phasePeaks.get(phase) ?? 0)) phasePeaks.set(phase, now);
}, 500);
let next = 0;
let lastTask = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (next < batches) {
      const b = next++;
      const docs = Array.from({ length: Math.min(BATCH, DOCS - b * BATCH) }, (_, k) => docAt(b * BATCH + k));
      const r = await requestJson('POST', `${rest}/search/v1/indexes/${uid}/documents`, kh, JSON.stringify(jd('documents', { documents: docs })), 300_000);
      if (r.status !== 202) throw new Error(`batch ${b}: ${r.status} ${r.text.slice(0, 300)}`);
      lastTask = Math.max(lastTask, Number(JSON.parse(r.text).data.id));
      if (b % 100 === 99) console.log(`  ${(b + 1) * BATCH} documents posted, ${((performance.now() - t0) / 1000).toFixed(0)} s, rss ${rssOfStack().toFixed(0)} MiB  [${load()}]`);
    }
  }),
);
const postedAt = performance.now();
for (;;) {
  // an overloaded machine may answer 503 (key verification unavailable) while the worker catches up: poll on
  const polled = await call('GET', `/search/v1/tasks/${lastTask}`, kh).catch((e: Error) => (/: 503 /.test(e.message) ? undefined : Promise.reject(e)));
  if (!polled) {
    await new Promise((r) => setTimeout(r, 1000));
    continue;
  }
  const t = polled.data.attributes;
  if (t.status === 'succeeded') break;
  if (t.status !== 'enqueued' && t.status !== 'processing') throw new Error(`last task ${t.status}: ${JSON.stringify(t.error)}`);
  await new Promise((r) => setTimeout(r, 50));
}
const indexedAt = performance.now();
const cpu1 = await cpuNow();
await profiler?.stop(resolve(PROFILE!, 'indexing.cpuprofile'));
// the worker's pace: a task's own time (started → finished), and the mean time per task from the first start to the last finish
const pace = (
  await pgAdmin.query(
    `select count(*)::int as n,
            percentile_cont(0.5) within group (order by duration_ms) as p50,
            percentile_cont(0.95) within group (order by duration_ms) as p95,
            extract(epoch from max(finished_at) - min(started_at)) * 1000 / count(*) as per_task
       from search.tasks where type = 'document_addition_or_update' and status = 'succeeded'`,
  )
).rows[0] as { n: number; p50: number; p95: number; per_task: number };
await pgAdmin.end();
const total = (await call('POST', `/search/v1/indexes/${uid}/search`, kh, jd('search_queries', { query: '', limit: 0 }))).data.attributes.estimated_total_hits;
const failed = (await call('GET', `/search/v1/tasks?index_uid=${uid}&status=failed&limit=100`, kh)).data.length;
const rate = Math.round(DOCS / ((indexedAt - t0) / 1000));
const perBatch = (k: 'loop' | 'proc' | 'db') => ((cpu1[k] - cpu0[k]) / batches).toFixed(1);
say(`indexing CPU per ${BATCH}-document batch: event loop ${perBatch('loop')} ms, the stack process ${perBatch('proc')} ms (its threads too), PostgreSQL backends of the scratch database ${perBatch('db')} ms (those connected when read)`);
say(
  `indexing tasks: ${pace.n}, each ${Number(pace.p50).toFixed(0)} ms p50 / ${Number(pace.p95).toFixed(0)} ms p95 from start to finish, one every ${Number(pace.per_task).toFixed(1)} ms; posting took ${((postedAt - t0) / 1000).toFixed(1)} s, the worker ${((indexedAt - postedAt) / 1000).toFixed(1)} s more`,
);
say(`indexing: ${DOCS} docs in ${((indexedAt - t0) / 1000).toFixed(1)} s = ${rate} docs/s (target ≥ ${TARGETS.docsPerSec}: ${verdict(rate >= TARGETS.docsPerSec)}); searchable ${total}, failed tasks ${failed}`);

if (process.env.BENCH_INDEXING_ONLY === '1') {
  await stopStack();
  await scratch.drop();
  process.exit(0);
}

// ---------------------------------------------------------------- snapshot
phase = 'until the first snapshot';
const db = new pg.Client({ connectionString: scratch.url });
await db.connect();
const indexId = (await call('GET', `/search/v1/indexes/${uid}`, kh)).data.id;
type SnapRow = { task_id: string; bytes: string; chunks: number; created_at: Date };
const snapRow = async () => (await db.query('select task_id, bytes, chunks, created_at from search.index_snapshots where index_id = $1 and task_id >= $2', [indexId, lastTask])).rows[0] as SnapRow | undefined;
let snap: SnapRow | undefined;
for (let i = 0; i < 6000 && !snap; i++) {
  snap = await snapRow();
  if (!snap) await new Promise((r) => setTimeout(r, 100));
}
say(
  snap
    ? `snapshot: ${(Number(snap.bytes) / 2 ** 20).toFixed(0)} MiB stored in ${snap.chunks} chunks, in force ${((performance.now() - indexedAt) / 1000).toFixed(1)} s after the last task (3 s of it the worker's idle wait)`
    : 'snapshot: none within 10 minutes (NOT MET)',
);

// The engine after a bulk import has one segment per few batches; after its first snapshot the
// process compacts it and writes the compacted layout over that snapshot (same task, new created_at).
// Warm searches and the cold start are measured on that settled engine (BENCH_SETTLE_S bounds the wait).
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 900);
phase = 'compaction and its snapshot';
let settled: SnapRow | undefined;
for (let i = 0; snap && i < SETTLE_S * 10 && !settled; i++) {
  const now = await snapRow();
  if (now && now.created_at.getTime() !== snap.created_at.getTime()) settled = now;
  else await new Promise((r) => setTimeout(r, 100));
}
say(
  settled
    ? `compacted snapshot: ${(Number(settled.bytes) / 2 ** 20).toFixed(0)} MiB in ${settled.chunks} chunks, in force ${((performance.now() - indexedAt) / 1000).toFixed(1)} s after the last task`
    : `compacted snapshot: none within ${SETTLE_S} s (searches below run on the engine as it is)`,
);

// ---------------------------------------------------------------- warm searches
phase = 'searches';
const queries = makeQueries(corpus, N);
const engineMs: number[] = [];
const restMs: number[] = [];
for (let i = 0; i < queries.length + 20; i++) {
  const q = queries[i % queries.length];
  const t = performance.now();
  const r = await call('POST', `/search/v1/indexes/${uid}/search`, kh, jd('search_queries', { query: q, filter: FILTERS[i % FILTERS.length], facets: ['section', 'priority'], limit: 20 }));
  if (i < 20) continue; // warm-up
  restMs.push(performance.now() - t);
  engineMs.push(r.data.attributes.processing_time_ms);
}
const e = summarize(engineMs, 1);
const r = summarize(restMs, 1);
say(`search in engine (processing_time_ms): p50 ${e.p50} ms, p95 ${e.p95} ms (target p95 ≤ ${TARGETS.engineP95}: ${verdict(e.p95 <= TARGETS.engineP95)})`);
say(`search over REST: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms (target p95 ≤ ${TARGETS.restP95}: ${verdict(r.p95 <= TARGETS.restP95)})`);
const rss = rssOfStack();
say(`RSS of the npm start process: ${rss.toFixed(0)} MiB (${rssEmpty.toFixed(0)} MiB before indexing; ${(((rss - rssEmpty) * 2 ** 20) / DOCS).toFixed(0)} bytes per document) (target ≤ ${TARGETS.rssMiB}: ${verdict(rss <= TARGETS.rssMiB)})`);
const peak = peakOfStack();
say(`peak RSS (VmHWM) since start, through indexing, snapshot and compaction: ${peak.toFixed(0)} MiB (${(((peak - rssEmpty) * 2 ** 20) / DOCS).toFixed(0)} bytes per document over the RSS before indexing) (target ≤ ${TARGETS.rssMiB}: ${verdict(peak <= TARGETS.rssMiB)})`);
clearInterval(sampler);
say(`highest RSS sampled per phase (every 0.5 s): ${[...phasePeaks].map(([k, v]) => `${k} ${v.toFixed(0)} MiB`).join('; ')}`);

// where the memory is (the process's own metrics): the engines' estimate, the V8 heap, memory outside it
const metrics = await requestJson('GET', `${rest}/metrics`, {}, undefined, 30_000).catch(() => undefined);
/** a metric's value in MiB; `pattern`: a regular expression for its name and labels */
const metric = (pattern: string) => {
  const m = new RegExp(`^${pattern} ([0-9.e+]+)$`, 'm').exec(metrics?.text ?? '');
  return m ? (Number(m[1]) / 2 ** 20).toFixed(0) : '?';
};
say(
  `memory: engines ${metric('search_engines\\{[^}]*measure="bytes"[^}]*\\}')} MiB estimated; V8 heap used ${metric('nodejs_heap_size_used_bytes')} of ${metric('nodejs_heap_size_total_bytes')} MiB; external (array buffers) ${metric('nodejs_external_memory_bytes')} MiB`,
);

// ---------------------------------------------------------------- cold start
await stopStack();
const ready = await startStack();
let unavailable = 0;
let withoutRetryAfter = 0;
for (;;) {
  const res = await requestJson('POST', `${rest}/search/v1/indexes/${uid}/search`, kh, JSON.stringify(jd('search_queries', { query: 'python', limit: 1 })), 300_000);
  if (res.status === 200) break;
  if (res.status !== 503) throw new Error(`cold search: ${res.status} ${res.text.slice(0, 300)}`);
  unavailable++;
  if (!res.headers['retry-after']) withoutRetryAfter++;
  await new Promise((r) => setTimeout(r, 200));
}
const cold = (performance.now() - ready) / 1000;
say(`cold start: first answer ${cold.toFixed(1)} s after ready (target ≤ ${TARGETS.coldS}: ${verdict(cold <= TARGETS.coldS)}); ${unavailable} answers 503 meanwhile, ${withoutRetryAfter} without Retry-After; rss ${rssOfStack().toFixed(0)} MiB`);

await db.end();
await stopStack();
await scratch.drop();
await placementParts(PARTS);
process.exit(0);
