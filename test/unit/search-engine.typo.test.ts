// Typo candidates from a sorted dictionary: budgets, the first-letter rule, transpositions and prefixes,
// checked against a brute-force scan.
import { distance, fuzzyLookup, prefixRange, typoBudget } from '../../lib/search-engine/typo.js';

const TOL = { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } };

function lookup(terms: string[], word: string, k: number, prefix = false): Record<string, number> {
  const sorted = [...terms].sort();
  const out: Record<string, number> = {};
  fuzzyLookup(sorted, word, k, prefix, (i, d) => {
    expect(out[sorted[i]]).toBeUndefined(); // each term at most once
    out[sorted[i]] = d;
  });
  return out;
}

/** Brute force of the documented rule. */
function expected(terms: string[], word: string, k: number, prefix: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of terms) {
    const candidates = prefix ? Array.from({ length: t.length }, (_, i) => t.slice(0, i + 1)) : [t];
    let best = Infinity;
    for (const c of candidates) {
      let d: number;
      if (k === 0) d = c === word ? 0 : Infinity;
      else if (c[0] === word[0]) d = distance(c.slice(1), word.slice(1));
      else d = k >= 2 && distance(c, word) <= 1 ? 2 : Infinity;
      best = Math.min(best, d);
    }
    if (best <= k) out[t] = best;
  }
  return out;
}

describe('typoBudget', () => {
  test.each([
    ['cat', 0],
    ['four', 0],
    ['seven', 1],
    ['eightish', 1],
    ['ninechars', 2],
    ['extraordinarily', 2],
  ])('%s allows %i', (w, n) => expect(typoBudget(w as string, TOL)).toBe(n));

  test('custom thresholds and disabled tolerance', () => {
    expect(typoBudget('hary', { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 10 } })).toBe(1);
    expect(typoBudget('ninechars', { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 10 } })).toBe(1);
    expect(typoBudget('extraordinarily', { ...TOL, enabled: false })).toBe(0);
  });
});

describe('distance (Damerau, optimal string alignment)', () => {
  test.each([
    ['kitten', 'sitten', 1],
    ['siting', 'sitting', 1],
    ['saturday', 'satuday', 1],
    ['teh', 'the', 1],
    ['abc', 'abc', 0],
    ['', 'abc', 3],
    ['ca', 'abc', 3],
  ])('%s → %s = %i', (a, b, d) => expect(distance(a as string, b as string)).toBe(d));
});

describe('fuzzyLookup', () => {
  const terms = ['saturday', 'satuday', 'sutuday', 'caturday', 'saturdays', 'seven', 'sevem', 'sevan', 'severn', 'harry', 'hary', 'harr', 'harriet', 'potter', 'poter', 'pottery', 'spotter', 'otter'];

  test('one typo from 5 letters: substitution, insertion, deletion, transposition', () => {
    expect(lookup(terms, 'seven', 1)).toEqual({ seven: 0, sevem: 1, sevan: 1, severn: 1 });
    expect(lookup(terms, 'saturday', 1)).toEqual({ saturday: 0, satuday: 1, saturdays: 1 });
    expect(lookup(['the', 'teh', 'hte'], 'the', 1)).toEqual({ the: 0, teh: 1 });
  });

  test('a typo on the first letter counts as two', () => {
    expect(lookup(terms, 'saturday', 1).caturday).toBeUndefined();
    expect(lookup(terms, 'saturday', 2).caturday).toBe(2);
    // wrong first letter AND another typo is three: never
    expect(lookup(['cuturday'], 'saturday', 2)).toEqual({});
    // an inserted first letter is a first-letter typo too
    expect(lookup(terms, 'potter', 2).spotter).toBe(2);
    expect(lookup(terms, 'potter', 2).otter).toBe(2);
  });

  test('no typo budget: exact only, or the prefix range', () => {
    expect(lookup(terms, 'harr', 0)).toEqual({ harr: 0 });
    expect(lookup(terms, 'harr', 0, true)).toEqual({ harr: 0, harry: 0, harriet: 0 });
  });

  test('prefix with typos: the typed word against any prefix of the term', () => {
    expect(lookup(terms, 'pottr', 1, true)).toEqual({ potter: 1, poter: 1, pottery: 1 });
  });

  test('matches a brute-force scan on a generated dictionary', () => {
    const alphabet = 'abcde';
    const dict = new Set<string>();
    let seed = 1;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    while (dict.size < 400) {
      const len = 1 + Math.floor(rand() * 7);
      dict.add(Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(''));
    }
    const words = [...dict].slice(0, 30).concat(['abcde', 'edcba', 'aaaaaa', 'b']);
    for (const w of words) {
      for (const k of [0, 1, 2]) {
        for (const prefix of [false, true]) expect([w, k, prefix, lookup([...dict], w, k, prefix)]).toEqual([w, k, prefix, expected([...dict], w, k, prefix)]);
      }
    }
  });

  test('prefixRange', () => {
    const sorted = ['a', 'ab', 'abc', 'abd', 'b', 'ba'];
    expect(prefixRange(sorted, 'ab')).toEqual([1, 4]);
    expect(prefixRange(sorted, 'z')).toEqual([6, 6]);
  });
});
