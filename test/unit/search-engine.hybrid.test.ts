// Hybrid search in the engine: the fusion rule, HNSW recall against the exact scan on real text,
// and the request's semantics (filters on vector results, _semanticScore, errors, snapshots).
import { readFileSync } from 'node:fs';
import { fuse, fusionDepth, RRF_K } from '../../lib/search-engine/fusion.js';
import { bitset, clear, setAll, toIds } from '../../lib/search-engine/bitset.js';
import { buildGraphSteps } from '../../lib/search-engine/graph-build.js';
import { embed, EXACT_MAX, EF_SEARCH, VectorIndex } from '../../lib/search-engine/vector-index.js';
import { HNSW_BUILDER } from '../../lib/search-engine/hnsw.js';
import { engineFactory, DEFAULT_SETTINGS } from '../../lib/search-engine/index.js';
import { sifEmbedding } from '../../lib/word-vectors.js';
import { engineWith, errorOf, ids } from './search-engine.fixtures.js';
import { defaultSettings, parseSettingsPatch } from '../../subgraphs/search/indexes/index-settings.rules.js';
import { settingsKey, toEngineSettings } from '../../subgraphs/search/indexes/engine-settings.js';
import { PACKAGES } from '../harness/search-packages.fixtures.js';
import { runSteps as run } from '../../lib/generator-steps.js';

describe('weighted reciprocal rank fusion', () => {
  it('scores (1 − r)/(60 + keyword rank) + r/(60 + vector rank)', () => {
    const f = fuse([1, 2, 3], [3, 4], 0.25);
    const score = Object.fromEntries(f.map((x) => [x.id, x.score]));
    expect(score[1]).toBeCloseTo(0.75 / 61);
    expect(score[3]).toBeCloseTo(0.75 / 63 + 0.25 / 61);
    expect(score[4]).toBeCloseTo(0.25 / 62);
    expect(f.map((x) => x.id)).toEqual([3, 1, 2, 4]);
    expect(f.find((x) => x.id === 4)).toMatchObject({ keywordRank: 0, vectorRank: 2 });
  });

  it('ratio 0 keeps the keyword order, 1 the vector order; ties go to the keyword rank', () => {
    expect(fuse([5, 6, 7], [], 0).map((x) => x.id)).toEqual([5, 6, 7]);
    expect(fuse([], [7, 6, 5], 1).map((x) => x.id)).toEqual([7, 6, 5]);
    // 8 is first in keywords, 9 first in vectors: equal scores at r = 0.5, keyword rank decides
    expect(fuse([8, 9], [9, 8], 0.5).map((x) => x.id)).toEqual([8, 9]);
  });

  it('no document below the fusion depth in both lists could have outscored the page (the depth rule)', () => {
    let seed = 7;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const perm = (len: number) => {
      const a = Array.from({ length: len }, (_, i) => i);
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    };
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(rnd() * 40);
      const r = Math.round(rnd() * 10) / 10;
      const kw = perm(600);
      const vec = perm(600);
      const depth = fusionDepth(n, 1000);
      const page = fuse(kw.slice(0, depth), vec.slice(0, depth), r).slice(0, n);
      const seen = new Set([...kw.slice(0, depth), ...vec.slice(0, depth)]);
      const unseenBest = Math.max(...fuse(kw, vec, r).filter((f) => !seen.has(f.id)).map((f) => f.score));
      expect(unseenBest).toBeLessThan(page[page.length - 1].score);
    }
    expect(fusionDepth(20, 1000)).toBe(RRF_K + 40);
  });
});

/** 7,200 real messages (gettext catalogues of Debian packages) in six languages. */
function messages(): string[] {
  const f = JSON.parse(readFileSync(new URL('../relevance/fixtures/gettext-multilingual.json', import.meta.url), 'utf8'));
  return Object.values(f.languages as Record<string, { documents: { text: string }[] }>).flatMap((l) => l.documents.map((d) => d.text));
}

