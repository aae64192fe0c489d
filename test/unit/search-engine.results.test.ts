// Result shaping: facets and stats, distinct, highlighting and cropping, match positions, paging caps, geo.
import { engineWith, errorOf, ids } from './search-engine.fixtures.js';

describe('facets', () => {
  const e = engineWith(
    [
      { id: 1, t: 'pizza', cuisine: 'Italian', price: 10, tags: ['veg', 'cheap'] },
      { id: 2, t: 'pasta', cuisine: 'italian', price: 20, tags: ['veg'] },
      { id: 3, t: 'pizza', cuisine: 'French', price: 30 },
      { id: 4, t: 'sushi', cuisine: 'Japanese', price: 40, tags: ['fish'] },
      { id: 5, t: 'pizza', price: 'n/a' },
    ],
    { filterableAttributes: ['cuisine', 'price', 'tags'] },
  );

  test('distribution counts every candidate (not only the page), values as first written', () => {
    const r = e.search({ query: 'pizza', facets: ['cuisine', 'tags', 'price'], limit: 1 });
    expect(r.hits).toHaveLength(1);
    expect(r.facetDistribution).toEqual({ cuisine: { French: 1, Italian: 1 }, tags: { cheap: 1, veg: 1 }, price: { '10': 1, '30': 1, 'n/a': 1 } });
    expect(r.facetStats).toEqual({ price: { min: 10, max: 30, avg: 20, sum: 40 } });
  });

  test('facets follow the filter; case variants count together', () => {
    const r = e.search({ filter: 'price < 35', facets: ['cuisine'] });
    expect(r.facetDistribution).toEqual({ cuisine: { French: 1, Italian: 2 } });
  });

  test('order: alphabetical by default, by count on request, capped by maxValuesPerFacet', () => {
    const r = e.search({ facets: ['tags'], sortFacetValuesBy: 'count', maxValuesPerFacet: 2 });
    expect(Object.entries(r.facetDistribution!.tags)).toEqual([
      ['veg', 2],
      ['cheap', 1],
    ]);
    expect(Object.keys(e.search({ facets: ['tags'] }).facetDistribution!.tags)).toEqual(['cheap', 'fish', 'veg']);
  });

  test("the settings' faceting: values per facet and each attribute's order ('*' the others); a request's order and cap still win", () => {
    const f = engineWith(
      [
        { id: 1, tags: ['veg', 'cheap'], cuisine: 'Italian' },
        { id: 2, tags: ['veg'], cuisine: 'French' },
        { id: 3, tags: ['fish'], cuisine: 'French' },
      ],
      { filterableAttributes: ['tags', 'cuisine'], faceting: { maxValuesPerFacet: 2, sortFacetValuesBy: { '*': 'count', cuisine: 'alpha' } } },
    );
    const r = f.search({ facets: ['tags', 'cuisine'] }).facetDistribution!;
    expect(Object.entries(r.tags)).toEqual([
      ['veg', 2],
      ['cheap', 1],
    ]);
    expect(Object.keys(r.cuisine)).toEqual(['French', 'Italian']);
    expect(Object.keys(f.search({ facets: ['tags'], sortFacetValuesBy: 'alpha', maxValuesPerFacet: 3 }).facetDistribution!.tags)).toEqual(['cheap', 'fish', 'veg']);
  });

  test("the settings' maxTotalHits: offset and numbered pages reach that many ranked hits", () => {
    const docs = Array.from({ length: 1200 }, (_, i) => ({ id: i, n: i }));
    expect(engineWith(docs).search({ offset: 1100, limit: 10 }).hits).toEqual([]);
    const wide = engineWith(docs, { maxTotalHits: 1150 });
    expect(wide.search({ offset: 1100, limit: 100 }).hits.map((h) => h.id)).toEqual(Array.from({ length: 50 }, (_, i) => 1100 + i));
    expect(wide.search({ page: 3, hitsPerPage: 500 })).toMatchObject({ totalHits: 1200, totalPages: 3 });
    expect(wide.search({ page: 3, hitsPerPage: 500 }).hits).toHaveLength(150);
    expect(errorOf(() => engineWith([], { maxTotalHits: 0 }))).toMatchObject({ code: 'invalid_settings', parameter: 'pagination.max_total_hits' });
  });

  test("'*' means every filterable attribute; a non-filterable facet is an error", () => {
    expect(Object.keys(e.search({ facets: ['*'] }).facetDistribution!)).toEqual(['cuisine', 'price', 'tags']);
    expect(errorOf(() => e.search({ facets: ['t'] }))).toMatchObject({ code: 'invalid_search_facets', parameter: 'facets' });
  });

  test('no facets requested, no facet fields', () => {
    const r = e.search({ query: 'pizza' });
    expect(r.facetDistribution).toBeUndefined();
    expect(r.facetStats).toBeUndefined();
  });
});

