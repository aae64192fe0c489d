// The compact document store (bodies deflated in blocks) and the ranking columns: a page's hits come
// back whole across block boundaries, through snapshots and compaction; sort, custom rules, distinct and
// geo sorting read columns and give the same answers after a restore or a settings change.
import { bitset, set } from '../../lib/search-engine/bitset.js';
import { BLOCK, DocStore } from '../../lib/search-engine/doc-store.js';
import { engineFactory, type Engine } from '../../lib/search-engine/index.js';
import { DEFAULT_SETTINGS } from '../../lib/search-engine/settings.js';
import { Columns, columnSpec } from '../../lib/search-engine/columns.js';
import { KEEP_ARRAYS, SnapshotDecoder, encodeSnapshot } from '../../lib/search-engine/snapshot-binary.js';
import { engineWith, ids } from './search-engine.fixtures.js';

const doc = (i: number) => ({ id: i, title: `title ${i} é\u2028"quoted"`, nested: { n: i, list: [i, `s${i}`] } });

describe('DocStore', () => {
  test('bodies across block boundaries, the open block, gaps and a snapshot round trip', () => {
    const s = new DocStore();
    const n = BLOCK * 3 + 5;
    for (let i = 0; i < n; i++) if (i !== 40) s.put(i, doc(i));
    expect(s.size).toBe(n);
    for (const i of [0, BLOCK - 1, BLOCK, 2 * BLOCK + 7, n - 1]) expect(s.get(i)).toEqual(doc(i));
    expect(s.get(40)).toBeUndefined();
    const back = DocStore.fromData(s.toData());
    for (let i = 0; i < n; i++) expect(back.get(i)).toEqual(i === 40 ? undefined : doc(i));
    // the restored store keeps appending
    back.put(n, doc(n));
    for (let i = n + 1; i < n + BLOCK + 2; i++) back.put(i, doc(i));
    expect(back.get(n)).toEqual(doc(n));
    expect(back.get(n + BLOCK + 1)).toEqual(doc(n + BLOCK + 1));
  });

  test('bodies put as texts (slices of a payload) read back the same, gaps and the open block given texts of their own', () => {
    const n = BLOCK * 2 + 7;
    const docs = Array.from({ length: n }, (_, i) => doc(i));
    const payload = JSON.stringify({ documents: docs });
    const texts = docs.map((d) => JSON.stringify(d));
    expect(texts.every((t) => payload.includes(t))).toBe(true);
    const s = new DocStore();
    for (let i = 0; i < n; i++) if (i !== 3 && i !== n - 2) s.put(i, docs[i], payload.slice(payload.indexOf(texts[i]), payload.indexOf(texts[i]) + texts[i].length));
    s.ownOpenLines();
    s.ownOpenLines();
    for (let i = 0; i < n; i++) expect(s.get(i)).toEqual(i === 3 || i === n - 2 ? undefined : docs[i]);
    expect(s.size).toBe(n);
    new DocStore().ownOpenLines();
  });

  test('compaction drops dead bodies once they are a large share', () => {
    const s = new DocStore();
    const n = BLOCK * 400;
    for (let i = 0; i < n; i++) s.put(i, doc(i));
    const alive = bitset(n);
    for (let i = 0; i < n; i += 4) set(alive, i);
    const before = s.bytes();
    s.compact(alive, n / 4);
    expect(s.bytes()).toBeLessThan(before * 0.6);
    expect(s.get(8)).toEqual(doc(8));
    expect(s.get(9)).toBeUndefined();
    expect([...s.live(alive, n)].length).toBe(n / 4);
  });

  test('ids must come in order', () => {
    const s = new DocStore();
    s.put(3, doc(3));
    expect(() => s.put(2, doc(2))).toThrow(/behind/);
  });
});

function viaSnapshot(e: Engine, settings = DEFAULT_SETTINGS): Engine {
  const d = new SnapshotDecoder();
  for (const piece of encodeSnapshot(e.toSnapshot(KEEP_ARRAYS))) d.push(piece);
  return engineFactory.fromSnapshot(d.finish(), settings);
}

