// Search engine bench (in-process, no HTTP): indexing throughput in 1,000-document batches, query latency
// with a filter and two facets, the same queries on plain lunr, RSS, geo radius + sort, and hybrid
// search (embedding cost, HNSW build, recall@10 of HNSW against the exact scan, hybrid latency).
// Data: ../shared/datasets/debian-packages.jsonl.gz (63,666 docs) and world-cities.json.
// Run: npx node --import @swc-node/register/esm-register bench/search-engine.bench.ts [--no-lunr] [--no-hybrid] [--only-hybrid]
//      (BENCH_HYBRID_DOCS=n indexes the first n packages for the hybrid part; default all)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import lunr from 'lunr';
import { engineFactory, DEFAULT_SETTINGS, type Engine, type EngineSettings, type SearchRequest } from '../lib/search-engine/index.js';
import { BATCH, DATA, FILTERS, indexDebian, loadDebian, makeQueries, rng, time } from './search-corpus.js';
import { hybridBench } from './search-hybrid.js';
import { summarize, type Stats } from './stats.js';
const withLunr = !process.argv.includes('--no-lunr') && !process.argv.includes('--only-hybrid');
const withHybrid = !process.argv.includes('--no-hybrid');
const onlyHybrid = process.argv.includes('--only-hybrid');

const fmt = (label: string, s: Stats) =>
  `${label.padEnd(44)} n=${String(s.n).padStart(4)}  p50 ${s.p50.toFixed(2).padStart(7)} ms  p95 ${s.p95.toFixed(2).padStart(7)} ms  p99 ${s.p99.toFixed(2).padStart(7)} ms`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

function runQueries(engine: Engine, queries: string[], extra: Partial<SearchRequest> = {}): Stats {
  const samples: number[] = [];
  const t0 = performance.now();
  queries.forEach((q, i) => {
    const t = performance.now();
    engine.search({ query: q, filter: FILTERS[i % FILTERS.length], facets: ['section', 'priority'], limit: 20, ...extra });
    samples.push(performance.now() - t);
  });
  return summarize(samples, performance.now() - t0);
}

/** Quoted runs of 2–3 words of a package's summary, common words included ("a tool for"). */
function makePhrases(docs: Record<string, any>[], n: number): string[] {
  const r = rng(43);
  const out: string[] = [];
  while (out.length < n) {
    const words = String(docs[Math.floor(r() * docs.length)].summary ?? '').split(/[^A-Za-z0-9]+/).filter(Boolean);
    const k = 2 + Math.floor(r() * 2);
    if (words.length < k) continue;
    const start = Math.floor(r() * (words.length - k + 1));
    out.push(`"${words.slice(start, start + k).join(' ')}"`);
  }
  return out;
}

function lunrBench(docs: Record<string, any>[], queries: string[]): void {
  const [idx, ms] = time(() =>
    lunr(function () {
      this.ref('id');
      for (const f of ['name', 'summary', 'description', 'tags']) this.field(f);
      for (const d of docs) this.add({ ...d, tags: (d.tags ?? []).join(' ') });
    }),
  );
  console.log(`plain lunr build: ${docs.length} docs in ${(ms / 1000).toFixed(1)} s = ${Math.round(docs.length / (ms / 1000))} docs/s`);
  const samples: number[] = [];
  const t0 = performance.now();
  for (const q of queries) {
    const terms = q.split(' ');
    const t = performance.now();
    idx.query((qq) => {
      terms.forEach((term, i) => {
        if (i === terms.length - 1) qq.term(term, { wildcard: lunr.Query.wildcard.TRAILING });
        else qq.term(term, { editDistance: 1 });
      });
    });
    samples.push(performance.now() - t);
  }
  console.log(fmt('plain lunr (fuzzy ~1, trailing wildcard)', summarize(samples, performance.now() - t0)));
}

function geoBench(): void {
  const cities = JSON.parse(readFileSync(resolve(DATA, 'world-cities.json'), 'utf8')) as Record<string, any>[];
  const engine = engineFactory.create({
    ...DEFAULT_SETTINGS,
    searchableAttributes: ['name', 'country'],
    filterableAttributes: ['_geo', 'country', 'population'],
    sortableAttributes: ['_geo', 'population'],
  });
  for (let i = 0; i < cities.length; i += BATCH) engine.addDocuments(cities.slice(i, i + BATCH), 'geonameid');
  const r = rng(7);
  const samples: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < 500; i++) {
    const c = cities[Math.floor(r() * cities.length)]._geo;
    const radius = [50_000, 200_000, 1_000_000][i % 3];
    const t = performance.now();
    engine.search({ filter: `_geoRadius(${c.lat}, ${c.lng}, ${radius})`, sort: [`_geoPoint(${c.lat}, ${c.lng}):asc`], limit: 20 });
    samples.push(performance.now() - t);
  }
  console.log(fmt(`world-cities _geoRadius + _geoPoint (${cities.length})`, summarize(samples, performance.now() - t0)));
}