describe('ranking score', () => {
  const e = engineWith(
    [
      { id: 1, title: 'Harry Potter', year: 1997 },
      { id: 2, title: 'Harry Potter and the Goblet of Fire', year: 2000 },
      { id: 3, title: 'Potter about the garden with Harry', year: 2010 },
      { id: 4, title: 'Harry Hill', year: 2005 },
      { id: 5, title: 'Hary Potter', year: 2011 },
    ],
    { searchableAttributes: ['title'], sortableAttributes: ['year'] },
  );
  const scored = (req: object) => e.search({ query: 'harry potter ', showRankingScore: true, limit: 10, ...req }).hits.map((h) => [String(h.id), h._rankingScore as number] as const);

  test('from 0 to 1, never rising along the hits; 1 for an attribute equal to the query; a placeholder scores 1', () => {
    const hits = scored({});
    expect(hits.map(([id]) => id)).toEqual(['1', '2', '3', '5', '4']);
    expect(hits[0][1]).toBe(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i][1]).toBeLessThanOrEqual(hits[i - 1][1]);
    expect(hits.every(([, s]) => s > 0 && s <= 1)).toBe(true);
    // a word missing weighs more than anything after it: the words rule comes first
    expect(hits[4][1]).toBeLessThan(0.5);
    expect(e.search({ query: '', showRankingScore: true }).hits.every((h) => h._rankingScore === 1)).toBe(true);
    expect(e.search({ query: 'harry' }).hits[0]).not.toHaveProperty('_rankingScore');
  });

  test("details: each rule's part, in the rules' order; sort rules show their value", () => {
    const [hit] = e.search({ query: 'harry potter ', showRankingScoreDetails: true, sort: ['year:desc'], limit: 1, filter: undefined }).hits;
    expect(hit).not.toHaveProperty('_rankingScore');
    expect(hit._rankingScoreDetails).toEqual({
      words: { order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1 },
      typo: { order: 1, typoCount: 0, maxTypoCount: 2, score: 1 },
      proximity: { order: 2, score: expect.any(Number) },
      attribute: { order: 3, attributeRankingOrderScore: 1, queryWordDistanceScore: expect.any(Number), score: expect.any(Number) },
      'year:desc': { order: 4, value: expect.any(Number) },
      exactness: { order: 5, matchType: expect.any(String), inexactWords: expect.any(Number), score: expect.any(Number) },
    });
  });

  test('rankingScoreThreshold leaves out the hits below it, and they leave the total', () => {
    const all = scored({});
    const cut = all[2][1];
    const kept = e.search({ query: 'harry potter ', rankingScoreThreshold: cut, limit: 10 });
    expect(kept.hits.map((h) => String(h.id))).toEqual(all.filter(([, s]) => s >= cut).map(([id]) => id));
    expect(kept.estimatedTotalHits).toBe(kept.hits.length);
    expect(e.search({ query: 'harry potter ', rankingScoreThreshold: 0 }).estimatedTotalHits).toBe(5);
    for (const bad of [-0.1, 1.5, '0.5']) {
      expect(errorOf(() => e.search({ query: 'x', rankingScoreThreshold: bad as never }))).toMatchObject({ code: 'invalid_search_ranking_score_threshold', parameter: 'rankingScoreThreshold' });
    }
  });
});

