// Each ranking rule alone, then their order: a rule only breaks the ties of the rules before it.
import { engineWith, errorOf, ids } from './search-engine.fixtures.js';

describe('each rule in isolation', () => {
  test('words: more query words (counted from the first) rank higher; the first word is required', () => {
    const e = engineWith(
      [
        { id: 1, t: 'alpha' },
        { id: 2, t: 'alpha beta' },
        { id: 3, t: 'alpha beta gamma' },
        { id: 4, t: 'beta gamma' },
        { id: 5, t: 'alpha gamma' },
      ],
      { rankingRules: ['words'] },
    );
    expect(ids(e, { query: 'alpha beta gamma ' })).toEqual(['3', '2', '1', '5']);
  });

  test('typo: fewer typos first', () => {
    const e = engineWith(
      [
        { id: 1, t: 'sevem wonders' },
        { id: 2, t: 'seven wonders' },
        { id: 3, t: 'sevem wondres' },
      ],
      { rankingRules: ['typo'] },
    );
    expect(ids(e, { query: 'seven wonders ' })).toEqual(['2', '1', '3']);
  });

  test('proximity: closer words first; reversed order costs one more', () => {
    const e = engineWith(
      [
        { id: 1, t: 'quick brown lazy fox' },
        { id: 2, t: 'quick fox' },
        { id: 3, t: 'fox quick' },
        { id: 4, t: 'quick and fox' },
      ],
      { rankingRules: ['proximity'] },
    );
    expect(ids(e, { query: 'quick fox ' })).toEqual(['2', '3', '4', '1']);
  });

  test('proximity: words in different attributes are farthest', () => {
    const e = engineWith(
      [
        { id: 1, a: 'quick', b: 'fox' },
        { id: 2, a: 'quick one two three four five six seven fox' },
        { id: 3, a: 'quick one fox' },
      ],
      { rankingRules: ['proximity'] },
    );
    expect(ids(e, { query: 'quick fox ' })).toEqual(['3', '1', '2']);
  });

  test('attribute: matches in earlier searchable attributes first, then earlier in the attribute', () => {
    const e = engineWith(
      [
        { id: 1, title: 'nothing here', body: 'fox' },
        { id: 2, title: 'the big fox', body: 'x' },
        { id: 3, title: 'fox', body: 'x' },
      ],
      { rankingRules: ['attribute'], searchableAttributes: ['title', 'body'] },
    );
    expect(ids(e, { query: 'fox ' })).toEqual(['3', '2', '1']);
    // the order of searchableAttributes decides, not the document's field order
    const r = engineWith(
      [
        { id: 1, title: 'fox', body: 'x' },
        { id: 2, title: 'x', body: 'fox' },
      ],
      { rankingRules: ['attribute'], searchableAttributes: ['body', 'title'] },
    );
    expect(ids(r, { query: 'fox ' })).toEqual(['2', '1']);
  });

  test('exactness: the whole attribute, then exact words over prefix/typo/synonym matches', () => {
    const e = engineWith(
      [
        { id: 1, t: 'harry pottery' },
        { id: 2, t: 'harry potter and the stone' },
        { id: 3, t: 'harry potter' },
        { id: 4, t: 'harry pottr' },
      ],
      { rankingRules: ['exactness'] },
    );
    expect(ids(e, { query: 'harry potter' })).toEqual(['3', '2', '1', '4']);
  });

  test('sort: the request sort, numbers ascending or descending, missing values last', () => {
    const docs = [
      { id: 1, t: 'x', price: 30 },
      { id: 2, t: 'x', price: 10 },
      { id: 3, t: 'x' },
      { id: 4, t: 'x', price: 20 },
    ];
    const e = engineWith(docs, { rankingRules: ['sort'], sortableAttributes: ['price'] });
    expect(ids(e, { query: 'x', sort: ['price:asc'] })).toEqual(['2', '4', '1', '3']);
    expect(ids(e, { query: 'x', sort: ['price:desc'] })).toEqual(['1', '4', '2', '3']);
    expect(ids(e, { sort: ['price:desc'] })).toEqual(['1', '4', '2', '3']);
  });

  test('sort: several criteria, strings case-insensitively, numbers before strings', () => {
    const e = engineWith(
      [
        { id: 1, g: 'b', n: 2 },
        { id: 2, g: 'A', n: 1 },
        { id: 3, g: 'b', n: 1 },
        { id: 4, g: 5, n: 1 },
      ],
      { rankingRules: ['sort'], sortableAttributes: ['g', 'n'] },
    );
    expect(ids(e, { sort: ['g:asc', 'n:asc'] })).toEqual(['4', '2', '3', '1']);
    expect(ids(e, { sort: ['g:desc', 'n:desc'] })).toEqual(['1', '3', '2', '4']);
  });

  test('custom attr:asc|desc rules', () => {
    const docs = [
      { id: 1, t: 'x', rating: 3 },
      { id: 2, t: 'x', rating: 5 },
      { id: 3, t: 'x', rating: 4 },
    ];
    expect(ids(engineWith(docs, { rankingRules: ['rating:desc'] }), { query: 'x' })).toEqual(['2', '3', '1']);
    expect(ids(engineWith(docs, { rankingRules: ['rating:asc'] }), { query: 'x' })).toEqual(['1', '3', '2']);
  });

  test('ties keep insertion order', () => {
    const e = engineWith([{ id: 'b', t: 'x' }, { id: 'a', t: 'x' }, { id: 'c', t: 'x' }]);
    expect(ids(e, { query: 'x' })).toEqual(['b', 'a', 'c']);
  });
});

