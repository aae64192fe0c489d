// Segments: each batch is a new immutable segment; updates and deletes only flip liveness; compaction
// and snapshots must not change any result.
import { engineFactory, DEFAULT_SETTINGS, type Engine, type EngineSettings, type SearchRequest } from '../../lib/search-engine/index.js';
import { decodeSegment, transferCodec } from '../../lib/search-engine/snapshot.js';
import { packPostingStarts, postingStart } from '../../lib/search-engine/segment.js';
import type { SegmentedEngine } from '../../lib/search-engine/engine.js';
import { engineWith, errorOf, ids } from './search-engine.fixtures.js';

const segmentsOf = (e: Engine) => (e as unknown as { segments: unknown[] }).segments;

describe('positions', () => {
  // two attributes: 15 bits are left for word indexes, which this document's text goes past
  const long = Array.from({ length: 33_000 }, (_, i) => `w${i}`).join(' ');
  const docs = [
    { id: 1, t: 'alpha beta', u: 'x' },
    { id: 2, t: `${long} alpha beta` },
    { id: 3, t: 'beta gamma alpha' },
    { id: 4, t: 'alpha delta' },
  ];
  const positionsOf = (e: Engine) => (segmentsOf(e) as { positions: unknown }[]).map((s) => s.positions);

  test('16-bit where attribute and word index fit together, 32-bit otherwise; answers agree', () => {
    const small = engineWith(docs.filter((d) => d.id !== 2));
    const big = engineWith(docs);
    expect(positionsOf(small)[0]).toBeInstanceOf(Uint16Array);
    expect(positionsOf(big)[0]).toBeInstanceOf(Uint32Array);
    // proximity (adjacent in 1 and 2, backwards in 3), then attribute (word positions: 1 before 2)
    expect(ids(big, { query: 'alpha beta' })).toEqual(['1', '2', '3', '4']);
    expect(ids(small, { query: 'alpha beta' })).toEqual(['1', '3', '4']);
    // a merge of both kinds (four batches: the tail merge) keeps every position
    const merged = engineWith([]);
    for (const d of docs) merged.addDocuments([d], 'id');
    expect(segmentsOf(merged)).toHaveLength(1);
    expect(positionsOf(merged)[0]).toBeInstanceOf(Uint32Array);
    expect(ids(merged, { query: 'alpha beta' })).toEqual(['1', '2', '3', '4']);
    const hit = merged.search({ query: 'alpha beta', showMatchesPosition: true }).hits[1] as { _matchesPosition: Record<string, unknown[]> };
    expect(hit._matchesPosition.t).toHaveLength(2);
  });
});

describe('writes', () => {
  test('adding by an existing id replaces the document', () => {
    const e = engineWith([{ id: 1, t: 'alpha', n: 1 }], { filterableAttributes: ['n'] });
    expect(e.addDocuments([{ id: 1, t: 'bravo', n: 2 }], 'id')).toBe(1);
    expect(e.size).toBe(1);
    expect(ids(e, { query: 'alpha' })).toEqual([]);
    expect(ids(e, { query: 'bravo' })).toEqual(['1']);
    expect(ids(e, { filter: 'n = 1' })).toEqual([]);
    expect(e.getDocument('1')).toEqual({ id: 1, t: 'bravo', n: 2 });
  });

  test('within one batch the last version of an id wins', () => {
    const e = engineWith([]);
    expect(e.addDocuments([{ id: 'a', t: 'one' }, { id: 'a', t: 'two' }, { id: 'b', t: 'two' }], 'id')).toBe(2);
    expect(ids(e, { query: 'one' })).toEqual([]);
    expect(ids(e, { query: 'two' })).toEqual(['a', 'b']);
  });

  test('deleting hides the document from search, filters, facets and counts', () => {
    const e = engineWith(
      [
        { id: 1, t: 'x', c: 'red' },
        { id: 2, t: 'x', c: 'red' },
        { id: 3, t: 'x', c: 'blue' },
      ],
      { filterableAttributes: ['c'] },
    );
    expect(e.deleteDocuments(['2', 'missing'])).toBe(1);
    expect(e.size).toBe(2);
    expect(e.getDocument('2')).toBeUndefined();
    const r = e.search({ query: 'x', facets: ['c'] });
    expect(r.hits.map((h) => h.id)).toEqual([1, 3]);
    expect(r.estimatedTotalHits).toBe(2);
    expect(r.facetDistribution).toEqual({ c: { blue: 1, red: 1 } });
    expect(e.filterIds('NOT c = blue')).toEqual(['1']);
  });

  test('ids: integers and [A-Za-z0-9_-] strings; a bad batch changes nothing', () => {
    const e = engineWith([{ id: 'keep', t: 'x' }]);
    expect(errorOf(() => e.addDocuments([{ id: 'ok', t: 'x' }, { t: 'no id' }], 'id'))).toMatchObject({ code: 'missing_document_id', parameter: 'documents' });
    expect(errorOf(() => e.addDocuments([{ id: 'a b' }], 'id')).code).toBe('invalid_document_id');
    expect(errorOf(() => e.addDocuments([{ id: 1.5 }], 'id')).code).toBe('invalid_document_id');
    expect(errorOf(() => e.addDocuments([{ id: { x: 1 } }], 'id')).code).toBe('invalid_document_id');
    expect(e.size).toBe(1);
    expect(e.addDocuments([{ id: 'A-z_09', t: 'x' }, { id: 42 }], 'id')).toBe(2);
    expect(e.getDocument('42')).toEqual({ id: 42 });
  });

  test('a batch adds a segment and leaves the existing ones untouched', () => {
    const e = engineWith([{ id: 1, t: 'x' }]);
    const before = [...segmentsOf(e)];
    e.addDocuments([{ id: 1, t: 'y' }, { id: 2, t: 'x' }], 'id');
    const after = segmentsOf(e);
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(before[0]);
  });
});