describe('facets over several requests (federated search)', () => {
  const e = engineWith(
    [
      { id: 1, title: 'Great Expectations', genre: 'novel', year: 1861 },
      { id: 2, title: 'Oliver Twist', genre: 'novel', year: 1838 },
      { id: 3, title: 'The Origin of Species', genre: 'science', year: 1859 },
      { id: 4, title: 'Great Apes', genre: 'science', year: 2001 },
    ],
    { filterableAttributes: ['genre', 'year'] },
  );

  test('the facets count the documents any of the requests selects, each once', () => {
    const r = e.search({ query: 'great', limit: 1, facets: ['genre', 'year'], facetsAlsoOver: [{ query: 'oliver' }, { query: 'great', filter: 'genre = science' }, { query: 'species', matchingStrategy: 'all' }] });
    expect(r.hits.map((h) => h.id)).toEqual([1]); // the hits are this request's own
    expect(r.estimatedTotalHits).toBe(2);
    expect(r.facetDistribution).toEqual({ genre: { novel: 2, science: 2 }, year: { '1838': 1, '1859': 1, '1861': 1, '2001': 1 } });
    expect(r.facetStats).toEqual({ year: { min: 1838, max: 2001, avg: (1861 + 1838 + 1859 + 2001) / 4, sum: 1861 + 1838 + 1859 + 2001 } });
    // a placeholder request selects every document its filter allows
    expect(e.search({ query: 'oliver', limit: 0, facets: ['genre'], facetsAlsoOver: [{ filter: 'year > 1850' }] }).facetDistribution).toEqual({ genre: { novel: 2, science: 2 } });
  });

  test('an invalid request among them is refused as the search itself would be', () => {
    expect(errorOf(() => e.search({ facets: ['genre'], facetsAlsoOver: [{ filter: 'title = x' }] }))).toMatchObject({ code: 'attribute_not_filterable' });
    expect(errorOf(() => e.search({ facets: ['genre'], facetsAlsoOver: 'x' as never }))).toMatchObject({ code: 'invalid_search_facets', parameter: 'facetsAlsoOver' });
  });
});

describe('facet search', () => {
  const e = engineWith(
    [
      { id: 1, title: 'Great Expectations', author: 'Charles Dickens', year: 1861, tags: ['classic', 'novel'] },
      { id: 2, title: 'Oliver Twist', author: 'Charles Dickens', year: 1838, tags: ['classic'] },
      { id: 3, title: 'The Origin of Species', author: 'Charles Darwin', year: 1859, tags: ['science'] },
      { id: 4, title: 'Emma', author: 'Jane Austen', year: 1815, tags: ['classic', 'novel'] },
      { id: 5, title: 'Dickens: A Life', author: 'Claire Tomalin', year: 2011, tags: ['biography'] },
    ],
    { filterableAttributes: ['author', 'year', 'tags'] },
  );
  const values = (facetName: string, facetQuery?: string, rest: object = {}) => e.search({ limit: 0, facetSearch: { facetName, facetQuery }, ...rest }).facetDistribution![facetName];

  test('every word of the facet query begins a word of the value; most frequent first; no query: every value', () => {
    expect(Object.entries(values('author', 'char'))).toEqual([
      ['Charles Dickens', 2],
      ['Charles Darwin', 1],
    ]);
    expect(values('author', 'dick')).toEqual({ 'Charles Dickens': 2 });
    expect(values('author', 'charles DÁR')).toEqual({ 'Charles Darwin': 1 });
    expect(values('author', 'ickens')).toEqual({});
    expect(Object.keys(values('tags'))).toEqual(['classic', 'novel', 'biography', 'science']);
    expect(values('year', '18')).toEqual({ '1815': 1, '1838': 1, '1859': 1, '1861': 1 });
  });

  test("the facet query's words take typos as a search's do; not where the index turns them off", () => {
    expect(values('author', 'dikens')).toEqual({ 'Charles Dickens': 2 });
    expect(values('author', 'charles darwn')).toEqual({ 'Charles Darwin': 1 });
    expect(values('author', 'dik')).toEqual({}); // under five letters: no typo
    expect(values('author', 'ickens')).toEqual({}); // a wrong first letter counts as two
    const docs = [{ id: 1, author: 'Charles Dickens', code: 'ab12345' }];
    const search = (settings: object, facetName: string, facetQuery: string) =>
      engineWith(docs, { filterableAttributes: ['author', 'code'], ...settings }).search({ limit: 0, facetSearch: { facetName, facetQuery } }).facetDistribution![facetName];
    const tolerance = (extra: object) => ({ typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, ...extra } });
    expect(search({ typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } } }, 'author', 'dikens')).toEqual({});
    expect(search(tolerance({ disableOnAttributes: ['author'] }), 'author', 'dikens')).toEqual({});
    expect(search(tolerance({ disableOnWords: ['dikens'] }), 'author', 'dikens')).toEqual({});
    expect(search(tolerance({}), 'code', 'ab12346')).toEqual({ ab12345: 1 });
    expect(search(tolerance({ disableOnAttributes: ['author'] }), 'code', 'ab12346')).toEqual({ ab12345: 1 });
  });

  test('only the documents the query and filter select are counted', () => {
    expect(values('author', 'c', { query: 'dickens' })).toEqual({ 'Charles Dickens': 2, 'Claire Tomalin': 1 });
    expect(values('tags', '', { filter: 'year < 1850' })).toEqual({ classic: 2, novel: 1 });
    expect(values('tags', 'nov', { filter: 'author = "Charles Dickens"' })).toEqual({ novel: 1 });
  });

  test('facetName must be filterable; facetQuery a string', () => {
    expect(errorOf(() => e.search({ facetSearch: { facetName: 'title' } }))).toMatchObject({ code: 'invalid_facet_search_facet_name', parameter: 'facetName' });
    expect(errorOf(() => e.search({ facetSearch: { facetName: '' } }))).toMatchObject({ code: 'invalid_facet_search_facet_name', parameter: 'facetName' });
    expect(errorOf(() => e.search({ facetSearch: { facetName: 'tags', facetQuery: 3 as never } }))).toMatchObject({ code: 'invalid_facet_search_facet_query', parameter: 'facetQuery' });
  });
});

