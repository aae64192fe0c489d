// npm run bench:search-restore: the cold start of one index from its stored snapshot, phase by phase,
// without indexing anything: BENCH_RESTORE_DB names a database holding one (`BENCH_KEEP_DB=1 npm run
// bench:search-scale` keeps its scratch database and prints its name). The index is BENCH_INDEX_ID, or
// the one with the largest snapshot. Each phase prints its wall time and the process's CPU time (every
// thread: zlib's pool, the engine thread), with the load average:
//  1. the chunks' stored bytes through binary COPY alone, one stream, then BENCH_READ_STREAMS (4) at once;
//  2. what the engine thread does (engine-loader.ts): read, inflate and decode the sections, restore the
//     engine (restoreSteps, per phase: store, ids, columns, segments, dictionary), compact;
//  3. the hand-over to the event loop (hand-over.ts, postMessage's structured clone with the arrays
//     transferred, the external ids in 20,000-id messages) and the engine assembled there (per phase);
//  4. the first searches on it (first-touch costs), and the answer hash of a fixed query set;
//  5. end to end: the service's engine thread (engine-builder.ts on engine-thread.worker.ts, its own
//     pool) loading the index, then the first search: what a restart costs before its first answer.
// BENCH_RESTORE_PARTS (default `phases,thread`) picks 1-4 (`phases`) and 5 (`thread`); BENCH_REPEAT runs
// them again (alternate two checkouts between runs for an A/B figure). `rewrite` first stores the
// index's snapshot again in this checkout's format (same task and documents), then runs the others.
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import pg from 'pg';
import { createLogger } from '../lib/logger.js';
import { copyOutRows, integer, literal } from '../lib/pg-copy-out.js';
import { handOver } from '../lib/search-engine/hand-over.js';
import { restoreSteps, type RestorePhase } from '../lib/search-engine/restore.js';
import type { SnapshotData } from '../lib/search-engine/snapshot.js';
import type { Engine, EngineSettings, SearchRequest } from '../lib/search-engine/types.js';
import { startWorker } from '../lib/worker-script.js';
import { ThreadEngineBuilder } from '../subgraphs/search/engine-registry/engine-builder.js';
import { EngineLoader, readSnapshot } from '../subgraphs/search/engine-registry/engine-loader.js';
import { engineFactory } from '../lib/search-engine/index.js';
import { KEEP_ARRAYS } from '../lib/search-engine/snapshot-binary.js';
import { storedSnapshot } from '../subgraphs/search/engine-registry/snapshot-store.js';
import { toEngineSettings } from '../subgraphs/search/indexes/engine-settings.js';
import type { IndexSettingsData } from '../subgraphs/search/indexes/index-settings.rules.js';
import { T } from '../subgraphs/search/sql.js';

const url = process.env.BENCH_RESTORE_DB;
if (!url) throw new Error('BENCH_RESTORE_DB: the URL of a database holding a stored engine snapshot');
const PARTS = new Set((process.env.BENCH_RESTORE_PARTS ?? 'phases,thread').split(','));
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
const STREAMS = Number(process.env.BENCH_READ_STREAMS ?? 4);
const clone = structuredClone;
const log = createLogger({ component: 'bench' }, 'warn');

const load = () => `load ${loadavg()[0].toFixed(2)}`;
const say = (line: string) => console.log(`${line}  [${load()}]`);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** garbage collection pauses of this thread so far (ms) */
let gcMs = 0;
/** GC ms by kind (1 minor, 2 major, 4 incremental, 8 weak callbacks) */
const gcKinds = new Map<number, number>();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
    gcKinds.set(kind, (gcKinds.get(kind) ?? 0) + e.duration);
  }
}).observe({ entryTypes: ['gc'] });
/** wall, CPU and GC ms of `fn` */
async function timed<R>(fn: () => Promise<R> | R): Promise<{ r: R; ms: number; cpuMs: number; gcMs: number }> {
  const c = cpu();
  const g = gcMs;
  const t = performance.now();
  const r = await fn();
  const ms = performance.now() - t;
  await new Promise((done) => setImmediate(done)); // the observer's entries of it are delivered
  return { r, ms, cpuMs: cpu() - c, gcMs: gcMs - g };
}
const fmt = (x: { ms: number; cpuMs: number; gcMs?: number }) => `${(x.ms / 1000).toFixed(2)} s (CPU ${(x.cpuMs / 1000).toFixed(2)} s${x.gcMs === undefined ? '' : `, GC ${(x.gcMs / 1000).toFixed(2)} s`})`;