describe('rule order', () => {
  const docs = [
    { id: 1, t: 'alpha seven', price: 50 },
    { id: 2, t: 'alpha', price: 10 },
    { id: 3, t: 'alpha sevem', price: 5 },
  ];

  test('a later rule only breaks ties', () => {
    const e = engineWith(docs, { rankingRules: ['words', 'typo', 'price:asc'] });
    expect(ids(e, { query: 'alpha seven ' })).toEqual(['1', '3', '2']);
    const f = engineWith(docs, { rankingRules: ['words', 'price:asc', 'typo'] });
    expect(ids(f, { query: 'alpha seven ' })).toEqual(['3', '1', '2']);
    const g = engineWith(docs, { rankingRules: ['price:asc', 'words'] });
    expect(ids(g, { query: 'alpha seven ' })).toEqual(['3', '2', '1']);
  });

  test('the request sort applies where the sort rule stands', () => {
    const before = engineWith(docs, { rankingRules: ['sort', 'words', 'typo'], sortableAttributes: ['price'] });
    expect(ids(before, { query: 'alpha seven ', sort: ['price:desc'] })).toEqual(['1', '2', '3']);
    const after = engineWith(docs, { rankingRules: ['words', 'typo', 'sort'], sortableAttributes: ['price'] });
    expect(ids(after, { query: 'alpha seven ', sort: ['price:desc'] })).toEqual(['1', '3', '2']);
  });

  test('paging through ranked results is consistent', () => {
    const many = Array.from({ length: 57 }, (_, i) => ({ id: i, t: i % 3 ? 'alpha beta' : 'alpha', price: (i * 37) % 11 }));
    const e = engineWith(many, { rankingRules: ['words', 'sort'], sortableAttributes: ['price'] });
    const all = ids(e, { query: 'alpha seven ', sort: ['price:asc'], limit: 57 });
    const paged: string[] = [];
    for (let offset = 0; offset < 57; offset += 10) paged.push(...ids(e, { query: 'alpha seven ', sort: ['price:asc'], offset, limit: 10 }));
    expect(paged).toEqual(all);
  });
});

describe('sort errors', () => {
  const e = engineWith([{ id: 1, price: 1 }], { sortableAttributes: ['price'] });
  test.each([['title:asc'], ['price'], ['price:up'], ['_geoPoint(1,2):asc']])('%s → invalid_sort_attribute', (s) => {
    expect(errorOf(() => e.search({ sort: [s] }))).toMatchObject({ code: 'invalid_sort_attribute', parameter: 'sort' });
  });

  test('sorting needs the sort ranking rule', () => {
    const n = engineWith([{ id: 1, price: 1 }], { sortableAttributes: ['price'], rankingRules: ['words'] });
    expect(errorOf(() => n.search({ sort: ['price:asc'] })).code).toBe('invalid_sort_attribute');
  });

  test('invalid ranking rules are invalid settings', () => {
    expect(errorOf(() => engineWith([], { rankingRules: ['words', 'fame'] })).code).toBe('invalid_settings');
    expect(errorOf(() => engineWith([], { rankingRules: ['words', 'words'] })).code).toBe('invalid_settings');
  });
});