/** A deterministic index built from many small batches with updates and deletes in between. */
function churned(settings: Partial<EngineSettings>): Engine {
  const e = engineFactory.create({ ...DEFAULT_SETTINGS, ...settings });
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  for (let batch = 0; batch < 24; batch++) {
    const docs = Array.from({ length: 1000 }, () => {
      const id = rand(20000);
      return { id, t: Array.from({ length: 2 + rand(6) }, () => words[rand(words.length)]).join(' '), c: words[rand(3)], n: rand(100), _geo: { lat: rand(90), lng: rand(180) } };
    });
    e.addDocuments(docs, 'id');
    if (batch % 5 === 4) e.deleteDocuments(Array.from({ length: 600 }, () => String(rand(20000))));
  }
  return e;
}

const SETTINGS: Partial<EngineSettings> = { searchableAttributes: ['t'], filterableAttributes: ['c', 'n', '_geo'], sortableAttributes: ['n', '_geo'] };
const REQUESTS: SearchRequest[] = [
  { query: 'alpha bravo', facets: ['c', 'n'] },
  { query: 'charli', filter: 'n > 50', limit: 50 },
  { query: 'delta echo foxtrot', sort: ['n:desc'], offset: 5, limit: 30 },
  { query: '', filter: 'c IN [alpha, charlie]', facets: ['c'] },
  { query: 'hotell', attributesToHighlight: ['t'] },
  { query: '', filter: '_geoRadius(45, 90, 2000000)', sort: ['_geoPoint(45, 90):asc'], limit: 40 },
];

/** The same live documents indexed from scratch in one batch, in the same (insertion) order. */
function fresh(e: Engine): Engine {
  const n = engineFactory.create({ ...DEFAULT_SETTINGS, ...SETTINGS });
  n.addDocuments(e.filterIds(undefined).map((id) => e.getDocument(id)!), 'id');
  return n;
}
const results = (e: Engine) => REQUESTS.map((r) => ({ ...e.search(r), processingTimeMs: 0 }));

