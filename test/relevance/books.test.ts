// Relevance on books.json (244 books): typo rules, prefix, each ranking rule, pinned on real titles.
import { distance } from '../../lib/search-engine/typo.js';
import { tokenize } from '../../lib/search-engine/tokenizer.js';
import type { Document, SearchRequest } from '../../lib/search-engine/index.js';
import { indexOf, load } from './datasets.js';

const books = load('books.json');
const SETTINGS = { searchableAttributes: ['title', 'author', 'publisher'], filterableAttributes: ['language', 'publisher'], sortableAttributes: ['title'] };
const e = indexOf(books, SETTINGS, 'id', 40);
const titles = (req: SearchRequest) => e.search({ limit: 50, ...req }).hits.map((h) => h.title as string);
const HP = [
  'Harry Potter and the Half-Blood Prince',
  'Harry Potter and the Order of the Phoenix',
  'Harry Potter and the Chamber of Secrets',
  'Harry Potter and the Prisoner of Azkaban',
];

describe('typo rules', () => {
  test('"harry potter": the four Harry Potter books first, then documents with "harry" only', () => {
    const t = titles({ query: 'harry potter' });
    expect(t.slice(0, 4).sort()).toEqual([...HP].sort());
    expect(t.slice(4)).toEqual(['On Bullshit']); // Harry G. Frankfurt: the first word only
  });

  test('"hary poter": no match with the default budgets (4 letters allow no typo, and "hary" is required)', () => {
    expect(titles({ query: 'hary poter' })).toEqual([]);
  });

  test('"hary poter" with one typo from 4 letters finds the same books as "harry potter"', () => {
    const loose = indexOf(books, { ...SETTINGS, typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 } } }, 'id');
    const t = loose.search({ query: 'hary poter' }).hits.map((h) => h.title);
    expect(t.slice(0, 4).sort()).toEqual([...HP].sort());
  });

  test('"harry pottr": the last word is a prefix with one typo', () => {
    expect(titles({ query: 'harry pottr' }).slice(0, 4).sort()).toEqual([...HP].sort());
  });

  test('typo tolerance off: only exact words', () => {
    const strict = indexOf(books, { ...SETTINGS, typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } } }, 'id');
    expect(strict.search({ query: 'pottr ' }).hits).toEqual([]);
    expect(e.search({ query: 'pottr ' }).hits).toHaveLength(4);
    expect(strict.search({ query: 'potter ' }).hits).toHaveLength(4);
  });
});

describe('prefix', () => {
  test('"harr" finds every book with a word starting with "harr", Harry Potter first', () => {
    const t = titles({ query: 'harr' });
    expect(t.slice(0, 4).sort()).toEqual([...HP].sort());
    expect(t.sort()).toEqual([...HP, 'On Bullshit', 'The Long Shadow (The Morland Dynasty  #6)'].sort());
  });

  test('"harr " with a trailing space is a whole word: nothing', () => {
    expect(titles({ query: 'harr ' })).toEqual([]);
  });
});

/** Reference for the words and typo rules, computed by brute force from the documented rules. */
function reference(doc: Document, query: string[]): { words: number; typos: number } {
  const tokens = new Set<string>();
  for (const f of SETTINGS.searchableAttributes) for (const t of tokenize(String(doc[f] ?? ''))) tokens.add(t);
  let words = 0;
  let typos = 0;
  for (const [i, w] of query.entries()) {
    const budget = w.length >= 9 ? 2 : w.length >= 5 ? 1 : 0;
    const last = i === query.length - 1;
    let best = Infinity;
    for (const t of tokens) {
      for (const cand of last ? Array.from({ length: t.length }, (_, k) => t.slice(0, k + 1)) : [t]) {
        const d = budget === 0 ? (cand === w ? 0 : Infinity) : cand[0] === w[0] ? distance(cand.slice(1), w.slice(1)) : budget >= 2 && distance(cand, w) <= 1 ? 2 : Infinity;
        if (d <= budget) best = Math.min(best, d);
      }
    }
    if (best === Infinity) break;
    words++;
    typos += best;
  }
  return { words, typos };
}

const strictWith = (rankingRules: string[]) =>
  indexOf(books, { ...SETTINGS, rankingRules, typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } } }, 'id');