describe('ranking columns', () => {
  const docs = Array.from({ length: 300 }, (_, i) => ({
    id: i,
    t: 'common word',
    price: (i * 37) % 101,
    name: i % 3 ? `N${(i * 7) % 50}` : undefined,
    tags: [i % 5, (i * 3) % 11],
    family: `f${i % 40}`,
    _geo: i % 10 ? { lat: (i % 90) - 45, lng: (i % 180) - 90 } : undefined,
  }));
  const settings = {
    ...DEFAULT_SETTINGS,
    sortableAttributes: ['price', 'name', 'tags', '_geo'],
    rankingRules: ['words', 'sort', 'price:desc', 'exactness'],
    distinctAttribute: 'family',
  };

  test('sort, custom rule, distinct and geo answer the same after a snapshot', () => {
    const e = engineWith(docs, settings);
    const restored = viaSnapshot(e, settings);
    for (const sort of [['price:asc'], ['name:desc'], ['tags:asc'], ['tags:desc'], ['_geoPoint(0, 0):asc'], []]) {
      const req = { query: 'common', sort, limit: 50 };
      expect(ids(restored, req)).toEqual(ids(e, req));
      expect(restored.search(req).estimatedTotalHits).toBe(40);
    }
    // distinct keeps one per family: 40 families
    expect(e.search({ query: 'common', limit: 100 }).hits).toHaveLength(40);
    // price:desc as a rule: the first hit has the highest price
    const first = e.search({ query: 'common', limit: 1 }).hits[0] as { price: number };
    expect(first.price).toBe(100);
  });

  test('a settings change that adds a sortable attribute reads it from the bodies', () => {
    const e = engineWith(docs, { ...DEFAULT_SETTINGS, sortableAttributes: [] });
    e.updateSettings({ ...DEFAULT_SETTINGS, sortableAttributes: ['price'] });
    const hits = e.search({ query: 'common', sort: ['price:asc'], limit: 3 }).hits as { price: number }[];
    expect(hits.map((h) => h.price)).toEqual([0, 0, 0]);
    // a child path of a sortable parent sorts from the bodies
    e.updateSettings({ ...DEFAULT_SETTINGS, sortableAttributes: ['nested'] });
    const e2 = engineWith(
      docs.map((d) => ({ id: d.id, t: d.t, nested: { n: 300 - d.id } })),
      { ...DEFAULT_SETTINGS, sortableAttributes: ['nested'] },
    );
    expect(ids(e2, { query: 'common', sort: ['nested.n:asc'], limit: 2 })).toEqual(['299', '298']);
  });
});

describe('sort column memory', () => {
  const spec = columnSpec({ ...DEFAULT_SETTINGS, sortableAttributes: ['n'] });

  test('one array for both directions until an array value makes them differ; shared again after a restore', () => {
    const c = new Columns(spec);
    c.add(0, { n: 5 });
    c.add(1, { n: 7 });
    const one = c.bytes();
    c.add(2, { n: [1, 9] });
    expect(c.bytes()).toBe(2 * one);
    expect([c.sortValueOf('n', 2, false), c.sortValueOf('n', 2, true)]).toEqual([1, 9]);
    expect([c.sortValueOf('n', 0, false), c.sortValueOf('n', 0, true)]).toEqual([5, 5]);
    // a string value lives in the maps, the numbers stay shared
    const d = new Columns(spec);
    d.add(0, { n: 5 });
    d.add(1, { n: 'x' });
    d.add(2, { n: [3, 'y'] });
    expect([d.sortValueOf('n', 2, false), d.sortValueOf('n', 2, true)]).toEqual([3, 'y']);
    const back = Columns.fromData(c.toData(3), spec)!;
    expect([back.sortValueOf('n', 2, false), back.sortValueOf('n', 2, true), back.sortValueOf('n', 1, true)]).toEqual([1, 9, 7]);
    const scalars = new Columns(spec);
    scalars.add(0, { n: 5 });
    scalars.add(1, { n: 6 });
    expect(Columns.fromData(scalars.toData(2), spec)!.bytes()).toBe(2 * 8);
  });
});