describe('distinct attribute', () => {
  const docs = [
    { id: 1, t: 'shirt red', sku: 'A', rank: 3 },
    { id: 2, t: 'shirt blue', sku: 'A', rank: 1 },
    { id: 3, t: 'shirt', sku: 'B', rank: 2 },
    { id: 4, t: 'shirt green', rank: 4 },
    { id: 5, t: 'shirt', sku: 'B', rank: 0 },
  ];

  test('keeps the best-ranked document per value; documents without the field are kept', () => {
    const e = engineWith(docs, { distinctAttribute: 'sku', rankingRules: ['rank:asc'] });
    const r = e.search({ query: 'shirt' });
    expect(r.hits.map((h) => h.id)).toEqual([5, 2, 4]);
    expect(r.estimatedTotalHits).toBe(3);
  });

  test('paging works on distinct results', () => {
    const e = engineWith(docs, { distinctAttribute: 'sku', rankingRules: ['rank:asc'] });
    expect(ids(e, { query: 'shirt', offset: 1, limit: 1 })).toEqual(['2']);
  });
});

describe('distinct search parameter', () => {
  const docs = [
    { id: 1, t: 'shirt', sku: 'A', colour: 'Red', size: 2, rank: 3 },
    { id: 2, t: 'shirt', sku: 'A', colour: 'red', size: 1, rank: 1 },
    { id: 3, t: 'shirt', sku: 'B', colour: 'Blue', size: '1', rank: 2 },
    { id: 4, t: 'shirt', rank: 4, size: [1, 2] },
    { id: 5, t: 'shirt', sku: 'B', colour: 'Green', size: [2, 1], rank: 0 },
    { id: 6, t: 'shirt', sku: 'C', size: 2, rank: 5 },
  ];
  const settings = { filterableAttributes: ['colour', 'size', 'sku'], distinctAttribute: 'sku', rankingRules: ['rank:asc'] };

  test('a filterable attribute stands in for the distinct attribute; values compare as filters do (case aside)', () => {
    const e = engineWith(docs, settings);
    expect(ids(e, { query: 'shirt' })).toEqual(['5', '2', '4', '6']);
    const byColour = e.search({ query: 'shirt', distinct: 'colour', limit: 100 });
    expect(byColour.hits.map((h) => h.id)).toEqual([5, 2, 3, 4, 6]);
    expect(byColour.estimatedTotalHits).toBe(5);
  });

  test('numbers by value (1 and "1" differ); several values by their set; no value is never a duplicate', () => {
    const e = engineWith(docs, settings);
    // size: 5 and 4 share {1, 2}; 2 has 1; 3 has "1"; 1 and 6 share 2
    const r = e.search({ query: 'shirt', distinct: 'size', limit: 100 });
    expect(r.hits.map((h) => h.id)).toEqual([5, 2, 3, 1]);
    expect(r.estimatedTotalHits).toBe(4);
    expect(ids(e, { query: 'shirt', distinct: 'size', offset: 2, limit: 1 })).toEqual(['3']);
  });

  test('one numbering across segments; after a delete and compaction', () => {
    const e = engineWith(docs.slice(0, 3), settings);
    e.addDocuments(docs.slice(3), 'id');
    e.addDocuments([{ id: 7, t: 'shirt', sku: 'D', colour: 'RED', rank: -1 }], 'id');
    expect(ids(e, { query: 'shirt', distinct: 'colour' })).toEqual(['7', '5', '3', '4', '6']);
    e.deleteDocuments(['7']);
    e.compact();
    expect(ids(e, { query: 'shirt', distinct: 'colour' })).toEqual(['5', '2', '3', '4', '6']);
    expect(ids(e, { query: 'shirt', distinct: 'sku', filter: 'size = 2' })).toEqual(['5', '1', '4', '6']);
  });

  test('an attribute that is not filterable is refused, naming distinct', () => {
    const e = engineWith(docs, settings);
    expect(errorOf(() => e.search({ query: 'shirt', distinct: 'rank' }))).toMatchObject({ code: 'invalid_search_distinct', parameter: 'distinct' });
    expect(errorOf(() => e.search({ query: 'shirt', distinct: 3 as never }))).toMatchObject({ code: 'invalid_search_distinct', parameter: 'distinct' });
  });
});