const pool = new pg.Pool({ connectionString: url, max: Math.max(2, STREAMS) });
const found = (
  await pool.query<{ id: string; settings: IndexSettingsData }>(
    process.env.BENCH_INDEX_ID
      ? `select id, settings from ${T.indexes} where id = $1`
      : `select i.id, i.settings from ${T.indexes} i join ${T.snapshots} s on s.index_id = i.id order by s.bytes desc limit 1`,
    process.env.BENCH_INDEX_ID ? [process.env.BENCH_INDEX_ID] : [],
  )
).rows[0];
if (!found) throw new Error('no index with a stored snapshot in BENCH_RESTORE_DB');
const index: { id: string; settings: IndexSettingsData } = found;
const settings: EngineSettings = toEngineSettings(index.settings);
let snap = await storedSnapshot(pool, index.id);
if (!snap) throw new Error(`index ${index.id} has no snapshot`);
if (PARTS.has('rewrite')) {
  const engine = engineFactory.fromSnapshot(await readSnapshot(pool, index.id, snap), settings);
  await pool.query(`delete from ${T.snapshots} where index_id = $1`, [index.id]);
  const w = await new EngineLoader(pool, engineFactory, log).writeSnapshot(index.id, { data: engine.toSnapshot(KEEP_ARRAYS), version: snap.taskId, documents: engine.size });
  console.log(`# snapshot rewritten in this checkout's format: ${w?.chunks} chunks, ${((w?.bytes ?? 0) / 2 ** 20).toFixed(0)} MiB`);
  snap = (await storedSnapshot(pool, index.id))!;
}
const stored = snap;
const chunkRows = (await pool.query<{ task_id: string; seq: number; bytes: string }>(`select task_id, seq, length(data) as bytes from ${T.snapshotChunks} where index_id = $1 order by task_id, seq`, [index.id])).rows;
const storedBytes = chunkRows.reduce((n, r) => n + Number(r.bytes), 0);
console.log(`# bench/search-restore.bench.ts ${new Date().toISOString()} node ${process.version}; index ${index.id}: snapshot at task ${snap.taskId}, format ${snap.format}, ${snap.chunks} chunks, ${(storedBytes / 2 ** 20).toFixed(0)} MiB stored; ${load()}`);

/** the queries whose answers are hashed (ids and scores' order): the same before and after a change */
const QUERIES: SearchRequest[] = [
  { query: 'python', limit: 20 },
  { query: 'pyhton libary', limit: 20, facets: ['section', 'priority'] },
  { query: 'lib', limit: 20, filter: 'priority = optional' },
  { query: 'network manager', limit: 20, sort: ['installed_size_kb:desc'] },
  { query: '', limit: 20, facets: ['section'] },
  { query: 'gnome desktop theme', offset: 20, limit: 20 },
];
function answerHash(engine: Engine): string {
  const h = createHash('sha256');
  for (const q of QUERIES) {
    try {
      const r = engine.search(q);
      h.update(JSON.stringify([r.estimatedTotalHits, r.hits, r.facetDistribution ?? null]));
    } catch (e) {
      h.update(`error ${(e as Error).message}`);
    }
  }
  return h.digest('hex').slice(0, 16);
}

/** Run the restore generator to its end, timing each phase (wall and CPU summed over its steps). */
function runSteps(steps: Generator<RestorePhase, Engine>): { engine: Engine; phases: Map<RestorePhase, { ms: number; cpuMs: number; steps: number }> } {
  const phases = new Map<RestorePhase, { ms: number; cpuMs: number; steps: number }>();
  for (;;) {
    const c = cpu();
    const t = performance.now();
    const r = steps.next();
    if (r.done) return { engine: r.value, phases };
    const p = phases.get(r.value) ?? { ms: 0, cpuMs: 0, steps: 0 };
    p.ms += performance.now() - t;
    p.cpuMs += cpu() - c;
    p.steps++;
    phases.set(r.value, p);
  }
}
const phaseLine = (phases: Map<RestorePhase, { ms: number; cpuMs: number; steps: number }>) =>
  [...phases].map(([k, p]) => `${k} ${(p.ms / 1000).toFixed(2)} s (CPU ${(p.cpuMs / 1000).toFixed(2)})`).join(', ');

async function readChunk(r: { task_id: string; seq: number }): Promise<number> {
  const [row] = await copyOutRows(pool, `select data from ${T.snapshotChunks} where index_id = ${literal(index.id)} and task_id = ${integer(Number(r.task_id))} and seq = ${integer(r.seq)}`);
  return row?.[0]?.byteLength ?? 0;
}