describe('compaction', () => {
  test('segments, merges and dead documents never change a result', () => {
    const e = churned(SETTINGS);
    const segs = segmentsOf(e).length;
    expect(segs).toBeGreaterThanOrEqual(3);
    const truth = results(fresh(e));
    expect(truth.every((r) => r.hits.length > 0)).toBe(true);
    expect(results(e)).toEqual(truth);
    const size = e.size;
    const stored = () => (segmentsOf(e) as { docIds: Int32Array }[]).reduce((n, seg) => n + seg.docIds.length, 0);
    expect(stored()).toBeGreaterThan(size); // dead versions still sit in segments
    e.compact();
    expect(segmentsOf(e).length).toBeLessThanOrEqual(segs);
    expect(stored()).toBeLessThan(size * 1.3); // segments with many dead documents were rewritten
    expect(e.size).toBe(size);
    expect(results(e)).toEqual(truth);
    // writes after compaction still work
    e.addDocuments([{ id: 99999, t: 'alpha bravo zulu', c: 'alpha', n: 1 }], 'id');
    expect(ids(e, { query: 'zulu' })).toEqual(['99999']);
  });

  test('small batches are merged as they arrive; large merges wait for compact()', () => {
    const e = engineWith([]);
    for (let b = 0; b < 16; b++) e.addDocuments([{ id: b, t: 'x' }], 'id');
    expect(segmentsOf(e).length).toBe(1);
  });

  test('compaction in steps: writes and deletes between the steps, results as a fresh index', () => {
    const e = churned(SETTINGS);
    const steps = e.compactSteps();
    let n = 0;
    let seed = 11;
    const rand = (k: number) => (seed = (seed * 48271) % 2147483647) % k;
    // every few steps a batch (new and replaced documents) and deletions land in the middle of a merge
    while (!steps.next().done) {
      if (++n % 3) continue;
      e.addDocuments(Array.from({ length: 40 }, () => ({ id: rand(20000), t: 'alpha echo', c: 'bravo', n: rand(100), _geo: { lat: 1, lng: 2 } })), 'id');
      e.deleteDocuments(Array.from({ length: 30 }, () => String(rand(20000))));
    }
    expect(n).toBeGreaterThan(3);
    expect(results(e)).toEqual(results(fresh(e)));
    // live counts per segment stay exact (the next compaction decides from them)
    const segs = segmentsOf(e) as { docIds: Int32Array }[];
    const live = new Set(e.filterIds(undefined));
    const liveIn = segs.reduce((k, seg) => k + [...seg.docIds].filter((d) => live.has((e as unknown as { extIds: string[] }).extIds[d])).length, 0);
    expect(liveIn).toBe(e.size);
    e.compact();
    expect(results(e)).toEqual(results(fresh(e)));
  });

  test('a merge whose input segments changed meanwhile is dropped, not put in place', () => {
    const e = engineWith([], SETTINGS);
    for (let b = 0; b < 8; b++) e.addDocuments(Array.from({ length: 4000 }, (_, i) => ({ id: b * 4000 + i, t: `w${i % 50}`, c: 'x', n: i })), 'id');
    const before = segmentsOf(e).length;
    const steps = e.compactSteps();
    steps.next(); // a merge is under way
    e.updateSettings({ ...DEFAULT_SETTINGS, ...SETTINGS, searchableAttributes: ['t', 'c'] }); // re-indexes: new segments
    const rebuilt = [...segmentsOf(e)];
    let r = steps.next();
    while (!r.done) r = steps.next();
    expect(r.value).toBe(0);
    expect(segmentsOf(e)).toEqual(rebuilt);
    expect(before).toBeGreaterThan(1);
    expect(e.search({ query: 'w7' }).estimatedTotalHits).toBe(8 * 80);
  });

  test('repeated compaction reaches a logarithmic number of segments', () => {
    const e = engineWith([]);
    for (let b = 0; b < 64; b++) e.addDocuments(Array.from({ length: 1000 }, (_, i) => ({ id: b * 1000 + i, t: `w${i % 50}` })), 'id');
    e.compact();
    expect(segmentsOf(e).length).toBe(1);
    expect(e.search({ query: 'w7' }).estimatedTotalHits).toBe(64 * 20);
  });
});