/** Words matched, proximity and attribute rank by brute force (exact words; the last one as a prefix). */
function positional(doc: Document, query: string[]): { words: number; proximity: number; attribute: number } {
  const attrs = SETTINGS.searchableAttributes.map((f) => tokenize(String(doc[f] ?? '')));
  const at = (w: string, last: boolean) => attrs.flatMap((toks, a) => toks.flatMap((t, p) => ((last ? t.startsWith(w) : t === w) ? [[a, p]] : [])));
  const found: number[][][] = [];
  for (const [i, w] of query.entries()) {
    const pos = at(w, i === query.length - 1);
    if (!pos.length) break;
    found.push(pos);
  }
  let proximity = 0;
  for (let i = 1; i < found.length; i++) {
    let best = 8;
    for (const [a1, p1] of found[i - 1]) for (const [a2, p2] of found[i]) if (a1 === a2 && p1 !== p2) best = Math.min(best, p2 > p1 ? p2 - p1 : p1 - p2 + 1);
    proximity += best;
  }
  const attribute = found.reduce((s, pos) => s + Math.min(...pos.map(([a]) => a)), 0);
  return { words: found.length, proximity, attribute };
}

describe('ranking rules on the whole catalogue', () => {
  test.each(['the lord of the rings', 'harry potter prince', 'pride prejudice', 'the great gatsby', 'war and peace', 'shadow dynasty', 'histroy of the world', 'tolkien hobbit'])(
    'words, then typo, are non-increasing/non-decreasing buckets for %j',
    (q) => {
      const query = tokenize(q);
      const r = e.search({ query: q, limit: 300 });
      const refs = r.hits.map((h) => reference(h, query));
      for (const ref of refs) expect(ref.words).toBeGreaterThan(0);
      for (let i = 1; i < refs.length; i++) {
        expect(refs[i].words).toBeLessThanOrEqual(refs[i - 1].words);
        if (refs[i].words === refs[i - 1].words) expect(refs[i].typos).toBeGreaterThanOrEqual(refs[i - 1].typos);
      }
      // completeness: every book matching the first word is a hit
      const expected = books.filter((b) => reference(b, query).words > 0).length;
      expect(r.estimatedTotalHits).toBe(expected);
    },
  );

  test('words: all three words before two', () => {
    expect(titles({ query: 'harry potter prince' })[0]).toBe('Harry Potter and the Half-Blood Prince');
  });

  test.each(['harry potter', 'potter harry', 'the lord rings', 'shadow the', 'of the', 'secrets chamber', 'history world the'])(
    'proximity, then attribute, order the buckets for %j (exact words, brute-force reference)',
    (q) => {
      const query = tokenize(q);
      const r = strictWith(['words', 'proximity', 'attribute']).search({ query: q, limit: 300 });
      const refs = r.hits.map((h) => positional(h, query));
      for (let i = 1; i < refs.length; i++) {
        const [a, b] = [refs[i - 1], refs[i]];
        expect(b.words).toBeLessThanOrEqual(a.words);
        if (b.words !== a.words) continue;
        expect(b.proximity).toBeGreaterThanOrEqual(a.proximity);
        if (b.proximity === a.proximity) expect(b.attribute).toBeGreaterThanOrEqual(a.attribute);
      }
    },
  );

  test('attribute: a title match ranks before an author match', () => {
    const t = titles({ query: 'harry ' });
    expect(t).toHaveLength(5);
    expect(t[4]).toBe('On Bullshit');
  });

  test('exactness: the title equal to the query first', () => {
    const ex = indexOf(books, { ...SETTINGS, rankingRules: ['words', 'exactness'] }, 'id');
    const title = 'The Hobbit';
    if (books.some((b) => b.title === title)) {
      expect(ex.search({ query: 'the hobbit' }).hits[0].title).toBe(title);
    } else {
      const any = books[0].title as string;
      expect(ex.search({ query: any }).hits[0].title).toBe(any);
    }
  });

  test('sort: titles alphabetically where the sort rule stands', () => {
    const t = titles({ query: 'harry potter', sort: ['title:asc'] });
    expect(t.slice(0, 4)).toEqual([...HP].sort());
  });

  test('custom rule: publisher ascending after words', () => {
    const c = indexOf(books, { ...SETTINGS, rankingRules: ['words', 'publisher:asc'] }, 'id');
    const hits = c.search({ query: 'the', limit: 100 }).hits;
    const pubs = hits.map((h) => String(h.publisher ?? '').toLowerCase());
    expect(pubs).toEqual([...pubs].sort());
  });
});

describe('filters on books', () => {
  test('language facet and filter agree', () => {
    const r = e.search({ facets: ['language'], limit: 0 });
    for (const [lang, n] of Object.entries(r.facetDistribution!.language)) {
      expect(e.search({ filter: `language = "${lang}"`, limit: 0 }).estimatedTotalHits).toBe(n);
      expect(n).toBe(books.filter((b) => String(b.language).toLowerCase() === lang.toLowerCase()).length);
    }
  });
});