describe('vector index: HNSW against the exact scan', () => {
  const texts = messages();
  const docs = texts.map((text, id) => ({ id, doc: { text } }));
  const vi = new VectorIndex(['text']);
  const alive = bitset(docs.length);
  setAll(alive, docs.map((d) => d.id));
  vi.add(docs, alive);
  // 7,200 messages stay below EXACT_MAX, where searches scan; the graph is built here to compare it
  if (!vi.graph) vi.buildGraph(alive);
  const queries = texts.filter((_, i) => i % 37 === 0).map((t) => t.split(/\s+/).slice(0, 4).join(' '));
  // messages of punctuation and placeholders only ("%s: %s") have no words, so no vector
  const withVector = docs.map((d) => d.id).filter((id) => vi.vector(id));

  function recall(accept: (id: number) => boolean, allowedIds: number[]): number {
    let found = 0;
    let asked = 0;
    for (const q of queries) {
      const v = embed(q);
      if (!v) continue;
      const exact = vi.exact(v, allowedIds, 10).ids;
      const approx = new Set(vi.graph!.search(v, 10, EF_SEARCH, accept).ids);
      found += exact.filter((id) => approx.has(id)).length;
      asked += exact.length;
    }
    return found / asked;
  }

  it('holds every document with a vector in the graph; searches scan below EXACT_MAX', () => {
    expect(vi.graph?.size).toBe(withVector.length);
    expect(withVector.length).toBeLessThan(EXACT_MAX);
  });

  it('recall@10 of HNSW is at least 0.93 of the exact top 10', () => {
    expect(recall(() => true, withVector)).toBeGreaterThanOrEqual(0.93);
  });

  it('reaches every node from its entry, also where many documents share one text (no list filled with copies)', () => {
    expect(vi.graph!.reachable()).toBe(vi.graph!.size);
    // 2,000 documents of five texts (as the Debian catalogue's transitional and debug packages), among 3,000 others
    const copies = ['transitional package', 'debug symbols', 'documentation files', 'development files', 'shared library'];
    const mixed = [...texts.slice(0, 3000).map((text) => ({ text })), ...Array.from({ length: 2000 }, (_, i) => ({ text: copies[i % copies.length] }))];
    const many = new VectorIndex(['text']);
    const live = bitset(mixed.length);
    setAll(live, mixed.map((_, id) => id));
    many.add(mixed.map((doc, id) => ({ id, doc })), live);
    many.buildGraph(live);
    // a copy beyond the first of its text may be left without a link to it (the search finds its twin); nothing else is
    expect(many.graph!.reachable()).toBeGreaterThanOrEqual(many.graph!.size - 2000);
    // searching with a message's own vector finds it (or a copy of its vector) first
    const own = mixed.map((_, id) => id).filter((id) => id < 3000 && many.vector(id));
    const missed = own.filter((id) => !(many.graph!.search(many.vector(id)!, 1, EF_SEARCH).sims[0]! >= 1 - 1e-5));
    expect(missed.length).toBeLessThan(own.length * 0.01);
  });

  it('restores its graph from a snapshot, with the builder that made it', () => {
    const snap = vi.toSnapshot(alive);
    expect(snap.hnsw?.builder).toBe(HNSW_BUILDER);
    const restored = VectorIndex.fromSnapshot(snap);
    expect(restored.graph?.size).toBe(vi.graph!.size);
    expect(restored.graph!.reachable()).toBe(vi.graph!.size);
    expect(restored.graph!.builder).toBe(HNSW_BUILDER);
    // below EXACT_MAX live vectors no graph is due: compact() drops a restored one
    expect(restored.compact(alive)).toBe(true);
    expect(restored.graph).toBeNull();
  });

  it("restores an older builder's graph, which answers until compact() builds it again (graphDue; compact(alive, false) leaves it)", () => {
    // 11,500 texts (two messages each), so searches walk the graph
    const n = EXACT_MAX + 1500;
    const big = Array.from({ length: n }, (_, id) => ({ id, doc: { text: `${texts[id % texts.length]} ${texts[(id * 13 + 5) % texts.length]}` } }));
    const live = bitset(n);
    setAll(live, big.map((d) => d.id));
    const built = new VectorIndex(['text']);
    built.add(big, live);
    expect(built.graph).not.toBeNull();
    const snap = built.toSnapshot(live);
    const { builder: _b, ...older } = snap.hnsw!;
    const old = VectorIndex.fromSnapshot({ ...snap, hnsw: older });
    expect(old.graph?.builder).toBe(1);
    expect(old.graphDue(live)).toBe(true);
    expect(built.graphDue(live)).toBe(false);
    const q = embed(texts[42])!;
    const exact = old.exact(q, toIds(old.candidates(live)), 10).ids;
    const walked = old.nearest(q, live, 10).ids;
    expect(walked).toHaveLength(10);
    expect(walked.filter((id) => exact.includes(id)).length).toBeGreaterThanOrEqual(8);
    // a search's load leaves it (the search service builds it in a background load)
    expect(old.compact(live, false)).toBe(false);
    expect(old.graph?.builder).toBe(1);
    expect(old.compact(live)).toBe(true);
    expect(old.graph?.builder).toBe(HNSW_BUILDER);
    expect(old.graphDue(live)).toBe(false);
    expect(old.graph!.reachable()).toBe(old.graph!.size);
  });

  it('builds its graph away from the index (graph-build.ts) from its live vectors, makes it ready with the vectors added meanwhile, and places it with those added since', () => {
    const n = EXACT_MAX + 1500;
    const doc = (id: number) => ({ id, doc: { text: `${texts[id % texts.length]} ${texts[(id * 13 + 5) % texts.length]}` } });
    const big = Array.from({ length: n }, (_, id) => doc(id));
    const live = bitset(n + 400);
    setAll(live, big.map((d) => d.id));
    const built = new VectorIndex(['text']);
    built.add(big, live);
    const { builder: _b, ...older } = built.toSnapshot(live).hnsw!;
    const vi = VectorIndex.fromSnapshot({ ...built.toSnapshot(live), hnsw: older });
    expect(vi.graphDue(live)).toBe(true);
    const input = run(vi.graphInputSteps(live));
    expect(Array.from(input.ids)).toEqual(Array.from(toIds(vi.candidates(live))));
    expect(input.rows.subarray(5 * vi.dims, 6 * vi.dims)).toEqual(vi.vector(input.ids[5]));
    // meanwhile the index takes 300 documents (into the graph it has) and deletes 200
    const more = Array.from({ length: 300 }, (_, k) => doc(n + k));
    setAll(live, more.map((d) => d.id));
    vi.add(more, live);
    for (let id = 0; id < 200; id++) clear(live, id);
    const added = more.filter((d) => vi.vector(d.id)).length;
    expect(added).toBeGreaterThan(250);
    const graph = run(buildGraphSteps(input));
    expect(graph.builder).toBe(HNSW_BUILDER);
    // the graph the index would build in place from the same vectors (levels from the same ids)
    const { nodes, links, entry } = built.graph!.toSnapshot();
    expect({ nodes: graph.nodes, links: graph.links, entry: graph.entry }).toEqual({ nodes, links, entry });
    // over the bound of insertions it is refused, and the loaded graph stays
    expect(run(vi.readyGraphSteps(graph, () => live, added - 1))).toBe(false);
    expect(vi.graph!.builder).toBe(1);
    // made ready (restored, the 300 inserted) without changing the index: the loaded graph answers
    const made = run(vi.readyGraphSteps(graph, () => live, 10_000));
    if (!made) throw new Error('refused');
    const ready = made.graph;
    expect([made.inserted, ready.size]).toEqual([added, input.ids.length + added]);
    expect(vi.graph!.builder).toBe(1);
    // meanwhile 40 more come in (into the loaded graph): placing inserts just those
    const late = Array.from({ length: 40 }, (_, k) => doc(n + 300 + k));
    setAll(live, late.map((d) => d.id));
    vi.add(late, live);
    const lateAdded = late.filter((d) => vi.vector(d.id)).length;
    expect(run(vi.placeGraphSteps(ready, live, lateAdded - 1))).toBe(false);
    expect(vi.graph!.builder).toBe(1);
    expect(run(vi.placeGraphSteps(ready, live, 10_000))).toBe(lateAdded);
    expect(vi.graph).toBe(ready);
    expect(vi.graph!.builder).toBe(HNSW_BUILDER);
    expect(vi.graphDue(live)).toBe(false);
    expect(vi.graph!.size).toBe(input.ids.length + added + lateAdded);
    expect(vi.graph!.reachable()).toBe(vi.graph!.size);
    // it answers as the exact scan does, for documents from before and after the copy
    for (const id of [4200, 5000, ...more.slice(-20).map((d) => d.id)].filter((x) => vi.vector(x)).slice(0, 6)) {
      const q = vi.vector(id)!;
      const exact = vi.exact(q, toIds(vi.candidates(live)), 10).ids;
      const walked = vi.nearest(q, live, 10).ids;
      expect(walked).toHaveLength(10);
      expect(walked.filter((x) => exact.includes(x)).length).toBeGreaterThanOrEqual(8);
    }
  });

  it('keeps its recall under a filter that allows half the documents', () => {
    const even = withVector.filter((id) => id % 2 === 0);
    expect(recall((id) => id % 2 === 0, even)).toBeGreaterThanOrEqual(0.9);
  });

  it('stores the AI service\'s vector of the text (one embedding function)', () => {
    const id = withVector[3];
    const v = vi.vector(id)!;
    const expected = sifEmbedding(texts[id]).vector;
    expect(Array.from(v).map((x) => x.toFixed(5))).toEqual(expected.map((x) => Math.fround(x).toFixed(5)));
  });
});


