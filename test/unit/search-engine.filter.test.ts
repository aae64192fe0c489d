// Filter grammar: every operator, precedence (NOT > AND > OR), quoting, numbers vs strings, arrays,
// the array form, and errors with their positions.
import { parseFilter } from '../../lib/search-engine/index.js';
import { MAX_FILTER_DEPTH } from '../../lib/search-engine/filter/parser.js';
import { engineWith, errorOf, ids } from './search-engine.fixtures.js';

const DOCS = [
  { id: 1, genre: 'horror', year: 1980, tags: ['classic', 'gore'], rating: 7.5, title: 'a' },
  { id: 2, genre: 'comedy', year: 1995, tags: ['family'], rating: 6, title: 'a' },
  { id: 3, genre: 'Horror', year: 2005, tags: [], title: 'a', note: null },
  { id: 4, genre: 'drama', year: '2010', tags: ['classic'], rating: 8.1, title: 'a' },
  { id: 5, genre: 'science fiction', year: 2021, rating: 9, title: 'a', note: '' },
  { id: 6, title: 'a', year: 10, code: '10' },
];
const e = engineWith(DOCS, { filterableAttributes: ['genre', 'year', 'tags', 'rating', 'note', 'code'] });
const f = (filter: string | (string | string[])[]) => ids(e, { filter }).map(Number).sort((a, b) => a - b);

describe('operators', () => {
  test('= and != (strings compare case- and accent-insensitively; != includes documents without the field)', () => {
    expect(f('genre = horror')).toEqual([1, 3]);
    expect(f('genre = HÓRROR')).toEqual([1, 3]);
    expect(f('genre != horror')).toEqual([2, 4, 5, 6]);
  });

  test('> >= < <= on numbers', () => {
    expect(f('year > 1995')).toEqual([3, 5]);
    expect(f('year >= 1995')).toEqual([2, 3, 5]);
    expect(f('year < 1995')).toEqual([1, 6]);
    expect(f('year <= 1995')).toEqual([1, 2, 6]);
    expect(f('rating > 7.9')).toEqual([4, 5]);
  });

  test('numbers vs strings: a number equals numeric values and the same string; ranges only see numbers', () => {
    expect(f('year = 2010')).toEqual([4]); // the string "2010"
    expect(f('year > 2000')).toEqual([3, 5]); // "2010" is a string, not a number
    expect(f('code = 10')).toEqual([6]);
    expect(f('year = 10')).toEqual([6]);
  });

  test('TO is inclusive on both ends', () => {
    expect(f('year 1980 TO 2005')).toEqual([1, 2, 3]);
    expect(f('rating 6 TO 8.1')).toEqual([1, 2, 4]);
  });

  test('IN and NOT IN', () => {
    expect(f('genre IN [comedy, drama]')).toEqual([2, 4]);
    expect(f("genre IN ['science fiction', \"comedy\",]")).toEqual([2, 5]);
    expect(f('genre NOT IN [comedy, drama]')).toEqual([1, 3, 5, 6]);
    expect(f('genre IN []')).toEqual([]);
  });

  test('EXISTS, NOT EXISTS, IS NULL, IS EMPTY', () => {
    expect(f('rating EXISTS')).toEqual([1, 2, 4, 5]);
    expect(f('rating NOT EXISTS')).toEqual([3, 6]);
    expect(f('note EXISTS')).toEqual([3, 5]);
    expect(f('note IS NULL')).toEqual([3]);
    expect(f('note IS NOT NULL')).toEqual([1, 2, 4, 5, 6]);
    expect(f('tags IS EMPTY')).toEqual([3]);
    expect(f('note IS EMPTY')).toEqual([5]);
  });

  test('arrays match when any element matches', () => {
    expect(f('tags = classic')).toEqual([1, 4]);
    expect(f('tags != classic')).toEqual([2, 3, 5, 6]);
  });

  test('quoted values keep spaces and keywords', () => {
    expect(f('genre = "science fiction"')).toEqual([5]);
    expect(f("genre = 'science fiction'")).toEqual([5]);
    expect(f('genre = "AND"')).toEqual([]);
  });

  test('keywords are case-insensitive', () => {
    expect(f('genre = horror and year > 2000')).toEqual([3]);
  });
});

