// The search churn bench (npm run build && node dist/bench/search-churn-memory.bench.js): what a search node's memory does when its engines are loaded and unloaded
// under the budget, in one process, without PostgreSQL or HTTP: BENCH_INDEXES (1,500) distinct
// indexes of BENCH_INDEX_DOCS (1,000) Debian packages (the documents of bench:search-scale part (b)),
// each built in an engine thread from its rows' JSON text (bench/search-churn/thread.ts) and handed over
// through the service's own builder (ThreadEngineBuilder) to the service's own EngineRegistry with a
// budget of SEARCH_MEMORY_BUDGET_MB (128); BENCH_LOADS (4,000) first searches of random indexes,
// 4 in flight, so the registry loads and unloads thousands of engines. Prints, every BENCH_EVERY
// (500) loads and at the end: RSS over the process at rest against the budget, the engines' estimate,
// the event loop's and the engine thread's V8 heaps, array buffers, with the load average; at the end,
// RSS over rest sampled every 200 ms during the loads (its highest, the share over the budget) and the
// event loop's pause per memory-check collection.
// Run it on the production build, as a node runs: npm run build && node dist/bench/search-churn-memory.bench.js
import { loadavg } from 'node:os';
import { memoryUsage } from 'node:process';
import { Worker } from 'node:worker_threads';
import { createLogger } from '../lib/logger.js';
import { ThreadEngineBuilder } from '../subgraphs/search/engine-registry/engine-builder.js';
import { EngineRegistry } from '../subgraphs/search/engine-registry/engine-registry.js';
import { MemoryCheck } from '../subgraphs/search/engine-registry/memory-check.js';
import type { EngineLoader } from '../subgraphs/search/engine-registry/engine-loader.js';
import { defaultSettings, type IndexSettingsData } from '../subgraphs/search/indexes/index-settings.rules.js';
import { workerScript } from '../lib/worker-script.js';
import { loadDebian, makeQueries } from './search-corpus.js';
import type pg from 'pg';

const INDEXES = Number(process.env.BENCH_INDEXES ?? 1500);
const PER_INDEX = Number(process.env.BENCH_INDEX_DOCS ?? 1000);
const LOADS = Number(process.env.BENCH_LOADS ?? 4000);
const EVERY = Number(process.env.BENCH_EVERY ?? 500);
const BUDGET_MB = Number(process.env.SEARCH_MEMORY_BUDGET_MB ?? 128);
const MiB = 2 ** 20;
const load = () => `load ${loadavg()[0].toFixed(2)}`;
const mib = (b: number) => (b / MiB).toFixed(0);

// as bench:search-scale (b) creates its indexes
const settings: IndexSettingsData = {
  ...defaultSettings(),
  searchable_attributes: ['name', 'summary', 'description', 'tags'],
  filterable_attributes: ['section', 'priority'],
};
const log = createLogger({ component: 'bench-churn' });
const builder = new ThreadEngineBuilder(
  '',
  log,
  () =>
    new Worker(workerScript(import.meta.url, 'search-churn/thread'), {
      workerData: { perIndex: PER_INDEX, settings },
    }),
);
builder.start();
// nothing in this bench catches up from PostgreSQL or drops indexes: the registry's pool and loader go unused
// SEARCH_MEMORY_CHECK (1): the budget bounds the measured cost too, as on a search node (memory-check.ts); 0: the estimate only
const CHECK = process.env.SEARCH_MEMORY_CHECK !== '0';
// the event loop's pause per collection: builder.collect() collects this isolate synchronously, then the thread's
const pauses: number[] = [];
const memoryCheck = CHECK
  ? new MemoryCheck({
      budgetBytes: BUDGET_MB * MiB,
      collect: () => {
        const t = performance.now();
        const done = builder.collect();
        pauses.push(performance.now() - t);
        return done;
      },
      log,
    })
  : undefined;
const engines = new EngineRegistry({
  pool: undefined as unknown as pg.Pool,
  loader: undefined as unknown as EngineLoader,
  builder,
  log,
  budgetBytes: BUDGET_MB * MiB,
  snapshotEveryDocs: Number.MAX_SAFE_INTEGER,
  ...(memoryCheck ? { memoryCheck } : {}),
});
const queries = makeQueries(loadDebian(), 200);