describe('highlighting, cropping and match positions', () => {
  const e = engineWith([
    {
      id: 1,
      title: 'Harry Potter and the Half-Blood Prince',
      overview: 'The war against Voldemort is not going well; even Muggle governments are noticing. Ron scans the obituary pages of the Daily Prophet looking for familiar names. Dumbledore is absent from Hogwarts for long stretches of time, and Harry Potter is busy.',
      tags: ['wizard', 'potter fans'],
      year: 2005,
    },
  ]);

  test('default tags, prefix matches highlight only the typed part', () => {
    const h = e.search({ query: 'harry pott', attributesToHighlight: ['title'] }).hits[0];
    expect((h._formatted as any).title).toBe('<em>Harry</em> <em>Pott</em>er and the Half-Blood Prince');
  });

  test('custom tags, typo matches highlight the whole word, arrays element by element', () => {
    const h = e.search({ query: 'harry pottre ', attributesToHighlight: ['*'], highlightPreTag: '[', highlightPostTag: ']' }).hits[0];
    const f = h._formatted as any;
    expect(f.title).toBe('[Harry] [Potter] and the Half-Blood Prince');
    expect(f.tags).toEqual(['wizard', '[potter] fans']);
    expect(f.year).toBe('2005');
  });

  test('numbers become strings in _formatted and are highlighted like text', () => {
    const h = e.search({ query: '2005', attributesToHighlight: ['*'] }).hits[0];
    expect((h._formatted as any).year).toBe('<em>2005</em>');
    expect(h.year).toBe(2005);
  });

  test('_formatted holds every retrieved attribute, only highlighted where asked', () => {
    const h = e.search({ query: 'harry', attributesToHighlight: ['title'], attributesToRetrieve: ['title', 'tags'] }).hits[0];
    expect(Object.keys(h)).toEqual(['title', 'tags', '_formatted']);
    expect((h._formatted as any).tags).toEqual(['wizard', 'potter fans']);
  });

  test('cropping keeps cropLength words around the matches, with markers where text was cut', () => {
    const h = e.search({ query: 'obituary', attributesToCrop: ['overview'], cropLength: 5 }).hits[0];
    expect((h._formatted as any).overview).toBe('…scans the obituary pages of…');
    const both = e.search({ query: 'dumbledore', attributesToCrop: ['overview:4'], attributesToHighlight: ['overview'], cropMarker: '...' }).hits[0];
    expect((both._formatted as any).overview).toBe('...names. <em>Dumbledore</em> is absent...');
  });

  test('cropping without a match starts at the beginning; short values are not cut', () => {
    const h = e.search({ query: 'prince', attributesToCrop: ['overview', 'title'], cropLength: 3 }).hits[0];
    expect((h._formatted as any).overview).toBe('The war against…');
    expect((h._formatted as any).title).toBe('…Half-Blood Prince');
    const long = e.search({ query: 'prince', attributesToCrop: ['title'], cropLength: 50 }).hits[0];
    expect((long._formatted as any).title).toBe('Harry Potter and the Half-Blood Prince');
  });

  test('_matchesPosition: UTF-16 start and length per field, with array indices', () => {
    const h = e.search({ query: 'potter', showMatchesPosition: true }).hits[0];
    const o = (h as any).overview as string;
    const at = o.indexOf('Potter is busy');
    expect(h._matchesPosition).toEqual({
      title: [{ start: 6, length: 6 }],
      overview: [{ start: at, length: 6 }],
      tags: [{ start: 0, length: 6, indices: [1] }],
    });
  });

  test('positions count UTF-16 units in text with accents and astral characters', () => {
    const x = engineWith([{ id: 1, t: '😀 Crème brûlée' }]);
    const h = x.search({ query: 'brulee', showMatchesPosition: true }).hits[0];
    expect(h._matchesPosition).toEqual({ t: [{ start: 9, length: 6 }] });
    expect('😀 Crème brûlée'.slice(9, 15)).toBe('brûlée');
  });
});