describe('snapshots', () => {
  test('a JSON round trip restores identical results', () => {
    const e = churned(SETTINGS);
    const snap = JSON.parse(JSON.stringify(e.toSnapshot()));
    const r = engineFactory.fromSnapshot(snap, { ...DEFAULT_SETTINGS, ...SETTINGS });
    expect(r.size).toBe(e.size);
    expect(results(r)).toEqual(results(e));
    // and keeps accepting writes and deletes
    r.deleteDocuments(e.filterIds('c = alpha'));
    expect(r.filterIds('c = alpha')).toEqual([]);
  });

  test('restoring with other searchable/filterable attributes re-indexes', () => {
    const e = engineWith([{ id: 1, a: 'alpha', b: 'bravo' }], { searchableAttributes: ['a'] });
    const r = engineFactory.fromSnapshot(e.toSnapshot(), { ...DEFAULT_SETTINGS, searchableAttributes: ['b'], filterableAttributes: ['a'] });
    expect(ids(r, { query: 'alpha' })).toEqual([]);
    expect(ids(r, { query: 'bravo' })).toEqual(['1']);
    expect(ids(r, { filter: 'a = alpha' })).toEqual(['1']);
  });

  test('handed to another thread (typed arrays transferred, not base64) it restores identical results', () => {
    const e = churned(SETTINGS);
    const codec = transferCodec();
    const snap = e.toSnapshot(codec) as { segments: Record<string, unknown>[] };
    expect(snap.segments[0].pDocs).toBeInstanceOf(Int32Array);
    expect(codec.transfer.length).toBeGreaterThan(snap.segments.length * 5);
    // what postMessage does: a structured clone, the listed buffers moved
    const moved = structuredClone(snap, { transfer: codec.transfer });
    expect(codec.transfer[0].byteLength).toBe(0); // detached on the sending side
    const r = engineFactory.fromSnapshot(moved, { ...DEFAULT_SETTINGS, ...SETTINGS });
    expect(r.size).toBe(e.size);
    expect(results(r)).toEqual(results(e));
  });

  test('moved (move: arrays that are their whole buffer go without a copy) it restores identical results', () => {
    const e = churned(SETTINGS);
    const expected = results(e);
    const size = e.size;
    const codec = transferCodec({ move: true });
    const snap = e.toSnapshot(codec);
    const moved = structuredClone(snap, { transfer: codec.transfer });
    const r = engineFactory.fromSnapshot(moved, { ...DEFAULT_SETTINGS, ...SETTINGS });
    expect(r.size).toBe(size);
    expect(results(r)).toEqual(expected);
  });

  test('memoryBytes: typed arrays exactly, bodies as the deflated document store holds them', () => {
    const docs = Array.from({ length: 3000 }, (_, i) => ({ id: i, t: `word${i % 97} shared text number ${i}`, c: `c${i % 7}` }));
    const e = engineWith(docs, { filterableAttributes: ['c'] });
    const json = docs.reduce((n, d) => n + JSON.stringify(d).length, 0);
    // the last blocks may still be deflating on the thread pool (their text counts until stored)
    const store = (e as unknown as { store: { bytes(): number; settle(): void } }).store;
    store.settle();
    const bytes = e.memoryBytes();
    const segs = segmentsOf(e) as { positions: Uint32Array; pDocs: Int32Array }[];
    const arrays = segs.reduce((n, s) => n + s.positions.byteLength + s.pDocs.byteLength, 0);
    expect(bytes).toBeGreaterThan(arrays);
    // the bodies cost less than half their JSON text (deflated in blocks)
    expect(store.bytes()).toBeLessThan(json / 2);
    expect(bytes).toBeLessThan(json + 6 * arrays);
    // deleting half the documents lowers the estimate; compaction rewrites the segments and the store
    e.deleteDocuments(docs.filter((d) => d.id % 2).map((d) => String(d.id)));
    const deleted = e.memoryBytes();
    expect(deleted).toBeLessThan(bytes);
    e.compact();
    expect(e.memoryBytes()).toBeLessThan(deleted);
    expect(e.getDocument('2')).toEqual(docs[2]);
    expect(e.getDocument('3')).toBeUndefined();
  });

  test('the id table travels in the snapshot: adopted as it is, rebuilt when absent (older snapshots) or hashed otherwise', () => {
    const e = churned(SETTINGS);
    const live = Array.from({ length: 20000 }, (_, i) => String(i)).filter((id) => e.getDocument(id) !== undefined);
    const snap = e.toSnapshot(transferCodec()) as { idTable?: { hash: number; slots: Int32Array } };
    expect(snap.idTable?.slots).toBeInstanceOf(Int32Array);
    const variants = {
      adopted: snap,
      older: { ...snap, idTable: undefined },
      otherHash: { ...snap, idTable: { ...snap.idTable!, hash: snap.idTable!.hash + 1 } },
    };
    for (const [name, s] of Object.entries(variants)) {
      const r = engineFactory.fromSnapshot(structuredClone(s), { ...DEFAULT_SETTINGS, ...SETTINGS });
      const idMap = (r as unknown as SegmentedEngine).idMap;
      expect([name, idMap.size]).toEqual([name, live.length]);
      for (const id of live) expect(r.getDocument(id)).toEqual(e.getDocument(id));
      expect(r.getDocument('20001')).toBeUndefined();
      expect(results(r)).toEqual(results(e));
      // and it keeps taking replacements and deletions
      r.addDocuments([{ id: live[0], t: 'zulu', c: 'alpha', n: 1 }], 'id');
      r.deleteDocuments([live[1]]);
      expect(ids(r, { query: 'zulu' })).toEqual([live[0]]);
      expect(r.getDocument(live[1])).toBeUndefined();
      expect(r.size).toBe(live.length - 1);
    }
  });

  test('anything else is refused', () => {
    expect(errorOf(() => engineFactory.fromSnapshot({ hello: 1 }, DEFAULT_SETTINGS)).code).toBe('invalid_settings');
  });
});