// at rest: the thread started (its corpus read), both isolates collected (this one's corpus is garbage now)
await builder.collect();
await new Promise((r) => setTimeout(r, 1000));
const atRest = memoryUsage();
const rest = atRest.rss;
const restThread = await builder.threadMemory();
const glibc = ['MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_', 'MALLOC_ARENA_MAX', 'GLIBC_TUNABLES'].map((k) => `${k} ${process.env[k] ?? 'unset'}`).join(', ');
console.log(
  `# bench/search-churn-memory.bench.ts ${new Date().toISOString()} ${INDEXES} indexes × ${PER_INDEX} documents, ${LOADS} loads, budget ${BUDGET_MB} MiB, memory check ${CHECK ? 'on' : 'off'}, ${glibc}; ` +
    `RSS at rest ${mib(rest)} MiB (event loop heap ${mib(atRest.heapUsed)}/${mib(atRest.heapTotal)}, engine thread heap ${mib(restThread?.heapUsed ?? 0)}/${mib(restThread?.heapTotal ?? 0)})  [${load()}]`,
);

async function report(done: number): Promise<number> {
  const m = memoryUsage();
  const t = await builder.threadMemory();
  const st = engines.stats();
  const over = m.rss - rest;
  console.log(
    `${String(done).padStart(5)} loads: RSS ${mib(m.rss)} MiB, over rest ${mib(over)} (budget ${BUDGET_MB}: ${over <= BUDGET_MB * MiB ? 'within' : 'OVER'}); engines ${st.loaded}, ${mib(st.bytes)} MiB estimated; ` +
      `event loop heap ${mib(m.heapUsed)}/${mib(m.heapTotal)}, array buffers ${mib(m.arrayBuffers)}; engine thread heap ${mib(t?.heapUsed ?? 0)}/${mib(t?.heapTotal ?? 0)}; unloads ${st.unloads}${st.memory ? `; slack taken off the budget ${mib(st.memory.slackBytes)} MiB after ${st.memory.collections} collections` : ''}  [${load()}]`,
  );
  return over;
}

let next = 0;
let peakOver = 0;
/** ms of each load's first search (in the engine, as handed over) */
const searches: number[] = [];
// RSS over rest sampled every 200 ms during the loads: its highest, and the share of samples over the budget
const sampled = { max: 0, over: 0, n: 0 };
const sampler = setInterval(() => {
  const over = memoryUsage.rss() - rest;
  sampled.max = Math.max(sampled.max, over);
  sampled.n++;
  if (over > BUDGET_MB * MiB) sampled.over++;
}, 200);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await Promise.all(
  Array.from({ length: 4 }, async () => {
    while (next < LOADS) {
      const k = next++;
      const i = Math.floor(Math.random() * INDEXES);
      const engine = await engines.get({ id: `i${i}`, settings, appliedTaskId: 0, purgedThroughTaskId: 0 }, true);
      const t = performance.now();
      engine.search({
        query: queries[k % queries.length],
        limit: 20,
        facets: ['section', 'priority'],
      });
      searches.push(performance.now() - t);
      if ((k + 1) % EVERY === 0) peakOver = Math.max(peakOver, await report(k + 1));
    }
  }),
);
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
await new Promise((r) => setTimeout(r, 5000));
const settled = await report(LOADS);
const sorted = [...pauses].sort((a, b) => a - b);
const searched = [...searches].sort((a, b) => a - b);
const pct = (q: number) => searched[Math.min(searched.length - 1, Math.floor(q * searched.length))].toFixed(2);
console.log(
  `settled 5 s after the last load: over rest ${mib(settled)} MiB; highest over rest at a report ${mib(Math.max(peakOver, settled))} MiB, sampled every 200 ms ${mib(sampled.max)} MiB (${((100 * sampled.over) / Math.max(1, sampled.n)).toFixed(0)} % of ${sampled.n} samples over the budget); ${((performance.now() - t0) / 1000).toFixed(0)} s, event loop CPU ${((cpu.user + cpu.system) / 1000 / LOADS).toFixed(1)} ms per load` +
    `; first search in the engine p50 ${pct(0.5)} / p95 ${pct(0.95)} ms` +
    (sorted.length ? `; ${sorted.length} collections, event loop paused p50 ${sorted[sorted.length >> 1].toFixed(0)} / max ${sorted[sorted.length - 1].toFixed(0)} ms each` : '') +
    `  [${load()}]`,
);
await builder.stop();