describe('paging', () => {
  const e = engineWith(Array.from({ length: 1200 }, (_, i) => ({ id: i, t: 'item' })));

  test('defaults: offset 0, limit 20', () => {
    const r = e.search({ query: 'item' });
    expect([r.offset, r.limit, r.hits.length, r.estimatedTotalHits]).toEqual([0, 20, 20, 1200]);
    expect(typeof r.processingTimeMs).toBe('number');
    expect(r.query).toBe('item');
  });

  test('only the first 1000 ranked hits are reachable (maxTotalHits)', () => {
    expect(e.search({ query: 'item', offset: 990, limit: 20 }).hits).toHaveLength(10);
    expect(e.search({ query: 'item', offset: 1000, limit: 20 }).hits).toHaveLength(0);
    expect(e.search({ query: 'item', limit: 5000 }).hits).toHaveLength(1000);
  });

  test('limit 0 returns counts and facets only', () => {
    const r = e.search({ query: 'item', limit: 0 });
    expect([r.hits.length, r.estimatedTotalHits]).toEqual([0, 1200]);
  });

  test.each([
    [{ offset: -1 }, 'invalid_search_offset'],
    [{ offset: 1.5 }, 'invalid_search_offset'],
    [{ limit: -3 }, 'invalid_search_limit'],
  ])('%j → %s', (req, code) => expect(errorOf(() => e.search(req)).code).toBe(code));
});

describe('numbered pages', () => {
  const e = engineWith(Array.from({ length: 45 }, (_, i) => ({ id: i + 1, t: 'common' })));
  test('page and hitsPerPage stand for offset and limit; pages counted; offset/limit then ignored', () => {
    const r = e.search({ query: 'common', page: 3, hitsPerPage: 20, offset: 7, limit: 1 });
    expect(r).toMatchObject({ page: 3, hitsPerPage: 20, totalHits: 45, totalPages: 3, offset: 40, limit: 20 });
    expect(r.hits).toHaveLength(5);
    expect(e.search({ page: 1 })).toMatchObject({ hitsPerPage: 20, totalPages: 3 });
    expect(e.search({ hitsPerPage: 0 })).toMatchObject({ page: 1, totalPages: 0, totalHits: 45, hits: [] });
    expect(e.search({ query: 'common' })).not.toHaveProperty('totalPages');
  });
  test('refusals name the parameter', () => {
    expect(errorOf(() => e.search({ page: 0 }))).toMatchObject({ code: 'invalid_search_page', parameter: 'page' });
    expect(errorOf(() => e.search({ page: 1.5 }))).toMatchObject({ code: 'invalid_search_page' });
    expect(errorOf(() => e.search({ hitsPerPage: -1 }))).toMatchObject({ code: 'invalid_search_hits_per_page', parameter: 'hitsPerPage' });
    expect(errorOf(() => e.search({ hitsPerPage: 1001 }))).toMatchObject({ code: 'invalid_search_hits_per_page' });
  });
});