describe('boolean structure', () => {
  test('NOT binds tighter than AND, AND tighter than OR', () => {
    // a OR b AND c  ==  a OR (b AND c)
    expect(f('genre = comedy OR genre = horror AND year > 2000')).toEqual([2, 3]);
    expect(f('(genre = comedy OR genre = horror) AND year > 2000')).toEqual([3]);
    // NOT a AND b  ==  (NOT a) AND b
    expect(f('NOT genre = horror AND year > 1990')).toEqual([2, 5]);
    expect(f('NOT (genre = horror AND year > 1990)')).toEqual([1, 2, 4, 5, 6]);
    expect(f('NOT NOT genre = drama')).toEqual([4]);
  });

  test('the array form: outer AND, inner OR', () => {
    expect(f([['genre = comedy', 'genre = horror'], 'year > 1990'])).toEqual([2, 3]);
    expect(f(['tags = classic', 'rating > 8'])).toEqual([4]);
    expect(f([])).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('an empty filter filters nothing', () => {
    expect(f('')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(f('   ')).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('parseFilter', () => {
  test('builds the tree with positions', () => {
    expect(parseFilter('a = 1 OR b > 2 AND NOT c EXISTS')).toEqual({
      type: 'or',
      children: [
        { type: 'cmp', attr: 'a', pos: 0, op: '=', value: { raw: '1', num: 1, pos: 4 } },
        {
          type: 'and',
          children: [
            { type: 'cmp', attr: 'b', pos: 9, op: '>', value: { raw: '2', num: 2, pos: 13 } },
            { type: 'not', child: { type: 'exists', attr: 'c', pos: 23 } },
          ],
        },
      ],
    });
  });

  test('geo functions', () => {
    expect(parseFilter('_geoRadius(45.5, -73.6, 2000)')).toEqual({ type: 'geoRadius', pos: 0, lat: 45.5, lng: -73.6, radius: 2000 });
    expect(parseFilter('_geoBoundingBox([50, 0], [40, 10])')).toMatchObject({ type: 'geoBox', lat1: 50, lng1: 0, lat2: 40, lng2: 10 });
  });

  test.each([
    ['genre <> horror', 6, '`<>`'],
    ['genre horror', 6, 'Expected an operator'],
    ['genre = ', 8, 'Expected a value'],
    ['(genre = a', 10, '`)`'],
    ['genre = a AND', 13, 'Expected an attribute'],
    ['genre = a b', 10, 'Expected AND, OR'],
    ['year > abc', 7, 'not a number'],
    ['year 1 TO x', 10, 'TO takes numbers'],
    ["genre = 'open", 8, 'Unclosed quote'],
    ['genre IN [a b]', 12, 'Expected `,` or `]`'],
    ['genre ! a', 6, '`!`'],
    ['_geoRadius(1, 2)', 15, '`,`'],
    ['_geoRadius(100, 2, 3)', 0, 'Latitude'],
    ['_geoPoint(1, 2)', 0, 'reserved for sorting'],
    ['tags NOT = a', 9, 'Expected IN or EXISTS'],
    ['note IS nothing', 8, 'Expected NULL or EMPTY'],
  ])('%s → invalid_filter_syntax at %i', (filter, position, text) => {
    const err = errorOf(() => parseFilter(filter));
    expect(err).toMatchObject({ code: 'invalid_filter_syntax', parameter: 'filter', position });
    expect(err.message).toContain(text);
    expect(err.message).toContain(`position ${position}`);
  });
});

describe('nesting depth', () => {
  test('NOT and parentheses nest to MAX_FILTER_DEPTH; one more → invalid_filter_syntax naming the limit at its position', () => {
    expect(MAX_FILTER_DEPTH).toBe(200);
    expect(parseFilter(`${'NOT '.repeat(150)}${'('.repeat(50)}genre = a${')'.repeat(50)}`)).not.toBeNull();
    const notErr = errorOf(() => parseFilter(`${'NOT '.repeat(5000)}genre = a`));
    expect(notErr).toMatchObject({ code: 'invalid_filter_syntax', parameter: 'filter', position: 200 * 4 });
    expect(notErr.message).toContain('limit of 200 levels');
    const parenErr = errorOf(() => parseFilter(`${'('.repeat(100_000)}genre = a${')'.repeat(100_000)}`));
    expect(parenErr).toMatchObject({ code: 'invalid_filter_syntax', position: 200 });
    expect(errorOf(() => e.search({ filter: [['genre = a', `${'NOT ('.repeat(3000)}genre = a${')'.repeat(3000)}`]] })).code).toBe('invalid_filter_syntax');
  });
});

describe('filterable attributes', () => {
  test('a non-filterable attribute → attribute_not_filterable with its position', () => {
    const err = errorOf(() => e.search({ filter: 'genre = a AND title = b' }));
    expect(err).toMatchObject({ code: 'attribute_not_filterable', parameter: 'filter', position: 14 });
    expect(err.message).toContain('`title`');
  });

  test('syntax is checked before filterability', () => {
    expect(errorOf(() => e.search({ filter: 'title <> b' })).code).toBe('invalid_filter_syntax');
  });

  test('_geoRadius needs _geo filterable', () => {
    expect(errorOf(() => e.search({ filter: '_geoRadius(1, 2, 3)' })).code).toBe('attribute_not_filterable');
  });

  test('a filterable parent makes nested fields filterable', () => {
    const n = engineWith([{ id: 1, details: { pages: 100, lang: 'en' } }, { id: 2, details: [{ pages: 300 }] }], { filterableAttributes: ['details'] });
    expect(ids(n, { filter: 'details.pages > 200' })).toEqual(['2']);
    expect(ids(n, { filter: 'details.lang = EN' })).toEqual(['1']);
  });

  test('filterIds returns the matching ids (for delete-by-filter)', () => {
    expect(e.filterIds('genre = horror OR year = 10')).toEqual(['1', '3', '6']);
    expect(e.filterIds(undefined)).toHaveLength(6);
  });
});

describe('a range holding most of a field (set as its complement)', () => {
  test('the same documents as testing each one: one or several numbers, strings, missing values, deletions, segments', () => {
    let seed = 5;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const value = (several: boolean): unknown => {
      const r = rnd();
      const n = Math.floor(rnd() * 100);
      if (r < 0.1) return undefined;
      if (r < 0.15) return String(n);
      if (several && r < 0.4) return [n, Math.floor(rnd() * 100)];
      return n;
    };
    const docs = Array.from({ length: 3000 }, (_, id) => ({ id, one: value(false), many: value(true) }));
    const n = engineWith([], { filterableAttributes: ['one', 'many'] });
    for (let i = 0; i < docs.length; i += 500) n.addDocuments(docs.slice(i, i + 500), 'id');
    const deleted = new Set(docs.filter(() => rnd() < 0.1).map((d) => d.id));
    n.deleteDocuments([...deleted].map(String));
    const numbers = (v: unknown): number[] => (Array.isArray(v) ? v : [v]).filter((x): x is number => typeof x === 'number');
    const ops: Record<string, (x: number, t: number) => boolean> = { '<': (x, t) => x < t, '<=': (x, t) => x <= t, '>': (x, t) => x > t, '>=': (x, t) => x >= t };
    for (const attr of ['one', 'many'] as const) {
      for (const t of [0, 3, 50, 97, 99, 100]) {
        for (const [op, test] of Object.entries(ops)) {
          const want = docs.filter((d) => !deleted.has(d.id) && numbers(d[attr]).some((x) => test(x, t))).map((d) => String(d.id));
          expect(n.filterIds(`${attr} ${op} ${t}`).sort()).toEqual(want.sort());
        }
        const want = docs.filter((d) => !deleted.has(d.id) && numbers(d[attr]).some((x) => x >= 2 && x <= t)).map((d) => String(d.id));
        expect(n.filterIds(`${attr} 2 TO ${t} AND NOT ${attr} = 1000`).sort()).toEqual(want.sort());
      }
    }
  });
});
