// The union of the segments' dictionaries (dictionary.ts): a word's typo/prefix walk runs once over it
// and its runs are found in each segment. Checked: the walk's runs against the per-term lookup, the
// union's upkeep as segments come and go, and an engine of many segments against one of a single
// segment (no union) on typo and prefix queries, through deletions and compaction.
import { ALL_ALONE, mergeInto, TermUnion, unionOf } from '../../lib/search-engine/dictionary.js';
import type { Segment } from '../../lib/search-engine/segment.js';
import { fuzzyLookup, fuzzyRanges } from '../../lib/search-engine/typo.js';
import type { SegmentedEngine } from '../../lib/search-engine/engine.js';
import { restoreEngine } from '../../lib/search-engine/restore.js';
import { engineWith } from './search-engine.fixtures.js';

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const word = (alphabet = 'abcdef', max = 7) => Array.from({ length: 1 + Math.floor(rand() * max) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
const dictionary = (n: number) => {
  const s = new Set<string>();
  while (s.size < n) s.add(word());
  return [...s].sort();
};
const fakeSegment = (terms: string[]) => ({ terms }) as unknown as Segment;

describe('unionOf', () => {
  test('the sorted union of sorted lists, each term once', () => {
    const lists = [dictionary(50), dictionary(80), [], dictionary(5), dictionary(120)];
    expect(unionOf(lists)).toEqual([...new Set(lists.flat())].sort());
    expect(unionOf([])).toEqual([]);
    expect(unionOf([['a', 'b']])).toEqual(['a', 'b']);
  });
});

describe('mergeInto', () => {
  test('the sorted union of a large list and a small one; the large list itself when it holds the small one', () => {
    const big = dictionary(400);
    for (const small of [dictionary(30), dictionary(3), [], [big[0]], [big.at(-1)!, 'zzz'], ['0', ...big.slice(10, 40)], big.filter((_, i) => i % 7 === 0)]) {
      const before = small.slice();
      const merged = mergeInto(big, small);
      expect(merged).toEqual([...new Set([...big, ...small])].sort());
      // the small list's strings may now be the large one's: equal values, in the same order
      expect(small).toEqual(before);
      if (small.every((t) => big.includes(t))) expect(merged).toBe(big);
    }
    expect(mergeInto([], ['a', 'b'])).toEqual(['a', 'b']);
  });
});

describe('fuzzyRanges', () => {
  test('disjoint runs holding exactly the terms fuzzyLookup emits, with the same typos', () => {
    const terms = dictionary(600);
    for (const w of [...terms.slice(0, 25), 'abcdef', 'fedcba', 'aaaaaa', 'caaa', 'a']) {
      for (const k of [0, 1, 2]) {
        for (const prefix of [false, true]) {
          const perTerm = new Map<number, number>();
          fuzzyLookup(terms, w, k, prefix, (i, t) => perTerm.set(i, t));
          const byRun = new Map<number, number>();
          const runs: [number, number][] = [];
          fuzzyRanges(terms, w, k, prefix, (lo, hi, t) => {
            expect(lo).toBeLessThan(hi);
            runs.push([lo, hi]);
            for (let i = lo; i < hi; i++) {
              expect(byRun.has(i)).toBe(false);
              byRun.set(i, t);
            }
          });
          expect([w, k, prefix, [...byRun].sort((a, b) => a[0] - b[0])]).toEqual([w, k, prefix, [...perTerm].sort((a, b) => a[0] - b[0])]);
        }
      }
    }
  });
});

describe('TermUnion', () => {
  test('one segment or none: no union, every segment walked alone', () => {
    const u = new TermUnion();
    const one = fakeSegment(['a', 'b']);
    expect(u.view([one]).terms).toEqual([]);
    expect(u.view([one]).alone(one)).toBe(true);
    expect(ALL_ALONE.alone(one)).toBe(true);
    expect(u.bytes(32)).toBe(0);
  });

  test('built over every segment; a few small new segments walked alone, then merged in', () => {
    const u = new TermUnion();
    const base = [fakeSegment(dictionary(400)), fakeSegment(dictionary(400))];
    const v0 = u.view(base);
    expect(v0.terms).toEqual(unionOf(base.map((s) => s.terms)));
    expect(base.some((s) => v0.alone(s))).toBe(false);
    const small = [1, 2, 3, 4, 5].map(() => fakeSegment(dictionary(10)));
    const segs = [...base];
    for (let i = 0; i < 4; i++) {
      segs.push(small[i]);
      const v = u.view(segs);
      expect(v.terms).toBe(v0.terms);
      expect(v.alone(small[i])).toBe(true);
      expect(v.alone(base[0])).toBe(false);
    }
    segs.push(small[4]);
    const v5 = u.view(segs);
    expect(v5.terms).toEqual(unionOf(segs.map((s) => s.terms)));
    expect(segs.some((s) => v5.alone(s))).toBe(false);
  });

  test('a large new segment (a merge) is merged in at once; gone segments leave terms until the union outgrows them', () => {
    const u = new TermUnion();
    const a = fakeSegment(dictionary(300));
    const b = fakeSegment(dictionary(300));
    u.view([a, b]);
    const merged = fakeSegment(unionOf([a.terms, b.terms]));
    const c = fakeSegment(['zz']);
    const v = u.view([merged, c]);
    // merged in at once, and the small one with it
    expect(v.alone(merged)).toBe(false);
    expect(v.alone(c)).toBe(false);
    expect(v.terms).toContain('zz');
    // the segments now hold far fewer terms than the union: rebuilt from them
    const d = fakeSegment(['x', 'y']);
    const e = fakeSegment(['y', 'z']);
    const w = u.view([d, e]);
    expect(w.terms).toEqual(['x', 'y', 'z']);
    expect(u.bytes(32)).toBe(3 * 8);
  });
});

describe('an engine of many segments answers as one of a single segment', () => {
  const vocabulary = Array.from({ length: 300 }, () => word('abcdefghij', 9));
  const text = () => Array.from({ length: 3 + Math.floor(rand() * 8) }, () => vocabulary[Math.floor(rand() * vocabulary.length)]).join(' ');
  const docs = Array.from({ length: 1200 }, (_, i) => ({ id: i + 1, t: text(), u: text(), g: `g${i % 7}` }));
  const settings = { searchableAttributes: ['t', 'u'], filterableAttributes: ['g'] };
  const queries = [...vocabulary.slice(0, 40), ...vocabulary.slice(40, 60).map((w) => w.slice(0, 2)), ...vocabulary.slice(60, 80).map((w) => `${w.slice(0, -1)}x`)];
  const pairs = queries.map((q, i) => `${q} ${queries[(i * 7) % queries.length]}`);

  const answers = (e: ReturnType<typeof engineWith>) =>
    [...queries, ...pairs].map((query, i) => {
      const r = e.search({ query, limit: 30, facets: ['g'], filter: i % 3 === 0 ? 'g != g1' : undefined });
      return [query, r.hits.map((h) => h.id), r.estimatedTotalHits, r.facetDistribution];
    });

  test('as batches arrive, after deletions and after compaction', () => {
    const single = engineWith(docs, settings);
    const many = engineWith([], settings);
    // batches of 37: tail merges and new segments come and go, so the union is extended and segments walked alone
    for (let i = 0; i < docs.length; i += 37) {
      many.addDocuments(docs.slice(i, i + 37), 'id');
      if (i % 370 === 0) many.search({ query: queries[i % queries.length] });
    }
    expect((many as unknown as SegmentedEngine).segmentCount).toBeGreaterThan(2);
    expect(answers(many)).toEqual(answers(single));
    const gone = docs.filter((d) => d.id % 5 === 0).map((d) => String(d.id));
    many.deleteDocuments(gone);
    single.deleteDocuments(gone);
    expect(answers(many)).toEqual(answers(single));
    many.compact();
    expect(answers(many)).toEqual(answers(single));
  });

  test('the engine brings the union up to date where its segments change, so no search merges', () => {
    const e = engineWith([], settings) as unknown as SegmentedEngine;
    for (let i = 0; i < docs.length; i += 37) {
      e.addDocuments(docs.slice(i, i + 37), 'id');
      expect(e.dictionary.outdated(e.segments)).toBe(false);
    }
    e.deleteDocuments(docs.filter((d) => d.id % 3 === 0).map((d) => String(d.id)));
    e.compact();
    expect(e.dictionary.outdated(e.segments)).toBe(false);
    e.rebuild();
    expect(e.dictionary.outdated(e.segments)).toBe(false);
    e.addDocuments(docs.slice(0, 500), 'id');
    const restored = restoreEngine(e.toSnapshot(), e.settings);
    expect(restored.segmentCount).toBeGreaterThan(1);
    expect(restored.dictionary.outdated(restored.segments)).toBe(false);
  });

  test('a snapshot carries the union: a restore takes it as it is (a snapshot without it merges again), same answers', () => {
    const e = engineWith([], settings) as unknown as SegmentedEngine;
    for (let i = 0; i < docs.length; i += 150) e.addDocuments(docs.slice(i, i + 150), 'id');
    e.deleteDocuments(docs.filter((d) => d.id % 4 === 0).map((d) => String(d.id)));
    const snap = e.toSnapshot() as { dictionary?: { terms: string; segments: string[] } };
    expect(e.segmentCount).toBeGreaterThan(1);
    expect(snap.dictionary?.segments.length).toBeGreaterThan(0);
    const taken = restoreEngine(structuredClone(snap), e.settings);
    const union = (x: SegmentedEngine) => (x.dictionary as unknown as { terms: string[] }).terms;
    expect(union(taken)).toEqual(union(e));
    expect(taken.dictionary.outdated(taken.segments)).toBe(false);
    const merged = restoreEngine({ ...structuredClone(snap), dictionary: undefined }, e.settings);
    expect(merged.dictionary.outdated(merged.segments)).toBe(false);
    // naming a segment that is not there: merged again
    const stray = restoreEngine({ ...structuredClone(snap), dictionary: { terms: 'zzz', segments: ['no-such-segment'] } }, e.settings);
    expect(union(stray)).toEqual(unionOf(stray.segments.map((s) => s.terms)));
    for (const x of [taken, merged, stray]) expect(answers(x)).toEqual(answers(e));
  });
});