describe('geo', () => {
  const points = [
    { id: 'paris', _geo: { lat: 48.8566, lng: 2.3522 } },
    { id: 'lyon', _geo: { lat: 45.764, lng: 4.8357 } },
    { id: 'london', _geo: { lat: 51.5074, lng: -0.1278 } },
    { id: 'nyc', _geo: { lat: '40.7128', lng: '-74.0060' } },
    { id: 'nowhere' },
    { id: 'broken', _geo: { lat: 'x', lng: 1 } },
  ];
  const e = engineWith(points, { filterableAttributes: ['_geo'], sortableAttributes: ['_geo'] });

  test('_geoRadius keeps points within the radius (metres)', () => {
    expect(ids(e, { filter: '_geoRadius(48.8566, 2.3522, 360000)' }).sort()).toEqual(['london', 'paris']);
    expect(ids(e, { filter: '_geoRadius(48.8566, 2.3522, 10)' })).toEqual(['paris']);
    expect(ids(e, { filter: 'NOT _geoRadius(48.8566, 2.3522, 360000)' }).sort()).toEqual(['broken', 'lyon', 'nowhere', 'nyc']);
  });

  test('_geoBoundingBox keeps points inside the box', () => {
    expect(ids(e, { filter: '_geoBoundingBox([52, -1], [45, 3])' }).sort()).toEqual(['london', 'paris']);
  });

  test('_geoPoint sorts by distance and adds _geoDistance in metres; no location sorts last', () => {
    const r = e.search({ sort: ['_geoPoint(48.8566, 2.3522):asc'] });
    expect(r.hits.map((h) => h.id)).toEqual(['paris', 'london', 'lyon', 'nyc', 'nowhere', 'broken']);
    expect(r.hits[0]._geoDistance).toBe(0);
    expect(r.hits[1]._geoDistance).toBeGreaterThan(340_000);
    expect(r.hits[1]._geoDistance).toBeLessThan(345_000);
    expect(Number.isInteger(r.hits[2]._geoDistance)).toBe(true);
    expect(r.hits[4]._geoDistance).toBeUndefined();
    const desc = e.search({ sort: ['_geoPoint(48.8566, 2.3522):desc'] });
    expect(desc.hits.map((h) => h.id)).toEqual(['nyc', 'lyon', 'london', 'paris', 'nowhere', 'broken']);
  });

  test('_geo must be sortable for _geoPoint', () => {
    const n = engineWith(points, { filterableAttributes: ['_geo'] });
    expect(errorOf(() => n.search({ sort: ['_geoPoint(0, 0):asc'] })).code).toBe('invalid_sort_attribute');
  });
});

describe('facets over few candidates (forward path) agree with the scan', () => {
  test('same distribution, display spelling and stats, across segments, merges and deletions (one- and two-byte codes)', async () => {
    const { computeFacets } = await import('../../lib/search-engine/facets.js');
    const { bitset, setAll } = await import('../../lib/search-engine/bitset.js');
    const { engineFactory, DEFAULT_SETTINGS } = await import('../../lib/search-engine/index.js');
    const e = engineFactory.create({ ...DEFAULT_SETTINGS, filterableAttributes: ['colour', 'tags', 'size', 'code'] });
    let seed = 11;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const colours = ['Red', 'red', 'Blue', 'Green', 'Grün', 'grun'];
    for (let b = 0; b < 6; b++) {
      e.addDocuments(
        Array.from({ length: 300 }, (_, i) => ({
          id: b * 300 + i,
          colour: colours[Math.floor(rnd() * colours.length)],
          // more values than a one-byte code holds
          ...(rnd() < 0.9 ? { code: `c${Math.floor(rnd() * 400)}` } : {}),
          ...(rnd() < 0.3 ? { tags: ['a', 'b', 'c'].filter(() => rnd() < 0.5) } : {}),
          ...(rnd() < 0.5 ? { size: Math.floor(rnd() * 5) } : {}),
        })),
        'id',
      );
    }
    e.deleteDocuments(Array.from({ length: 100 }, (_, i) => String(i * 7)));
    e.compact();
    const st = e as unknown as { segments: Parameters<typeof computeFacets>[0]; nextId: number; alive: Uint32Array };
    for (let trial = 0; trial < 50; trial++) {
      const ids = Int32Array.from({ length: st.nextId }, (_, i) => i).filter((i) => (st.alive[i >>> 5] & (1 << (i & 31))) !== 0 && rnd() < 0.05);
      const bits = bitset(st.nextId);
      setAll(bits, ids);
      const opts = { maxValuesPerFacet: 100, sortBy: 'alpha' as const };
      const facets = ['colour', 'tags', 'size', 'code'];
      expect(computeFacets(st.segments, bits, facets, opts, ids)).toEqual(computeFacets(st.segments, bits, facets, opts));
    }
  });
});