describe('hybrid and vector search through the engine', () => {
  const settings = { filterableAttributes: ['section'], embeddingAttributes: ['name', 'summary'] };

  it('pure vector search ranks by cosine similarity and puts _semanticScore on hits', () => {
    const e = engineWith(PACKAGES, settings);
    const v = Array.from(embed('webserver memory footprint')!);
    const r = e.search({ vector: v, limit: 3, attributesToHighlight: [] });
    expect(r.hits[0].id).toBe(6);
    const scores = r.hits.map((h) => h._semanticScore as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0.3);
    expect(r.estimatedTotalHits).toBe(6);
  });

  it('ranking score: the similarity for a vector search, the better of keyword score and similarity for a hybrid one', () => {
    const e = engineWith(PACKAGES, settings);
    const v = Array.from(embed('webserver memory footprint')!);
    const pure = e.search({ vector: v, limit: 3, attributesToHighlight: [], showRankingScore: true });
    for (const h of pure.hits) expect(h._rankingScore).toBeCloseTo(Math.max(0, h._semanticScore as number), 5);
    const hybrid = e.search({ query: 'compression', vector: v, hybrid: { semanticRatio: 0.5 }, showRankingScore: true, showRankingScoreDetails: true });
    for (const h of hybrid.hits) {
      expect(h._rankingScore).toBeGreaterThanOrEqual(Math.max(0, h._semanticScore as number) - 1e-6);
      expect((h._rankingScoreDetails as Record<string, unknown>).vectorSort).toEqual({ order: expect.any(Number), similarity: expect.any(Number) });
    }
    const keywordHit = hybrid.hits.find((h) => /compression/i.test(JSON.stringify(h)))!;
    expect(keywordHit._rankingScoreDetails).toHaveProperty('words');
  });

  it('applies the filter to the vector results', () => {
    const e = engineWith(PACKAGES, settings);
    const v = Array.from(embed('webserver memory footprint')!);
    expect(ids(e, { vector: v, filter: 'section = utils' }).sort()).toEqual(['1', '2', '5']);
    const r = e.search({ query: 'compression', hybrid: { semanticRatio: 0.9 }, filter: 'section = httpd' });
    expect(r.hits.every((h) => h.section === 'httpd')).toBe(true);
  });

  it('hybrid search adds documents the words miss, and ratio 0 is the keyword search', () => {
    const e = engineWith(PACKAGES, settings);
    const keyword = ids(e, { query: 'webserver' });
    expect(keyword).toEqual(['6']);
    const hybrid = ids(e, { query: 'webserver', hybrid: { semanticRatio: 0.5 } });
    expect(hybrid[0]).toBe('6');
    expect(hybrid.length).toBeGreaterThan(1);
    expect(ids(e, { query: 'webserver', hybrid: { semanticRatio: 0 } })).toEqual(keyword);
    const r = e.search({ query: 'webserver', hybrid: {}, facets: ['section'] });
    expect(r.estimatedTotalHits).toBe(hybrid.length);
    expect(Object.values(r.facetDistribution!.section).reduce((a, b) => a + b, 0)).toBe(hybrid.length);
  });

  it('errors name the parameter', () => {
    const plain = engineWith(PACKAGES, { filterableAttributes: ['section'] });
    expect(errorOf(() => plain.search({ query: 'x', hybrid: { semanticRatio: 0.5 } }))).toMatchObject({ code: 'invalid_search_hybrid_query', parameter: 'hybrid' });
    expect(errorOf(() => plain.search({ vector: [1] }))).toMatchObject({ code: 'invalid_search_hybrid_query', parameter: 'vector' });
    const e = engineWith(PACKAGES, settings);
    expect(errorOf(() => e.search({ query: 'x', hybrid: { semanticRatio: 1.5 } }))).toMatchObject({ code: 'invalid_search_semantic_ratio', parameter: 'hybrid.semanticRatio' });
    expect(errorOf(() => e.search({ vector: [1, 2, 3] }))).toMatchObject({ code: 'invalid_search_vector', parameter: 'vector' });
    expect(errorOf(() => e.search({ vector: new Array(100).fill(0) }))).toMatchObject({ code: 'invalid_search_vector', parameter: 'vector' });
    expect(errorOf(() => e.search({ query: 'x', hybrid: {}, sort: ['name:asc'] }))).toMatchObject({ parameter: 'sort' });
  });

  it('keeps vectors in the snapshot; other embedding attributes embed again', () => {
    const e = engineWith(PACKAGES, settings);
    const q = { query: 'fast compression', hybrid: { semanticRatio: 0.7 } };
    const snap = JSON.parse(JSON.stringify(e.toSnapshot()));
    expect(snap.vectors.model).toBe('glove-sif-100d');
    const restored = engineFactory.fromSnapshot(snap, { ...DEFAULT_SETTINGS, ...settings });
    expect(restored.search(q).hits).toEqual(e.search(q).hits);
    const other = engineFactory.fromSnapshot(snap, { ...DEFAULT_SETTINGS, ...settings, embeddingAttributes: ['summary'] });
    expect((other.toSnapshot() as { vectors: { attributes: string[] } }).vectors.attributes).toEqual(['summary']);
    expect(other.search({ vector: Array.from(embed('XZ-format compression utilities')!), limit: 1 }).hits[0]._semanticScore).toBeCloseTo(1, 5);
    // a snapshot made before vectors existed: the engine embeds its documents
    const { vectors: _v, ...old } = snap;
    expect(engineFactory.fromSnapshot(old, { ...DEFAULT_SETTINGS, ...settings }).search(q).hits).toEqual(e.search(q).hits);
  });

  it('settings without embedding attributes leave the engine as it was; adding them embeds the documents', () => {
    const e = engineWith(PACKAGES, { filterableAttributes: ['section'] });
    expect(e.toSnapshot()).not.toHaveProperty('vectors');
    e.updateSettings({ ...DEFAULT_SETTINGS, ...settings });
    expect(ids(e, { vector: Array.from(embed('Apache HTTP Server')!), limit: 1 })).toEqual(['4']);
  });

  it('replaced and deleted documents leave the vector results', () => {
    const e = engineWith(PACKAGES, settings);
    e.deleteDocuments(['6']);
    e.addDocuments([{ id: 3, name: 'nginx', section: 'httpd', summary: 'reverse proxy' }], 'id');
    const got = ids(e, { vector: Array.from(embed('webserver memory footprint')!) });
    expect(got).not.toContain('6');
    expect(got.filter((x) => x === '3')).toHaveLength(1);
  });
});