function main(): void {
  const [docs, loadMs] = time(loadDebian);
  console.log(`loaded ${docs.length} debian packages in ${loadMs.toFixed(0)} ms; rss ${mb(process.memoryUsage().rss)}`);
  if (onlyHybrid) {
    hybridBench(docs.slice(0, Number(process.env.BENCH_HYBRID_DOCS ?? docs.length)), makeQueries(docs, 200));
    return;
  }
  const settings: EngineSettings = {
    ...DEFAULT_SETTINGS,
    searchableAttributes: ['name', 'summary', 'description', 'tags'],
    filterableAttributes: ['section', 'priority', 'installed_size_kb'],
    sortableAttributes: ['installed_size_kb'],
  };
  const { engine, batchMs } = indexDebian(docs, settings);
  const totalMs = batchMs.reduce((a, b) => a + b, 0);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`engine indexing: ${docs.length} docs in ${(totalMs / 1000).toFixed(2)} s = ${Math.round(docs.length / (totalMs / 1000))} docs/s (1,000-doc batches, tail merges included)`);
  console.log(`  batch cost: median ${median(batchMs).toFixed(1)} ms, max ${Math.max(...batchMs).toFixed(1)} ms (first batches include JIT warm-up)`);
  // the same 1,000 documents (new ids) into an empty engine and into the full one, JIT warm, median of 5
  const extra = (k: number) => docs.slice(20_000, 21_000).map((d) => ({ ...d, id: 1_000_000 + k * 1000 + Number(d.id) }));
  const intoEmpty: number[] = [];
  const intoFull: number[] = [];
  for (let k = 0; k < 5; k++) {
    const empty = engineFactory.create(settings);
    intoEmpty.push(time(() => empty.addDocuments(extra(k), 'id'))[1]);
    intoFull.push(time(() => engine.addDocuments(extra(k), 'id'))[1]);
  }
  console.log(`  1,000 docs into an empty index: ${median(intoEmpty).toFixed(1)} ms; into the ${engine.size.toLocaleString('en')}-doc index: ${median(intoFull).toFixed(1)} ms (medians of 5; includes tail merges)`);
  // back to the corpus alone (the deletes only flip liveness; compact() below drops them)
  engine.deleteDocuments(Array.from({ length: 5 }, (_, k) => extra(k).map((d) => String(d.id))).flat());
  global.gc?.();
  console.log(`rss after loading (engine + documents): ${mb(process.memoryUsage().rss)}; heap used ${mb(process.memoryUsage().heapUsed)}, typed arrays ${mb(process.memoryUsage().arrayBuffers)}`);

  const queries = makeQueries(docs, 200);
  console.log(`queries (first 8): ${queries.slice(0, 8).map((q) => JSON.stringify(q)).join(' ')}`);
  runQueries(engine, queries.slice(0, 20)); // warm-up
  const segments = () => (engine as unknown as { segments: unknown[] }).segments.length;
  console.log(fmt(`engine, ${segments()} segments (as indexed)`, runQueries(engine, queries)));
  const [, compactMs] = time(() => engine.compact());
  console.log(`compact(): ${compactMs.toFixed(0)} ms`);
  runQueries(engine, queries.slice(0, 20));
  console.log(fmt(`engine, ${segments()} segments (after compact)`, runQueries(engine, queries)));
  console.log(fmt(`engine, matchingStrategy frequency (after compact)`, runQueries(engine, queries, { matchingStrategy: 'frequency' })));
  console.log(fmt(`engine, showRankingScore + details (after compact)`, runQueries(engine, queries, { showRankingScore: true, showRankingScoreDetails: true })));
  for (const attr of ['section', 'installed_size_kb']) {
    const cold = performance.now();
    const all = engine.search({ query: '', distinct: attr, limit: 1 });
    const coldMs = performance.now() - cold;
    const warm = performance.now();
    engine.search({ query: '', distinct: attr, limit: 1 });
    console.log(`distinct ${attr}: ${all.estimatedTotalHits} values; first search (keys read off the field indexes) ${coldMs.toFixed(1)} ms, next placeholder search over every document ${(performance.now() - warm).toFixed(1)} ms`);
    console.log(fmt(`engine, distinct: ${attr} (after compact)`, runQueries(engine, queries, { distinct: attr })));
  }
  const phrases = makePhrases(docs, 200);
  console.log(`phrase queries (first 4): ${phrases.slice(0, 4).map((q) => JSON.stringify(q)).join(' ')}`);
  runQueries(engine, phrases.slice(0, 20));
  console.log(fmt(`engine, "phrases" (after compact)`, runQueries(engine, phrases)));
  const [snap, snapMs] = time(() => JSON.stringify(engine.toSnapshot()));
  const [, restoreMs] = time(() => engineFactory.fromSnapshot(JSON.parse(snap), settings));
  console.log(`snapshot: ${mb(snap.length)} JSON, write ${snapMs.toFixed(0)} ms, restore ${restoreMs.toFixed(0)} ms (incl. JSON.parse)`);
  console.log(`rss: ${mb(process.memoryUsage().rss)}`);
  geoBench();
  if (withLunr) lunrBench(docs, queries);
  if (withHybrid) hybridBench(docs.slice(0, Number(process.env.BENCH_HYBRID_DOCS ?? docs.length)), queries);
}

main();
