// Hybrid search on the Debian corpus (used by search-engine.bench.ts and search-service.bench.ts):
// embedding cost, the HNSW build, recall@10 of the HNSW walk against the exact cosine scan (no
// filter, and a filter allowing about half the documents), and hybrid search latency in the engine.
import { buildGraphSteps, DEFAULT_SETTINGS, engineFactory, type Engine, type EngineSettings } from '../lib/search-engine/index.js';
import type { SnapshotData } from '../lib/search-engine/snapshot.js';
import type { SegmentedEngine } from '../lib/search-engine/engine.js';
import { embed, EF_SEARCH, EXACT_MAX } from '../lib/search-engine/vector-index.js';
import { toIds } from '../lib/search-engine/bitset.js';
import { FILTERS, indexDebian, time } from './search-corpus.js';
import { fmt, summarize } from './stats.js';
import { runSteps as run } from '../lib/generator-steps.js';

/**
 * Hybrid search on the Debian corpus, `name` and `summary` embedded: indexing cost with embeddings
 * (and the HNSW graph once past EXACT_MAX), recall@10 of the HNSW walk against the exact cosine
 * scan (no filter, and a filter allowing ~half the documents), their latencies, and hybrid search
 * latency with a filter and two facets.
 */
export function hybridBench(docs: Record<string, any>[], queries: string[]): { recall: number; recallFiltered: number } {
  const settings: EngineSettings = {
    ...DEFAULT_SETTINGS,
    searchableAttributes: ['name', 'summary', 'description', 'tags'],
    filterableAttributes: ['section', 'priority', 'installed_size_kb'],
    embeddingAttributes: ['name', 'summary'],
  };
  const { engine, batchMs } = indexDebian(docs, settings);
  const totalMs = batchMs.reduce((a, b) => a + b, 0);
  const vi = (engine as SegmentedEngine).vectors!;
  const [, embedMs] = time(() => docs.slice(0, 5000).forEach((d) => embed(`${d.name}\n${d.summary ?? ''}`)));
  console.log(
    `hybrid indexing (name + summary embedded): ${docs.length} docs in ${(totalMs / 1000).toFixed(2)} s = ${Math.round(docs.length / (totalMs / 1000))} docs/s ` +
      `(embedding alone ${((embedMs / 5000) * 1000).toFixed(0)} µs/doc; HNSW ${vi.graph ? `${vi.graph.size} nodes, m=${vi.graph.params.m}, efConstruction=${vi.graph.params.efConstruction}` : 'not built'})`,
  );
  const all = Array.from(toIds((engine as SegmentedEngine).alive));
  // below EXACT_MAX searches scan and no graph exists: build one to measure what it would answer
  if (!vi.graph) vi.buildGraph((engine as SegmentedEngine).alive);
  const half = all.filter((id) => docs[id]?.priority === 'optional');
  const halfSet = new Set(half);
  /**
   * recall@10 of the HNSW walk at width `ef` against the exact scan: the share of the exact top 10
   * the walk returned; "tie-aware" also counts a returned document whose similarity equals the
   * exact 10th's (short queries tie many documents, and which of them the scan keeps is arbitrary).
   */
  const measure = (label: string, allowed: number[], accept?: (id: number) => boolean): number => {
    const vectors = queries.map((q) => embed(q)).filter((v): v is Float32Array => !!v);
    const exactMs: number[] = [];
    const exact = vectors.map((v) => {
      const [r, te] = time(() => vi.exact(v, allowed, 10));
      exactMs.push(te);
      return r;
    });
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(fmt(`  exact cosine scan over ${allowed.length} (${label})`, summarize(exactMs, sum(exactMs))));
    let atDefault = 0;
    for (const ef of [EF_SEARCH, 2 * EF_SEARCH, 4 * EF_SEARCH]) {
      let found = 0;
      let tied = 0;
      let asked = 0;
      const hnswMs: number[] = [];
      vectors.forEach((v, i) => {
        const [approx, ta] = time(() => vi.graph?.search(v, 10, ef, accept) ?? { ids: [], sims: [] });
        hnswMs.push(ta);
        const got = new Set(approx.ids);
        const ex = exact[i];
        found += ex.ids.filter((id) => got.has(id)).length;
        const kth = ex.sims[ex.sims.length - 1] ?? 0;
        tied += Math.min(ex.ids.length, approx.sims.filter((x) => x >= kth - 1e-6).length);
        asked += ex.ids.length;
      });
      const recall = found / Math.max(1, asked);
      if (ef === EF_SEARCH) atDefault = recall;
      console.log(fmt(`  HNSW ef=${ef}: recall@10 ${recall.toFixed(3)}, tie-aware ${(tied / Math.max(1, asked)).toFixed(3)}`, summarize(hnswMs, sum(hnswMs))));
    }
    return atDefault;
  };
  const recall = measure('no filter', all);
  const recallFiltered = measure(`filter priority = optional: ${half.length} of ${all.length}`, half, (id) => halfSet.has(id));
  const run = (label: string, req: (q: string, i: number) => Parameters<Engine['search']>[0]) => {
    queries.slice(0, 20).forEach((q, i) => engine.search(req(q, i)));
    const samples: number[] = [];
    const t0 = performance.now();
    queries.forEach((q, i) => {
      const t = performance.now();
      engine.search(req(q, i));
      samples.push(performance.now() - t);
    });
    console.log(fmt(label, summarize(samples, performance.now() - t0)));
  };
  const base = (q: string, i: number) => ({ query: q, filter: FILTERS[i % FILTERS.length], facets: ['section', 'priority'], limit: 20 });
  run('  keyword (same index)', base);
  run('  hybrid, semanticRatio 0.5', (q, i) => ({ ...base(q, i), hybrid: { semanticRatio: 0.5 } }));
  run('  vector only (query embedded)', (q, i) => ({ ...base(q, i), hybrid: { semanticRatio: 1 } }));
  // similar documents: a document's stored vector as the query (one per query, spread over the corpus)
  run('  similar documents (similarTo, limit 20)', (_q, i) => ({ similarTo: String(docs[(i * 7919) % docs.length]!.id), limit: 20 }));
  console.log(`  (exact scan at most ${EXACT_MAX} candidates; above that the HNSW walk)`);
  olderGraphLoad(engine, settings, queries);
  return { recall, recallFiltered };
}