describe('posting starts (two-level: a 32-bit base per block, a 16-bit offset per posting)', () => {
  const starts = (pPos: number[]) => {
    const packed = packPostingStarts(Uint32Array.from(pPos));
    const seg = packed as unknown as Parameters<typeof postingStart>[0];
    return { packed, back: pPos.map((_, q) => postingStart(seg, q)) };
  };

  test('reads back every start, in 64-posting blocks when they fit in 16 bits', () => {
    const pPos = Array.from({ length: 1000 }, (_, q) => q * 3 + (q >= 512 ? 70_000 : 0));
    const { packed, back } = starts(pPos);
    expect(back).toEqual(pPos);
    expect(packed.pShift).toBe(6);
    expect(packed.pBase.length).toBe(Math.ceil(1000 / 64));
  });

  test('a smaller block where 64 postings span 65,536 positions or more (a long, repetitive document)', () => {
    const pPos = Array.from({ length: 300 }, (_, q) => q * 2000);
    const { packed, back } = starts(pPos);
    expect(back).toEqual(pPos);
    expect(packed.pShift).toBe(5);
    const huge = [0, 70_000, 140_000, 140_001];
    const h = starts(huge);
    expect(h.back).toEqual(huge);
    expect(h.packed.pShift).toBe(0);
  });

  test('a snapshot segment written with one Uint32Array of starts (pPos) is read as the two-level form', () => {
    const e = engineWith([
      { id: 1, title: 'red apple pie', body: 'apple apple' },
      { id: 2, title: 'green apple', body: 'pie' },
    ]);
    const snap = e.toSnapshot(transferCodec()) as { segments: Record<string, unknown>[] };
    const seg = decodeSegment(snap.segments[0]);
    const pPos = new Uint32Array(seg.pRel.length).map((_, q) => postingStart(seg, q));
    const old = { ...snap.segments[0], pPos } as Record<string, unknown>;
    delete old.pBase;
    delete old.pRel;
    delete old.pShift;
    const back = decodeSegment(old);
    expect(Array.from(back.pRel, (_, q) => postingStart(back, q))).toEqual(Array.from(pPos));
  });
});

test('a merge whose postings span 65,536 positions in one block (a long, repetitive document) keeps every start', () => {
  const e = engineFactory.create({ ...DEFAULT_SETTINGS, searchableAttributes: ['title', 'body'] }) as unknown as SegmentedEngine;
  const long = Array.from({ length: 40_000 }, () => 'echo').join(' ');
  for (let b = 0; b < 4; b++) e.addDocuments([{ id: `a${b}`, title: long, body: `${long} tail${b}` }, { id: `b${b}`, title: `echo tail${b}`, body: 'short' }], 'id');
  const before = ids(e, { query: 'echo tail2', limit: 20 });
  e.compact();
  expect(e.segmentCount).toBe(1);
  const seg = e.segments[0];
  const n = seg.pDocs.length;
  expect(postingStart(seg, n)).toBe(seg.positions.length);
  for (let q = 0; q < n; q++) expect(postingStart(seg, q + 1)).toBeGreaterThanOrEqual(postingStart(seg, q));
  expect(seg.pShift).toBeLessThan(6);
  expect(ids(e, { query: 'echo tail2', limit: 20 })).toEqual(before);
});
