// The engine alone at scale, in one process (no HTTP, no database): the Debian corpus repeated with new
// ids to BENCH_DOCS documents (300,000), added in 1,000-document batches, compact(), then the bench's
// 200 queries (typo + prefix + a filter + 2 facets, 20 hits) three times. Prints per round the CPU time
// per query (process.cpuUsage: steadier than wall time on a shared machine), p50/p95/p99 of wall time and
// of each query's own CPU time (comparable across loads, where wall time is not), and a hash of
// every answer (hit ids, total, facet counts) so two builds can be checked for the same results.
// BENCH_PROFILE=<file.cpuprofile>: a CPU profile of the last round (bench:profile-summary reads it).
// Memory after compact(): the engine's estimate (memoryBytes) against what the process measures
// (heapUsed + arrayBuffers, over the same before the engine; after a full GC when run with --expose-gc).
// BENCH_TAIL=<n>: the n slowest queries of the last round (wall ms, total hits, query, filter): which
// queries make the p95/p99.
// Run: node --expose-gc --import @swc-node/register/esm-register bench/search-engine-scale.bench.ts
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { engineFactory, type EngineSettings } from '../lib/search-engine/index.js';
import type { SegmentedEngine } from '../lib/search-engine/engine.js';
import { FILTERS, loadDebian, makeQueries } from './search-corpus.js';
import { summarize } from './stats.js';

const N = Number(process.env.BENCH_DOCS ?? 300_000);
const TAIL = Number(process.env.BENCH_TAIL ?? 0);
const load = () => `load ${loadavg()[0].toFixed(2)}`;
const corpus = loadDebian();
const settings = {
  searchableAttributes: ['name', 'summary', 'description', 'tags'],
  filterableAttributes: ['section', 'priority', 'installed_size_kb'],
  sortableAttributes: ['installed_size_kb'],
} as Partial<EngineSettings> as EngineSettings;
const gc = (globalThis as { gc?: () => void }).gc;
/** after full GCs with turns of the event loop between them (array buffers are freed after their GC) */
const measured = async () => {
  for (let i = 0; gc && i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { js: m.heapUsed + m.arrayBuffers, rss: m.rss };
};
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const before = await measured();
/** bytes per document of each part the estimate counts exactly (typed arrays), the rest estimated */
function parts(e: SegmentedEngine): string {
  const sum = (f: (s: SegmentedEngine['segments'][number]) => number) => e.segments.reduce((n, s) => n + f(s), 0);
  const per = (b: number) => (b / N).toFixed(0);
  const fields = sum((s) => [...s.fields.values()].reduce((n, f) => n + f.strStart.byteLength + f.strDocs.byteLength + f.numValues.byteLength + f.numDocs.byteLength + f.exists.byteLength, 0));
  return [
    `docIds ${per(sum((s) => s.docIds.byteLength))}`,
    `termStart ${per(sum((s) => s.termStart.byteLength))} (${sum((s) => s.terms.length)} terms)`,
    `pDocs ${per(sum((s) => s.pDocs.byteLength))}`,
    `posting starts ${per(sum((s) => s.pBase.byteLength + s.pRel.byteLength))}`,
    `positions ${per(sum((s) => s.positions.byteLength))}`,
    `lens ${per(sum((s) => s.lens.byteLength))}`,
    `field arrays ${per(fields)}`,
    `store ${per(e.store.bytes())}`,
    `columns ${per(e.columns.bytes())}`,
    `alive ${per(e.alive.byteLength)}`,
    `B/doc`,
  ].join(', ');
}
const engine = engineFactory.create(settings);

let t = performance.now();
const cpu0 = process.cpuUsage();
for (let i = 0; i < N; i += 1000) {
  const docs = Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ ...corpus[(i + k) % corpus.length], id: i + k + 1 }));
  engine.addDocuments(docs, 'id');
}
const cpu = process.cpuUsage(cpu0);
console.log(`indexed ${N} in ${((performance.now() - t) / 1000).toFixed(1)} s, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU; ${engine.segmentCount} segments  [${load()}]`);
t = performance.now();
engine.compact();
console.log(`compact ${((performance.now() - t) / 1000).toFixed(1)} s: ${engine.segmentCount} segments  [${load()}]`);
const after = await measured();
const est = engine.memoryBytes();
console.log(
  `memory: estimate ${parts(engine as unknown as SegmentedEngine)}\n        `,
);
console.log(
  `memory: estimate ${mib(est)} (${(est / N).toFixed(0)} B/doc); measured heap + array buffers ${mib(after.js - before.js)} (${((after.js - before.js) / N).toFixed(0)} B/doc)${gc ? '' : ' (no --expose-gc: includes garbage)'}; rss ${mib(after.rss)} (${mib(before.rss)} before)  [${load()}]`,
);

const queries = makeQueries(corpus, 200);
const session = new Session();
session.connect();
for (let round = 0; round < 3; round++) {
  const profile = round === 2 && process.env.BENCH_PROFILE;
  if (profile) await session.post('Profiler.enable').then(() => session.post('Profiler.start'));
  const ms: number[] = [];
  const cpuMs: number[] = [];
  const totals: number[] = [];
  const hash = createHash('sha1');
  const c0 = process.cpuUsage();
  queries.forEach((query, i) => {
    const q0 = performance.now();
    const qc = process.cpuUsage();
    const r = engine.search({ query, filter: FILTERS[i % FILTERS.length], facets: ['section', 'priority'], limit: 20 });
    ms.push(performance.now() - q0);
    const dc = process.cpuUsage(qc);
    cpuMs.push((dc.user + dc.system) / 1000);
    totals.push(r.estimatedTotalHits);
    hash.update(JSON.stringify([r.hits.map((h) => h.id), r.estimatedTotalHits, r.facetDistribution]));
  });
  const c = process.cpuUsage(c0);
  const s = summarize(ms, 1);
  const sc = summarize(cpuMs, 1);
  console.log(
    `round ${round + 1}: ${((c.user + c.system) / 1000 / queries.length).toFixed(2)} ms CPU per query; p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / p99 ${s.p99.toFixed(1)} ms; CPU p50 ${sc.p50.toFixed(1)} / p95 ${sc.p95.toFixed(1)} / p99 ${sc.p99.toFixed(1)} ms; answers ${hash.digest('hex').slice(0, 10)}  [${load()}]`,
  );
  if (round === 2 && TAIL > 0) {
    const slowest = ms.map((m, i) => i).sort((a, b) => ms[b] - ms[a]).slice(0, TAIL);
    for (const i of slowest) console.log(`  ${ms[i].toFixed(1).padStart(6)} ms (CPU ${cpuMs[i].toFixed(1).padStart(6)})  ${String(totals[i]).padStart(7)} hits  ${JSON.stringify(queries[i])}  ${FILTERS[i % FILTERS.length]}`);
  }
  if (profile) writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
}