async function phases(): Promise<void> {
  // 1. the stored bytes alone
  const one = await timed(async () => {
    let n = 0;
    for (const r of chunkRows) n += await readChunk(r);
    return n;
  });
  const par = await timed(async () => {
    let next = 0;
    let n = 0;
    await Promise.all(
      Array.from({ length: STREAMS }, async () => {
        while (next < chunkRows.length) n += await readChunk(chunkRows[next++]);
      }),
    );
    return n;
  });
  const mbps = (x: { r: number; ms: number }) => (x.r / 2 ** 20 / (x.ms / 1000)).toFixed(0);
  say(`read (COPY only): ${(one.r / 2 ** 20).toFixed(0)} MiB in ${fmt(one)} = ${mbps(one)} MiB/s; ${STREAMS} streams: ${fmt(par)} = ${mbps(par)} MiB/s`);

  // 2. the engine thread's work
  const read = await timed(() => readSnapshot(pool, index.id, stored));
  say(`read + inflate + decode the sections (as the engine thread): ${fmt(read)}; GC so far by kind: ${[...gcKinds].map(([k, ms]) => `${k}: ${(ms / 1000).toFixed(2)} s`).join(', ')}`);
  const thread = await timed(() => runSteps(restoreSteps(read.r, settings)));
  say(`restore (engine thread): ${fmt(thread)}: ${phaseLine(thread.r.phases)}`);
  const engine = thread.r.engine;
  const segments = engine.segmentCount;
  const compact = await timed(() => engine.compact());
  const shape = engine as unknown as { dictionary: { terms?: string[] }; segments: { terms: string[]; docIds: Int32Array }[] };
  say(
    `compact at load: ${fmt(compact)} (segments ${segments} -> ${engine.segmentCount}: ${shape.segments.map((s) => `${s.docIds.length} docs/${s.terms.length} terms`).join(', ')}; merged dictionary ${shape.dictionary.terms?.length ?? '?'} terms)`,
  );

  // 3. the hand-over and the engine assembled on the event loop
  const size = engine.size;
  const out = await timed(() => handOver(engine));
  const moved = await timed(() => clone({ snapshot: { ...out.r.snapshot, extIds: [] } }, { transfer: out.r.transfer }));
  const ext = out.r.snapshot.extIds;
  const ids = await timed(() => {
    const got: string[] = [];
    for (let from = 0; from < ext.length; from += 20_000) for (const x of clone(ext.slice(from, from + 20_000))) got.push(x);
    return got;
  });
  say(`hand-over: snapshot of the engine ${fmt(out)}, postMessage's clone (arrays transferred) ${fmt(moved)}, ${size} external ids in 20,000-id messages ${fmt(ids)}`);
  const received = moved.r.snapshot as SnapshotData;
  received.extIds = ids.r;
  const main = await timed(() => runSteps(restoreSteps(received, settings)));
  say(`restore (event loop): ${fmt(main)}: ${phaseLine(main.r.phases)}`);

  // 4. first searches
  const e2 = main.r.engine;
  const first = await timed(() => e2.search(QUERIES[0]));
  const second = await timed(() => e2.search(QUERIES[1]));
  const third = await timed(() => e2.search(QUERIES[1]));
  say(`first search ${fmt(first)}, first typo+facets ${fmt(second)}, again ${fmt(third)}; answer hash ${answerHash(e2)}`);
}

async function viaThread(): Promise<void> {
  // the service's engine thread without word vectors (the Debian index embeds nothing)
  const base = new URL('../subgraphs/search/engine-registry/engine-builder.ts', import.meta.url).href;
  const builder = new ThreadEngineBuilder(url!, log, () => startWorker(base, 'engine-thread.worker', { workerData: { dbUrl: url } }));
  builder.start();
  await builder.threadMemory(); // the thread is up (its modules loaded), as at a process's /health/ready
  const c = cpu();
  const t = performance.now();
  const h = await builder.load(index.id);
  if (!h) throw new Error('index gone');
  const loaded = performance.now() - t;
  const r = h.engine.search(QUERIES[0]);
  const total = performance.now() - t;
  say(
    `end to end (engine thread, hand-over, assembly, first search): ${(total / 1000).toFixed(2)} s (CPU ${((cpu() - c) / 1000).toFixed(2)} s, all threads); loaded ${(loaded / 1000).toFixed(2)} s, first search ${(total - loaded).toFixed(0)} ms (${r.estimatedTotalHits} hits); ${h.engine.size} documents; answer hash ${answerHash(h.engine)}`,
  );
  await builder.stop();
}

for (let i = 0; i < REPEAT; i++) {
  if (PARTS.has('phases')) await phases();
  if (PARTS.has('thread')) await viaThread();
}
await pool.end();
