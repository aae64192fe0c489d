// The lazy pass of a costly rule (bucket-sort.ts, lazyStep) must rank exactly as scoring every document:
// random buckets large enough to take it, floors reached often, rarely or never, with and without a
// cheap next rule, distinct keys, and pages deep into the bucket. Then the engine: a common pair of
// words over thousands of documents, every page a slice of one ranking, adjacent pairs first.
import { bucketSort, Collector, type Step, type StepFn } from '../../lib/search-engine/bucket-sort.js';
import { IncrementalOrder } from '../../lib/search-engine/incremental-order.js';
import { engineWith, ids } from './search-engine.fixtures.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** keys[d] for each doc id, as a step over any subset */
const keyed = (keys: Float64Array, extra: Partial<StepFn> = {}): StepFn => Object.assign((docs: Int32Array) => Float64Array.from(docs, (d) => keys[d]), extra);

function rank(docs: Int32Array, steps: Step[], need: number, distinct?: (d: number) => number | undefined): number[] {
  const out = new Collector(need, distinct);
  bucketSort(docs, steps, out);
  return out.ids;
}

describe('lazy scoring of a costly rule', () => {
  const n = 6000;
  const docs = Int32Array.from({ length: n }, (_, i) => i * 3 + 1);
  const size = n * 3 + 2;
  for (const [name, pFloor] of [
    ['floor reached often', 0.3],
    ['floor reached rarely', 0.002],
    ['floor never reached', 0],
  ] as const) {
    test(`${name}: the same page as scoring every document`, () => {
      const r = rng(pFloor * 1000 + 7);
      const prox = new Float64Array(size);
      const attr = new Float64Array(size);
      const exact = new Float64Array(size);
      for (const d of docs) {
        prox[d] = r() < pFloor ? 1 : 2 + Math.floor(r() * 7);
        attr[d] = Math.floor(r() * 50) * 65536 + Math.floor(r() * 40);
        exact[d] = Math.floor(r() * 3);
      }
      const distinctOf = (d: number) => (d % 7 === 0 ? undefined : d % 500);
      for (const need of [1, 20, 300, 1000]) {
        for (const distinct of [undefined, distinctOf]) {
          const eager = rank(docs, [keyed(prox), keyed(attr, { cheap: true }), keyed(exact)], need, distinct);
          const lazy = rank(docs, [keyed(prox, { floor: () => 1 }), keyed(attr, { cheap: true }), keyed(exact)], need, distinct);
          expect(lazy).toEqual(eager);
          // no next rule: id order breaks the ties
          const eagerLast = rank(docs, [keyed(prox)], need, distinct);
          expect(rank(docs, [keyed(prox, { floor: () => 1 }), null], need, distinct)).toEqual(eagerLast);
        }
      }
    });
  }
});

describe('proximity scored lazily in the engine', () => {
  test('a common pair over thousands of documents pages slice one ranking, adjacent pairs first', () => {
    const r = rng(11);
    const filler = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa'];
    const docs = Array.from({ length: 5000 }, (_, i) => {
      const words = Array.from({ length: 4 + Math.floor(r() * 8) }, () => filler[Math.floor(r() * filler.length)]);
      const at = Math.floor(r() * words.length);
      if (r() < 0.2) words.splice(at, 0, 'for', 'the');
      else {
        words.splice(at, 0, 'for');
        words.splice(Math.floor(r() * (words.length + 1)), 0, 'the');
      }
      return { id: i + 1, t: words.join(' '), u: r() < 0.5 ? 'for the' : 'other' };
    });
    const e = engineWith(docs, { searchableAttributes: ['t', 'u'] });
    const all = ids(e, { query: 'for the', limit: 1000 });
    const adjacent = (id: string) => / for the /.test(` ${docs[Number(id) - 1].t} `) || docs[Number(id) - 1].u === 'for the';
    // proximity 1 first: documents with "for the" adjacent in t or u (over half of them)
    expect(all.every((id, k) => k < 1 || !adjacent(id) || adjacent(all[k - 1]))).toBe(true);
    expect(adjacent(all[0])).toBe(true);
    for (const [offset, limit] of [[0, 1], [0, 20], [0, 200], [37, 20], [500, 50]]) {
      expect(ids(e, { query: 'for the', offset, limit })).toEqual(all.slice(offset, offset + limit));
    }
  });
});

describe('incremental order (the lazy pass reads the next rule in it)', () => {
  test('positions come out in (score, position) order, whatever the ties and however they are taken', () => {
    const r = rng(3);
    for (const [n, distinct] of [[1, 1], [2, 1], [3, 2], [50, 3], [5000, 7], [5000, 5000], [20000, 40]]) {
      const scores = Float64Array.from({ length: n }, () => Math.floor(r() * distinct) * 65536 + (r() < 0.1 ? Infinity : 0));
      const want = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b] || a - b);
      const order = new IncrementalOrder(scores);
      const got: number[] = [];
      while (!order.empty) {
        if (r() < 0.3) expect(order.peek()).toBe(want[got.length]);
        got.push(order.take());
      }
      expect(order.take()).toBe(-1);
      expect(got).toEqual(want);
    }
  });
});
