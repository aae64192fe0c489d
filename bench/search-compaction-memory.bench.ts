// npm run bench:search-compaction: the memory a compaction costs, in one process, at BENCH_DOCS
// (1,000,000) documents of the Debian corpus repeated with new ids, indexed in 1,000-document batches
// (as REST batches arrive: the engine holds ~250 small segments, as the service's does before its
// first compaction). Mode (argument):
//  - `in-place` (what the search service does): Engine.compactSteps run to the end on the engine itself;
//  - `second-engine` (what it did before): the engine's snapshot decoded into fresh arrays (as the
//    engine thread read it back from PostgreSQL), a second engine restored from it and compacted, while
//    the first one is still held (it answered searches until the swap).
// Prints RSS before indexing, after indexing, and the peak during the compaction (VmHWM, reset before
// it through /proc/self/clear_refs), in MiB and bytes per document, with the load average.
// Run: node --expose-gc --import @swc-node/register/esm-register bench/search-compaction-memory.bench.ts in-place
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { engineFactory, DEFAULT_SETTINGS, type Engine, type EngineSettings } from '../lib/search-engine/index.js';
import { encodeSnapshot, KEEP_ARRAYS, SnapshotDecoder } from '../lib/search-engine/snapshot-binary.js';
import { BATCH, loadDebian } from './search-corpus.js';

const DOCS = Number(process.env.BENCH_DOCS ?? 1_000_000);
const mode = process.argv[2] ?? 'in-place';
if (mode !== 'in-place' && mode !== 'second-engine') throw new Error(`mode ${mode}: in-place or second-engine`);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const status = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
const load = () => `load ${loadavg()[0].toFixed(2)}`;
const perDoc = (mib: number) => `${((mib * 2 ** 20) / DOCS).toFixed(0)} B/doc`;

const settings: EngineSettings = {
  ...DEFAULT_SETTINGS,
  searchableAttributes: ['name', 'summary', 'description', 'tags'],
  filterableAttributes: ['section', 'priority', 'installed_size_kb'],
  sortableAttributes: ['installed_size_kb'],
};
const corpus = loadDebian();
gc();
const before = status('VmRSS');
console.log(`# bench/search-compaction-memory.bench.ts ${new Date().toISOString()} ${mode}, ${DOCS} documents; rss ${before.toFixed(0)} MiB with the corpus loaded  [${load()}]`);
const engine: Engine = engineFactory.create(settings);
const t0 = performance.now();
for (let i = 0; i < DOCS; i += BATCH) {
  const docs = Array.from({ length: Math.min(BATCH, DOCS - i) }, (_, k) => ({ ...corpus[(i + k) % corpus.length], id: i + k + 1 }));
  engine.addDocuments(docs, 'id');
}
gc();
const indexed = status('VmRSS');
console.log(
  `indexed in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${engine.segmentCount} segments, engine ${(engine.memoryBytes() / 2 ** 20).toFixed(0)} MiB estimated; rss ${indexed.toFixed(0)} MiB (${perDoc(indexed - before)} over the corpus)  [${load()}]`,
);

writeFileSync('/proc/self/clear_refs', '5'); // VmHWM := VmRSS
const t1 = performance.now();
let result: Engine = engine;
if (mode === 'in-place') {
  const steps = engine.compactSteps();
  while (!steps.next().done);
} else {
  const decoder = new SnapshotDecoder();
  for (const piece of encodeSnapshot(engine.toSnapshot(KEEP_ARRAYS))) decoder.push(piece);
  result = engineFactory.fromSnapshot(decoder.finish(), settings);
  result.compact();
}
const peak = status('VmHWM');
const ms = performance.now() - t1;
gc();
const after = status('VmRSS');
console.log(
  `${mode} compaction: ${(ms / 1000).toFixed(1)} s, ${result.segmentCount} segments; peak rss ${peak.toFixed(0)} MiB = ${(peak - indexed).toFixed(0)} MiB over the indexed engine (${perDoc(peak - before)} over the corpus at the peak), rss after ${after.toFixed(0)} MiB  [${load()}]`,
);
// the held engine stays referenced until here (as the registry held it until the swap)
if (engine.size !== result.size) throw new Error('sizes differ');