/**
 * The engine-thread part of a load from a snapshot whose graph an older builder made (this graph,
 * its snapshot marked builder 1): a search's load restores it and leaves it (compact(false)). The
 * search service then builds it again from the engine's vectors alone (graph-build.ts: the copy and
 * the placing on the event loop, the build in the engine thread; here one after the other), where it
 * loaded a second engine to do it before (restore + compact(), also timed): the extra memory of each.
 */
function olderGraphLoad(engine: Engine, settings: EngineSettings, queries: string[]): void {
  const snap = engine.toSnapshot() as SnapshotData;
  delete (snap.vectors as { hnsw: { builder?: number } }).hnsw.builder;
  const restore = () => engineFactory.fromSnapshot(structuredClone(snap), settings);
  const [old, restoreMs] = time(restore);
  const [, keepMs] = time(() => old.compact(false));
  console.log(
    `graph marked as builder 1's, engine part of a load (${engine.size} docs): restore ${(restoreMs / 1000).toFixed(2)} s, ` +
      `+ compact(false) (a search's load) ${(keepMs / 1000).toFixed(2)} s, graphDue ${old.graphDue()}`,
  );
  const vectorSearches = (label: string, e: Engine) => {
    const ms: number[] = [];
    const t0 = performance.now();
    for (const q of queries) ms.push(time(() => e.search({ query: q, hybrid: { semanticRatio: 1 }, limit: 20 }))[1]);
    console.log(fmt(`  vector only on the ${label}`, summarize(ms, performance.now() - t0)));
  };
  vectorSearches('older graph', old);
  const [second, secondMs] = time(() => {
    const e = restore();
    e.compact();
    return e;
  });
  const [input, copyMs] = time(() => run(old.graphInputSteps()!));
  const inputBytes = input.rows.byteLength + input.ids.byteLength;
  const [graph, buildMs] = time(() => run(buildGraphSteps(input)));
  const graphBytes = graph.nodes.byteLength + graph.links.byteLength;
  const [ready, readyMs] = time(() => run(old.readyGraphSteps(graph, 10_000)));
  if (!ready) throw new Error('the rebuilt graph was refused');
  const [placed, placeMs] = time(() => run(old.placeGraphSteps(ready, 10_000)));
  const inserted = placed === false ? 'refused' : ready.inserted + placed;
  const rebuilt = old;
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  console.log(
    `  rebuilt from the vectors (now): copy ${copyMs.toFixed(0)} ms, build ${(buildMs / 1000).toFixed(2)} s, made ready ${readyMs.toFixed(0)} ms (no lock), placed ${placeMs.toFixed(0)} ms under the lock (inserted ${inserted}), graphDue ${rebuilt.graphDue()}; ` +
      `extra memory: the rows ${mib(inputBytes)} + the built graph's arrays ${mib(graphBytes)}\n` +
      `  rebuilt in a second engine (before): restore + compact() ${(secondMs / 1000).toFixed(2)} s, graphDue ${second.graphDue()}; extra memory: the engine, ${mib(second.memoryBytes())} (estimate)`,
  );
  vectorSearches('graph rebuilt from the vectors', rebuilt);
  vectorSearches('graph rebuilt in a second engine', second);
}