describe('similar documents (similarTo)', () => {
  const settings = { filterableAttributes: ['section'], embeddingAttributes: ['name', 'summary'] };

  it('ranks the other documents as a vector search with the document\'s own vector, leaving it out', () => {
    const e = engineWith(PACKAGES, settings);
    const r = e.search({ similarTo: 6, limit: 10, showRankingScore: true });
    const own = e.search({ vector: Array.from(embed(`${PACKAGES[5]!.name}\n${PACKAGES[5]!.summary}`)!), limit: 10 });
    expect(r.hits.map((h) => h.id)).toEqual(own.hits.map((h) => h.id).filter((id) => id !== 6));
    expect(r.estimatedTotalHits).toBe(PACKAGES.length - 1);
    for (const h of r.hits) expect(h._rankingScore).toBeCloseTo(Math.max(0, h._semanticScore as number), 5);
    // a string id names the same document; the query is not used
    expect(ids(e, { similarTo: '6', query: 'zzz' })).toEqual(r.hits.map((h) => String(h.id)));
  });

  it('takes the filter and paging of a search', () => {
    const e = engineWith(PACKAGES, settings);
    const all = ids(e, { similarTo: 1 });
    expect(ids(e, { similarTo: 1, filter: 'section = utils' })).toEqual(all.filter((id) => ['2', '5'].includes(id)));
    expect(ids(e, { similarTo: 1, offset: 1, limit: 2 })).toEqual(all.slice(1, 3));
  });

  it('errors: an unknown or deleted id is not_found_similar_id, a malformed one invalid_similar_id, an index without vectors invalid_similar_embedder; all name id', () => {
    const e = engineWith(PACKAGES, settings);
    expect(errorOf(() => e.search({ similarTo: 999 }))).toMatchObject({ code: 'not_found_similar_id', parameter: 'id' });
    e.deleteDocuments(['6']);
    expect(errorOf(() => e.search({ similarTo: 6 }))).toMatchObject({ code: 'not_found_similar_id', parameter: 'id' });
    expect(errorOf(() => e.search({ similarTo: 1.5 }))).toMatchObject({ code: 'invalid_similar_id', parameter: 'id' });
    expect(errorOf(() => e.search({ similarTo: {} as never }))).toMatchObject({ code: 'invalid_similar_id', parameter: 'id' });
    const plain = engineWith(PACKAGES, { filterableAttributes: ['section'] });
    expect(errorOf(() => plain.search({ similarTo: 1 }))).toMatchObject({ code: 'invalid_similar_embedder', parameter: 'id' });
  });

  it('a document without text to embed has nothing close to it', () => {
    const e = engineWith([...PACKAGES, { id: 99, section: 'utils' }], settings);
    expect(e.search({ similarTo: 99 }).hits).toEqual([]);
  });
});

describe('the embedding_attributes setting', () => {
  it('is a list of attribute names (either spelling), duplicates dropped; anything else names the setting', () => {
    expect(parseSettingsPatch({ embedding_attributes: ['name', 'name', 'summary'] }, '')).toEqual({ embedding_attributes: ['name', 'summary'] });
    expect(parseSettingsPatch({ embeddingAttributes: ['name'] }, 'settings')).toEqual({ embedding_attributes: ['name'] });
    expect(() => parseSettingsPatch({ embedding_attributes: 'name' }, '')).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', opts: { parameter: 'embedding_attributes' } }));
  });

  it('leaves the engine settings (and so the settings key) of an index without it as they were', () => {
    const before = { ...defaultSettings() } as Record<string, unknown>;
    delete before.embedding_attributes;
    delete before.languages;
    const old = before as unknown as ReturnType<typeof defaultSettings>;
    expect(settingsKey({ ...defaultSettings() })).toBe(settingsKey(old));
    expect(toEngineSettings({ ...defaultSettings(), embedding_attributes: ['name'] }).embeddingAttributes).toEqual(['name']);
  });
});
