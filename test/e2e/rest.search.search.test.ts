// Search, settings and multi-search through REST on the shared books data set: the documented
// response shape (hits with _formatted and _matchesPosition, facets), the effect of each settings
// endpoint once its task has run, and the documented errors.
import { datasetPath } from '../relevance/datasets.js';
import { readFileSync } from 'node:fs';
import { createTenant, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, search, settle } from './search.helpers.js';
import { PACKAGES } from '../harness/search-packages.fixtures.js';

type Book = { id: string; title: string; author: string; language: string; publisher: string; details: { rating: string; pages: string } };
const BOOKS = (JSON.parse(readFileSync(datasetPath('books.json'), 'utf8')) as Book[]).map((b) => ({
  ...b,
  rating: Number(b.details.rating),
  pages: Number(b.details.pages),
}));

let t: Tenant;
let uid: string;
beforeAll(async () => {
  t = await createTenant({ plan: 'growth' });
  uid = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['language', 'rating'], sortable_attributes: ['pages', 'title'] } });
  const task = await addDocuments(t, uid, BOOKS);
  expect(task.attributes.status).toBe('succeeded');
});

describe('POST /search/v1/indexes/:index_uid/search', () => {
  test('search_results: hits with _formatted and _matchesPosition, paging and totals', async () => {
    const r = await search(t, uid, { query: 'harry potter', limit: 3, highlight_pre_tag: '<b>', highlight_post_tag: '</b>' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ type: 'search_results', id: expect.stringMatching(/^srch_/) });
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ query: 'harry potter', offset: 0, limit: 3, estimated_total_hits: expect.any(Number), processing_time_ms: expect.any(Number) });
    expect(a.hits).toHaveLength(3);
    for (const h of a.hits) {
      expect(h.title).toMatch(/harry potter/i);
      expect(h._formatted.title).toContain('<b>');
      expect(h._matchesPosition.title[0]).toEqual({ start: expect.any(Number), length: expect.any(Number) });
    }
    expect(a.facet_distribution).toBeNull();
  });

  test('typo tolerance and prefix on the last word', async () => {
    // one typo from 5 letters on (min_word_size_for_typos.one_typo), so "harrry" (6) finds "harry"
    const typo = await search(t, uid, { query: 'harrry potter', limit: 1 });
    expect(typo.body.data.attributes.hits[0].title).toMatch(/Harry Potter/);
    const prefix = await search(t, uid, { query: 'harry pot', limit: 1 });
    expect(prefix.body.data.attributes.hits[0].title).toMatch(/Harry Potter/);
  });

  test('filter, facets (distribution and stats) and sort', async () => {
    const r = await search(t, uid, { query: '', filter: 'language = eng AND rating >= 4.5', facets: ['language', 'rating'], sort: ['pages:desc'], limit: 5 });
    const a = r.body.data.attributes;
    expect(a.hits.length).toBeGreaterThan(0);
    for (const h of a.hits) expect(h.rating).toBeGreaterThanOrEqual(4.5);
    const pages = a.hits.map((h: any) => h.pages);
    expect(pages).toEqual([...pages].sort((x, y) => y - x));
    expect(Object.keys(a.facet_distribution.language)).toEqual(['eng']);
    expect(a.facet_stats.rating).toEqual({ min: expect.any(Number), max: expect.any(Number), avg: expect.any(Number), sum: expect.any(Number) });
    expect(a.facet_stats.rating.min).toBeGreaterThanOrEqual(4.5);
  });

  test('matching_strategy: last (default) also returns documents matching the first words only; all only those matching every word; -word excludes; "phrases"', async () => {
    const last = (await search(t, uid, { query: 'harry zebra', limit: 50 })).body.data.attributes;
    expect(last.estimated_total_hits).toBeGreaterThan(0);
    expect(last.hits.every((h: any) => /harr/i.test(JSON.stringify(h)))).toBe(true);
    const all = await search(t, uid, { query: 'harry zebra', matching_strategy: 'all' });
    expect(all.status).toBe(200);
    expect(all.body.data.attributes).toMatchObject({ hits: [], estimated_total_hits: 0 });
    // every hit of all has both words; last also answers documents with harry alone
    const text = (h: any) => JSON.stringify({ ...h, _formatted: undefined, _matchesPosition: undefined });
    const both = (await search(t, uid, { query: 'harry potter ', matching_strategy: 'all', limit: 1000 })).body.data.attributes;
    expect(both.hits.length).toBeGreaterThan(0);
    expect(both.hits.every((h: any) => /\bharry\b/i.test(text(h)) && /\bpotter\b/i.test(text(h)))).toBe(true);
    const either = (await search(t, uid, { query: 'harry potter ', limit: 1000 })).body.data.attributes;
    expect(either.hits.some((h: any) => !/\bpotter\b/i.test(text(h)))).toBe(true);
    expect(both.estimated_total_hits).toBeLessThan(either.estimated_total_hits);
    // a -word leaves out the documents containing it
    const harry = (await search(t, uid, { query: 'harry', limit: 100, attributes_to_highlight: [], show_matches_position: false })).body.data.attributes;
    const notPotter = (await search(t, uid, { query: 'harry -potter', limit: 100, attributes_to_highlight: [], show_matches_position: false })).body.data.attributes;
    expect(harry.hits.some((h: any) => /potter/i.test(h.title))).toBe(true);
    expect(notPotter.hits.some((h: any) => /\bpotter\b/i.test(JSON.stringify(h)))).toBe(false);
    expect(notPotter.estimated_total_hits).toBeLessThan(harry.estimated_total_hits);
    // a "phrase" answers only documents holding its words in a row; -"phrase" leaves them out
    const plain = { limit: 1000, attributes_to_highlight: [], show_matches_position: false };
    const phrase = (await search(t, uid, { query: '"harry potter"', ...plain })).body.data.attributes;
    expect(phrase.hits.length).toBeGreaterThan(0);
    expect(phrase.hits.every((h: any) => /\bharry\W+potter\b/i.test(JSON.stringify(h)))).toBe(true);
    expect(phrase.estimated_total_hits).toBeLessThanOrEqual(both.estimated_total_hits);
    const withoutPhrase = (await search(t, uid, { query: 'harry -"harry potter"', ...plain })).body.data.attributes;
    const harryWord = (await search(t, uid, { query: 'harry ', ...plain })).body.data.attributes;
    expect(withoutPhrase.estimated_total_hits).toBe(harryWord.estimated_total_hits - phrase.estimated_total_hits);
    expect(withoutPhrase.hits.some((h: any) => /\bharry\W+potter\b/i.test(JSON.stringify(h)))).toBe(false);
    // frequency drops the most frequent words first, and a word no document holds (qxzvkw) before any: every hit holds harry
    const zebraFirst = async (matching_strategy: string) => (await search(t, uid, { query: 'qxzvkw harry', matching_strategy, ...plain })).body.data.attributes;
    expect((await zebraFirst('last')).estimated_total_hits).toBe(0);
    expect((await zebraFirst('frequency')).estimated_total_hits).toBe(harry.estimated_total_hits);
    expectServiceError(await search(t, uid, { query: 'harry', matching_strategy: 'most' }), 'search', 400, 'invalid_search_matching_strategy', { parameter: 'matching_strategy' });
    const multi = await rest('POST', '/search/v1/multi-search', {
      body: jsonApi('multi_search_queries', { queries: [{ index_uid: uid, query: 'harry zebra', matching_strategy: 'all' }, { index_uid: uid, query: 'harry', matching_strategy: 'some' }] }),
      headers: t.keyHeaders,
    });
    expectServiceError(multi, 'search', 400, 'invalid_search_matching_strategy', { parameter: 'queries[1].matching_strategy' });
  });

  test('show_ranking_score, show_ranking_score_details and ranking_score_threshold', async () => {
    const plain = { attributes_to_highlight: [], show_matches_position: false, limit: 50 };
    const scored = (await search(t, uid, { query: 'harry potter', show_ranking_score: true, ...plain })).body.data.attributes;
    const scores = scored.hits.map((h: any) => h._rankingScore);
    expect(scores.length).toBeGreaterThan(2);
    expect(scores.every((s: number) => s > 0 && s <= 1)).toBe(true);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    const detailed = (await search(t, uid, { query: 'harry potter', show_ranking_score_details: true, ...plain, limit: 1 })).body.data.attributes.hits[0];
    expect(detailed._rankingScoreDetails.words).toMatchObject({ order: 0, matchingWords: 2, maxMatchingWords: 2 });
    const cut = scores[Math.floor(scores.length / 2)];
    const kept = (await search(t, uid, { query: 'harry potter', ranking_score_threshold: cut, show_ranking_score: true, ...plain })).body.data.attributes;
    expect(kept.hits.length).toBeGreaterThan(0);
    expect(kept.hits.every((h: any) => h._rankingScore >= cut)).toBe(true);
    expect(kept.estimated_total_hits).toBeLessThan(scored.estimated_total_hits);
    expectServiceError(await search(t, uid, { query: 'harry', ranking_score_threshold: 2 }), 'search', 400, 'invalid_search_ranking_score_threshold', { parameter: 'ranking_score_threshold' });
  });

  test('distinct: one hit per value of a filterable attribute, counted so; a non-filterable one is refused', async () => {
    const plain = { attributes_to_highlight: [], show_matches_position: false, facets: ['language'] };
    const all = (await search(t, uid, { query: '', limit: 0, ...plain })).body.data.attributes;
    const languages = Object.keys(all.facet_distribution.language).length;
    const one = (await search(t, uid, { query: '', distinct: 'language', limit: 100, ...plain })).body.data.attributes;
    // a book without a language is never a duplicate
    const unlabelled = BOOKS.filter((b) => b.language === undefined).length;
    expect(unlabelled).toBeGreaterThan(0);
    expect(one.estimated_total_hits).toBe(languages + unlabelled);
    const labelled = one.hits.filter((h: any) => h.language !== undefined);
    expect(new Set(labelled.map((h: any) => h.language.toLowerCase())).size).toBe(languages);
    expect(labelled).toHaveLength(languages);
    // facets still count every candidate, as with the index's distinct attribute
    expect(one.facet_distribution).toEqual(all.facet_distribution);
    const multi = await rest('POST', '/search/v1/multi-search', {
      body: jsonApi('multi_search_queries', { queries: [{ index_uid: uid, query: 'harry' }, { index_uid: uid, query: 'harry', distinct: 'title' }] }),
      headers: t.keyHeaders,
    });
    expectServiceError(multi, 'search', 400, 'invalid_search_distinct', { parameter: 'queries[1].distinct' });
    expectServiceError(await search(t, uid, { query: 'harry', distinct: 'pages' }), 'search', 400, 'invalid_search_distinct', { parameter: 'distinct' });
  });

  test('numbered pages: page and hits_per_page stand for offset/limit and the answer counts pages', async () => {
    const plain = { attributes_to_highlight: [], show_matches_position: false };
    const byOffset = (await search(t, uid, { query: 'harry', offset: 10, limit: 5, ...plain })).body.data.attributes;
    expect(byOffset).not.toHaveProperty('total_pages');
    const page3 = (await search(t, uid, { query: 'harry', page: 3, hits_per_page: 5, offset: 99, ...plain })).body.data.attributes;
    expect(page3).toMatchObject({ page: 3, hits_per_page: 5, total_hits: byOffset.estimated_total_hits, offset: 10, limit: 5 });
    expect(page3.total_pages).toBe(Math.ceil(Math.min(byOffset.estimated_total_hits, 1000) / 5));
    expect(page3.hits.map((h: any) => h.id)).toEqual(byOffset.hits.map((h: any) => h.id));
    expect((await search(t, uid, { query: 'harry', page: 2, ...plain })).body.data.attributes).toMatchObject({ page: 2, hits_per_page: 20, offset: 20 });
    expectServiceError(await search(t, uid, { query: 'harry', page: 0 }), 'search', 400, 'invalid_search_page', { parameter: 'page' });
    expectServiceError(await search(t, uid, { query: 'harry', hits_per_page: 1001 }), 'search', 400, 'invalid_search_hits_per_page', { parameter: 'hits_per_page' });
  });

  test('attributes_to_search_on: the words match only in the attributes named', async () => {
    const plain = { limit: 1000, attributes_to_highlight: [], show_matches_position: false };
    const rowling = (await search(t, uid, { query: 'rowling', ...plain })).body.data.attributes;
    expect(rowling.estimated_total_hits).toBeGreaterThan(0);
    const inTitles = (await search(t, uid, { query: 'rowling', attributes_to_search_on: ['title'], ...plain })).body.data.attributes;
    expect(inTitles.hits.every((h: any) => /rowling/i.test(h.title))).toBe(true);
    expect(inTitles.estimated_total_hits).toBeLessThan(rowling.estimated_total_hits);
    const inAuthors = (await search(t, uid, { query: 'rowling', attributes_to_search_on: ['author'], ...plain })).body.data.attributes;
    expect(inAuthors.hits.every((h: any) => /rowling/i.test(h.author))).toBe(true);
    expect(inAuthors.estimated_total_hits).toBeGreaterThan(0);
    expectServiceError(await search(t, uid, { query: 'rowling', attributes_to_search_on: ['details.rating'] }), 'search', 400, 'invalid_search_attributes_to_search_on', {
      parameter: 'attributes_to_search_on',
    });
  });

  test('errors: <> is invalid_filter_syntax, a non-filterable attribute, a non-sortable sort', async () => {
    const syntax = expectServiceError(await search(t, uid, { filter: 'rating <> 4' }), 'search', 400, 'invalid_filter_syntax', { parameter: 'filter' });
    expect(syntax.detail).toMatch(/position/);
    expectServiceError(await search(t, uid, { filter: 'publisher = Scholastic' }), 'search', 400, 'attribute_not_filterable');
    expectServiceError(await search(t, uid, { sort: ['rating:asc'] }), 'search', 400, 'invalid_sort_attribute');
    expectServiceError(await search(t, uniq('none_'), { query: 'x' }), 'search', 404, 'index_not_found');
    expectServiceError(await search(t, uid, { limit: 'ten' }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'limit' });
  });

  test('a publishable key (read scopes only) can search but not write', async () => {
    const pub = { 'x-app-id': t.appId, 'x-api-key': t.publishableKey };
    const r = await rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: 'potter', limit: 1 }), headers: pub });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes.hits).toHaveLength(1);
    expectServiceError(await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [{ id: 'x' }] }), headers: pub }), 'search', 403, 'INSUFFICIENT_SCOPE');
  });

  test('documents written after a search are found by the next one (the engine follows PostgreSQL)', async () => {
    const other = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, other, [{ id: 'a', title: 'Zyzzyva field guide' }]);
    expect((await search(t, other, { query: 'zyzzyva' })).body.data.attributes.hits).toHaveLength(1);
    await addDocuments(t, other, [{ id: 'b', title: 'Zyzzyva cookbook' }]);
    expect((await search(t, other, { query: 'zyzzyva' })).body.data.attributes.hits).toHaveLength(2);
  });
});

describe('POST /search/v1/federated-search', () => {
  const federated = (attributes: Record<string, unknown>) => rest('POST', '/search/v1/federated-search', { body: jsonApi('federated_search_queries', attributes), headers: t.keyHeaders });
  let films: string;
  beforeAll(async () => {
    films = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, films, [
      { id: 'f1', title: 'Harry and the Hendersons' },
      { id: 'f2', title: 'When Harry Met Sally' },
      { id: 'f3', title: 'Dirty Harry' },
    ]);
  });
  const plain = { attributes_to_highlight: [], show_matches_position: false };

  test('one list over several indexes, merged by ranking score times weight, each hit saying where it came from', async () => {
    const r = await federated({ queries: [{ index_uid: uid, query: 'harry potter', ...plain }, { index_uid: films, query: 'harry', ...plain }], federation: { limit: 6 } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ type: 'federated_search_results', id: expect.stringMatching(/^srch_/) });
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ offset: 0, limit: 6, processing_time_ms: expect.any(Number) });
    expect(a.hits).toHaveLength(6);
    expect(a.hits.every((h: any) => !('_rankingScore' in h))).toBe(true);
    // each hit's weighted score is its ranking score in its own search (weight 1), best first
    const books = (await search(t, uid, { query: 'harry potter', limit: 6, show_ranking_score: true, ...plain })).body.data.attributes;
    const movies = (await search(t, films, { query: 'harry', limit: 6, show_ranking_score: true, ...plain })).body.data.attributes;
    const own = new Map([...books.hits.map((h: any) => [`0:${h.id}`, h._rankingScore]), ...movies.hits.map((h: any) => [`1:${h.id}`, h._rankingScore])]);
    for (const h of a.hits) expect(h._federation.weightedRankingScore).toBeCloseTo(own.get(`${h._federation.queriesPosition}:${h.id}`) as number, 5);
    const scores = a.hits.map((h: any) => h._federation.weightedRankingScore);
    expect(scores).toEqual([...scores].sort((x: number, y: number) => y - x));
    expect(a.hits.filter((h: any) => h._federation.indexUid === films).length).toBeGreaterThan(0);
    // each query's hits keep their own order
    const booksOrder = a.hits.filter((h: any) => h._federation.indexUid === uid).map((h: any) => h.id);
    expect(booksOrder).toEqual(books.hits.slice(0, booksOrder.length).map((h: any) => h.id));
    expect(a.estimated_total_hits).toBe(books.estimated_total_hits + 3);
    // show_ranking_score on a query keeps _rankingScore on its hits
    const shown = (await federated({ queries: [{ index_uid: films, query: 'harry', show_ranking_score: true, ...plain }], federation: { limit: 1 } })).body.data.attributes;
    expect(shown.hits[0]._rankingScore).toBe(shown.hits[0]._federation.weightedRankingScore);
    // a weight puts one query's hits first; offset pages the merged list
    const weighted = (await federated({ queries: [{ index_uid: uid, query: 'harry potter' }, { index_uid: films, query: 'harry', federation_options: { weight: 10 } }], federation: { limit: 4 } })).body.data.attributes;
    expect(weighted.hits.map((h: any) => h._federation.indexUid)).toEqual([films, films, films, uid]);
    const page2 = (await federated({ queries: [{ index_uid: uid, query: 'harry potter' }, { index_uid: films, query: 'harry' }], federation: { limit: 2, offset: 2 } })).body.data.attributes;
    expect(page2.hits.map((h: any) => h.id)).toEqual(a.hits.slice(2, 4).map((h: any) => h.id));
  });

  test("facets_by_index: an index's values over the documents any of its queries selects; merge_facets adds the indexes up", async () => {
    const shows = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['language', 'rating'] } });
    await addDocuments(t, shows, [
      { id: 's1', title: 'Harry Hill', language: 'eng', rating: 3 },
      { id: 's2', title: 'Harry Wild', language: 'ENG', rating: 5 },
      { id: 's3', title: 'Dirty Sally', language: 'spa', rating: 4 },
      { id: 's4', title: 'Bluey', language: 'eng', rating: 5 },
    ]);
    const queries = [{ index_uid: uid, query: 'harry potter', ...plain }, { index_uid: shows, query: 'harry', ...plain }, { index_uid: shows, query: 'sally', ...plain }];
    const none = (await federated({ queries })).body.data.attributes;
    for (const k of ['facets_by_index', 'facet_distribution', 'facet_stats']) expect(none).not.toHaveProperty(k);

    const byIndex = (await federated({ queries, federation: { facets_by_index: { [uid]: ['language', 'rating'], [shows]: ['language', 'rating'] } } })).body.data.attributes;
    const books = (await search(t, uid, { query: 'harry potter', facets: ['language', 'rating'], limit: 0 })).body.data.attributes;
    expect(byIndex.facets_by_index[uid]).toEqual({ distribution: books.facet_distribution, stats: books.facet_stats });
    // s1, s2 (harry) and s3 (sally), each once; not s4; values compared case aside
    expect(byIndex.facets_by_index[shows]).toEqual({ distribution: { language: { eng: 2, spa: 1 }, rating: { '3': 1, '4': 1, '5': 1 } }, stats: { rating: { min: 3, max: 5, avg: 4, sum: 12 } } });
    expect(byIndex.hits.length).toBeGreaterThan(0);

    const merged = (await federated({ queries, federation: { facets_by_index: { [uid]: ['language', 'rating'], [shows]: ['language'] }, merge_facets: {} } })).body.data.attributes;
    expect(merged).not.toHaveProperty('facets_by_index');
    const bookLanguages = books.facet_distribution.language as Record<string, number>;
    const expected: Record<string, number> = { ...bookLanguages };
    const eng = Object.keys(expected).find((k) => k.toLowerCase() === 'eng') ?? 'eng';
    expected[eng] = (expected[eng] ?? 0) + 2;
    const spa = Object.keys(expected).find((k) => k.toLowerCase() === 'spa') ?? 'spa';
    expected[spa] = (expected[spa] ?? 0) + 1;
    expect(merged.facet_distribution.language).toEqual(expected);
    expect(merged.facet_stats).toEqual({ rating: { min: books.facet_stats.rating.min, max: books.facet_stats.rating.max } });
    const capped = (await federated({ queries, federation: { facets_by_index: { [shows]: ['rating'] }, merge_facets: { max_values_per_facet: 2 } } })).body.data.attributes;
    expect(capped.facet_distribution).toEqual({ rating: { '3': 1, '4': 1 } });

    const asked = (federation: object) => federated({ queries, federation });
    expectServiceError(await asked({ facets_by_index: { [films]: ['language'] } }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'federation.facets_by_index' });
    expectServiceError(await asked({ facets_by_index: { [shows]: ['title'] } }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'federation.facets_by_index' });
    expectServiceError(await asked({ facets_by_index: { [shows]: 'rating' } }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'federation.facets_by_index' });
    expectServiceError(await asked({ merge_facets: {} }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'federation.merge_facets' });
    expectServiceError(await asked({ facets_by_index: { [shows]: ['rating'] }, merge_facets: { max_values_per_facet: 500 } }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'federation.merge_facets.max_values_per_facet' });
  });

  test('errors name the parameter: paging inside a query, federation limits, an unknown index, weights, federation_options on multi-search', async () => {
    const q = (extra: object = {}) => ({ index_uid: uid, query: 'harry', ...extra });
    expectServiceError(await federated({ queries: [q({ limit: 5 })] }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'queries[0].limit' });
    expectServiceError(await federated({ queries: [q()], federation: { limit: 5000 } }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'federation.limit' });
    expectServiceError(await federated({ queries: [q(), { index_uid: 'nope', query: 'x' }] }), 'search', 404, 'index_not_found', { parameter: 'queries[1].index_uid' });
    expectServiceError(await federated({ queries: [q({ federation_options: { weight: 0 } })] }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'queries[0].federation_options.weight' });
    const multi = await rest('POST', '/search/v1/multi-search', { body: jsonApi('multi_search_queries', { queries: [q({ federation_options: { weight: 2 } })] }), headers: t.keyHeaders });
    expectServiceError(multi, 'search', 422, 'VALIDATION_FAILED', { parameter: 'queries[0].federation_options' });
    // Meilisearch's federation on multi-search: this service answers it on its own path
    const withFederation = await rest('POST', '/search/v1/multi-search', { body: jsonApi('multi_search_queries', { queries: [q()], federation: { limit: 5 } }), headers: t.keyHeaders });
    expect(withFederation.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(withFederation.body)).toContain('federation');
  });
});

describe('POST /search/v1/indexes/:index_uid/facet-search', () => {
  const facetSearch = (attributes: Record<string, unknown>, index = uid, headers = t.keyHeaders) =>
    rest('POST', `/search/v1/indexes/${index}/facet-search`, { body: jsonApi('facet_search_queries', attributes), headers });

  test('the values of a filterable attribute matching facet_query, most frequent first, over the documents query and filter select', async () => {
    const all = await facetSearch({ facet_name: 'language' });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ type: 'facet_search_results', id: uid });
    const hits = all.body.data.attributes.facet_hits as { value: string; count: number }[];
    expect(hits.length).toBeGreaterThan(1);
    expect(hits.map((h) => h.count)).toEqual([...hits.map((h) => h.count)].sort((a, b) => b - a));
    expect(all.body.data.attributes).toMatchObject({ facet_query: null, processing_time_ms: expect.any(Number) });
    // the counts agree with a search's facet distribution
    const dist = (await search(t, uid, { facets: ['language'], limit: 0 })).body.data.attributes.facet_distribution.language;
    for (const h of hits) expect(dist[h.value]).toBe(h.count);
    // facet_query keeps the values one of whose words it begins
    const eng = (await facetSearch({ facet_name: 'language', facet_query: 'EN' })).body.data.attributes.facet_hits;
    expect(eng.length).toBeGreaterThan(0);
    expect(eng.every((h: any) => /(^|\W)en/i.test(h.value))).toBe(true);
    // query and filter narrow the documents counted
    const potter = (await facetSearch({ facet_name: 'language', query: 'harry potter', filter: 'rating >= 4' })).body.data.attributes.facet_hits;
    const narrowed = (await search(t, uid, { query: 'harry potter', filter: 'rating >= 4', facets: ['language'], limit: 0 })).body.data.attributes.facet_distribution.language;
    expect(Object.fromEntries(potter.map((h: any) => [h.value, h.count]))).toEqual(narrowed);
  });

  test('errors: a facet that is not filterable, no facet_name, a bad filter, a key without search:read', async () => {
    expectServiceError(await facetSearch({ facet_name: 'title' }), 'search', 400, 'invalid_facet_search_facet_name', { parameter: 'facet_name' });
    const missing = await facetSearch({ facet_query: 'en' });
    expect([400, 422]).toContain(missing.status);
    expect(JSON.stringify(missing.body)).toContain('facet_name');
    expectServiceError(await facetSearch({ facet_name: 'language', filter: 'rating <> 3' }), 'search', 400, 'invalid_filter_syntax', { parameter: 'filter' });
    expectServiceError(await facetSearch({ facet_name: 'language' }, 'no-such-index'), 'search', 404, 'index_not_found');
  });
});

describe('settings endpoints', () => {
  test('PATCH settings → 202 task; applied when it succeeds; null resets a key; bad values 422 naming the key', async () => {
    const idx = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, idx, BOOKS.slice(0, 20));
    const r = await rest('PATCH', `/search/v1/indexes/${idx}/settings`, { body: jsonApi('index_settings', { filterable_attributes: ['language'], searchable_attributes: ['title'] }), headers: t.keyHeaders });
    expect(r.status).toBe(202);
    expect(r.body.data.attributes).toMatchObject({ task_type: 'settings_update', details: { settings: { filterable_attributes: ['language'], searchable_attributes: ['title'] } } });
    expect((await settle(t, r)).attributes.status).toBe('succeeded');
    const got = await rest('GET', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.settings).toMatchObject({ filterable_attributes: ['language'], searchable_attributes: ['title'] });
    expect((await search(t, idx, { filter: 'language = eng' })).status).toBe(200);
    // author is no longer searchable
    expect((await search(t, idx, { query: 'Rowling' })).body.data.attributes.hits).toEqual([]);
    await settle(t, await rest('PATCH', `/search/v1/indexes/${idx}/settings`, { body: jsonApi('index_settings', { searchable_attributes: null }), headers: t.keyHeaders }));
    expect((await search(t, idx, { query: 'Rowling' })).body.data.attributes.hits.length).toBeGreaterThan(0);

    const bad = await rest('PATCH', `/search/v1/indexes/${idx}/settings`, { body: jsonApi('index_settings', { ranking_rules: ['words', 'popularity'] }), headers: t.keyHeaders });
    expectServiceError(bad, 'search', 422, 'VALIDATION_FAILED', { parameter: 'ranking_rules' });
    const typo = await rest('PATCH', `/search/v1/indexes/${idx}/settings`, {
      body: jsonApi('index_settings', { typo_tolerance: { min_word_size_for_typos: { one_typo: 9, two_typos: 4 } } }),
      headers: t.keyHeaders,
    });
    expectServiceError(typo, 'search', 422, 'VALIDATION_FAILED', { parameter: 'typo_tolerance.min_word_size_for_typos' });
  });

  test('GET settings shows them with defaults filled in; DELETE settings resets every one (a task)', async () => {
    const idx = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['language'], synonyms: { HP: ['harry potter'] }, stop_words: ['the'] } });
    const read = async () => rest('GET', `/search/v1/indexes/${idx}/settings`, { headers: t.keyHeaders });
    const got = await read();
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: idx, type: 'index_settings' });
    const index = (await rest('GET', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders })).body.data.attributes.settings;
    // the same settings the index shows; synonym terms are data, kept as written
    expect(got.body.data.attributes).toEqual(index);
    expect(got.body.data.attributes).toMatchObject({ filterable_attributes: ['language'], synonyms: { HP: ['harry potter'] }, stop_words: ['the'], searchable_attributes: ['*'] });
    const r = await rest('DELETE', `/search/v1/indexes/${idx}/settings`, { headers: t.keyHeaders });
    expect(r.status).toBe(202);
    expect((await settle(t, r)).attributes).toMatchObject({ status: 'succeeded', task_type: 'settings_update' });
    expect((await read()).body.data.attributes).toMatchObject({ filterable_attributes: [], synonyms: {}, stop_words: [], searchable_attributes: ['*'] });
    expectServiceError(await rest('DELETE', `/search/v1/indexes/${uniq('nope')}/settings`, { headers: t.keyHeaders }), 'search', 404, 'index_not_found');
  });

  test('typo_tolerance: disable_on_words, disable_on_attributes and disable_on_numbers are kept, shown and applied', async () => {
    const idx = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, idx, [
      { id: 1, name: 'Charger', sku: 'ab12345', zip: '75001' },
      { id: 2, name: 'Cable', sku: 'ab12346', zip: '75002' },
    ]);
    const ids = async (query: string) => (await search(t, idx, { query })).body.data.attributes.hits.map((h: any) => h.id).sort();
    expect(await ids('ab12345 ')).toEqual([1, 2]);
    expect(await ids('75002 ')).toEqual([1, 2]);
    const r = await rest('PATCH', `/search/v1/indexes/${idx}/settings`, {
      body: jsonApi('index_settings', { typo_tolerance: { disable_on_attributes: ['sku'], disable_on_numbers: true, disable_on_words: ['Chargr'] } }),
      headers: t.keyHeaders,
    });
    expect((await settle(t, r)).attributes.status).toBe('succeeded');
    const got = await rest('GET', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.settings.typo_tolerance).toEqual({
      enabled: true,
      min_word_size_for_typos: { one_typo: 5, two_typos: 9 },
      disable_on_words: ['Chargr'],
      disable_on_attributes: ['sku'],
      disable_on_numbers: true,
    });
    expect(await ids('ab12345 ')).toEqual([1]);
    expect(await ids('75002 ')).toEqual([2]);
    expect(await ids('chargr ')).toEqual([]);
    expect(await ids('chargre ')).toEqual([1]);
    const bad = await rest('PATCH', `/search/v1/indexes/${idx}/settings`, { body: jsonApi('index_settings', { typo_tolerance: { disable_on_numbers: 'yes' } }), headers: t.keyHeaders });
    expectServiceError(bad, 'search', 422, 'VALIDATION_FAILED', { parameter: 'typo_tolerance.disable_on_numbers' });
  });

  test('PUT/GET synonyms: two-way and one-way, as written', async () => {
    const idx = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, idx, [
      { id: 1, title: 'Television repair' },
      { id: 2, title: 'Sofa catalogue' },
    ]);
    const put = await rest('PUT', `/search/v1/indexes/${idx}/settings/synonyms`, {
      body: jsonApi('synonyms', { synonyms: { TV: ['television'] }, one_way_synonyms: { couch: ['sofa'] } }),
      headers: t.keyHeaders,
    });
    expect((await settle(t, put)).attributes.status).toBe('succeeded');
    const got = await rest('GET', `/search/v1/indexes/${idx}/settings/synonyms`, { headers: t.keyHeaders });
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: idx, type: 'synonyms', relationships: { index: { links: { related: `/search/v1/indexes/${idx}` } } } });
    expect(got.body.data.attributes).toEqual({ synonyms: { TV: ['television'] }, one_way_synonyms: { couch: ['sofa'] } });
    expect((await search(t, idx, { query: 'tv' })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([1]);
    expect((await search(t, idx, { query: 'couch' })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([2]);
    // one way only: "sofa" does not find couches
    await addDocuments(t, idx, [{ id: 3, title: 'Couch potato' }]);
    expect((await search(t, idx, { query: 'sofa' })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([2]);
    // a key of several words: the query words that spell it find its values
    const several = await rest('PUT', `/search/v1/indexes/${idx}/settings/synonyms`, { body: jsonApi('synonyms', { synonyms: { 'flat screen': ['television'] } }), headers: t.keyHeaders });
    expect((await settle(t, several)).attributes.status).toBe('succeeded');
    expect((await search(t, idx, { query: 'flat screen repair' })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([1]);
    expect((await search(t, idx, { query: 'television' })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([1]);
    expectServiceError(
      await rest('PUT', `/search/v1/indexes/${idx}/settings/synonyms`, { body: jsonApi('synonyms', { synonyms: { tv: 'television' } }), headers: t.keyHeaders }),
      'search',
      422,
      'VALIDATION_FAILED',
      { parameter: 'synonyms.tv' },
    );
  });

  test('PUT stop-words and ranking-rules', async () => {
    const idx = await createIndex(t, { primary_key: 'id', settings: { sortable_attributes: ['year'] } });
    await addDocuments(t, idx, [
      { id: 1, title: 'The lamp', year: 2001 },
      { id: 2, title: 'A lamp', year: 2020 },
    ]);
    expect((await settle(t, await rest('PUT', `/search/v1/indexes/${idx}/settings/stop-words`, { body: jsonApi('stop_words', { stop_words: ['the', 'a'] }), headers: t.keyHeaders }))).attributes.status).toBe(
      'succeeded',
    );
    // "the" is dropped from the query: it no longer matches (nor is highlighted) in "The lamp"
    const hit = (await search(t, idx, { query: 'the lamp' })).body.data.attributes.hits.find((h: any) => h.id === 1);
    expect(hit._formatted.title).toBe('The <em>lamp</em>');
    const rules = await rest('PUT', `/search/v1/indexes/${idx}/settings/ranking-rules`, {
      body: jsonApi('ranking_rules', { ranking_rules: ['year:desc', 'words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'] }),
      headers: t.keyHeaders,
    });
    expect((await settle(t, rules)).attributes.status).toBe('succeeded');
    expect((await search(t, idx, { query: 'lamp' })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([2, 1]);
    expect((await rest('GET', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders })).body.data.attributes.settings.stop_words).toEqual(['the', 'a']);
    expectServiceError(await rest('PUT', `/search/v1/indexes/${idx}/settings/stop-words`, { body: jsonApi('stop_words', {}), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'stop_words',
    });
    expectServiceError(
      await rest('PUT', `/search/v1/indexes/${idx}/settings/ranking-rules`, { body: jsonApi('ranking_rules', { ranking_rules: ['fastest'] }), headers: t.keyHeaders }),
      'search',
      422,
      'VALIDATION_FAILED',
      { parameter: 'ranking_rules' },
    );
  });

  test("one setting's routes (Meilisearch's): GET reads it, PUT replaces it (PATCH merges typo-tolerance), DELETE resets it; each write a settings_update task", async () => {
    const idx = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, idx, [
      { id: 1, title: 'Red lamp', color: 'red', year: 2001 },
      { id: 2, title: 'Blue lamp', color: 'blue', year: 2020 },
    ]);
    const at = (setting: string) => `/search/v1/indexes/${idx}/settings/${setting}`;
    const get = async (setting: string) => {
      const r = await rest('GET', at(setting), { headers: t.keyHeaders });
      expect(r.status).toBe(200);
      return r.body.data;
    };
    // defaults before anything is set
    expect(await get('filterable-attributes')).toMatchObject({ id: idx, type: 'filterable_attributes', attributes: { filterable_attributes: [] } });
    expect((await get('distinct-attribute')).attributes).toEqual({ distinct_attribute: null });
    expect((await get('ranking-rules')).attributes.ranking_rules).toEqual(['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness']);
    const put = await settle(t, await rest('PUT', at('filterable-attributes'), { body: jsonApi('filterable_attributes', { filterable_attributes: ['color'] }), headers: t.keyHeaders }));
    expect(put.attributes).toMatchObject({ status: 'succeeded', task_type: 'settings_update', details: { settings: { filterable_attributes: ['color'] } } });
    expect((await get('filterable-attributes')).attributes.filterable_attributes).toEqual(['color']);
    expect((await search(t, idx, { query: 'lamp', filter: 'color = red' })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([1]);
    // the other settings are untouched by one setting's PUT
    await settle(t, await rest('PUT', at('sortable-attributes'), { body: jsonApi('sortable_attributes', { sortable_attributes: ['year'] }), headers: t.keyHeaders }));
    expect((await get('filterable-attributes')).attributes.filterable_attributes).toEqual(['color']);
    // PATCH typo-tolerance merges key by key
    await settle(t, await rest('PATCH', at('typo-tolerance'), { body: jsonApi('typo_tolerance', { typo_tolerance: { min_word_size_for_typos: { one_typo: 4 } } }), headers: t.keyHeaders }));
    expect((await get('typo-tolerance')).attributes.typo_tolerance).toMatchObject({ enabled: true, min_word_size_for_typos: { one_typo: 4, two_typos: 9 } });
    // DELETE resets that one setting
    expect((await settle(t, await rest('DELETE', at('filterable-attributes'), { headers: t.keyHeaders }))).attributes.status).toBe('succeeded');
    expect((await get('filterable-attributes')).attributes.filterable_attributes).toEqual([]);
    expect((await get('sortable-attributes')).attributes.sortable_attributes).toEqual(['year']);
    expectServiceError(await search(t, idx, { query: 'lamp', filter: 'color = red' }), 'search', 400, 'attribute_not_filterable');
    // DELETE synonyms clears both kinds
    await rest('PUT', at('synonyms'), { body: jsonApi('synonyms', { synonyms: { lamp: ['light'] }, one_way_synonyms: { bulb: ['lamp'] } }), headers: t.keyHeaders }).then((r) => settle(t, r));
    await settle(t, await rest('DELETE', at('synonyms'), { headers: t.keyHeaders }));
    expect((await rest('GET', at('synonyms'), { headers: t.keyHeaders })).body.data.attributes).toEqual({ synonyms: {}, one_way_synonyms: {} });
    // a PUT without its attribute is refused (null is the reset), a bad value names the setting, another attribute is unknown
    expectServiceError(await rest('PUT', at('searchable-attributes'), { body: jsonApi('searchable_attributes', {}), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'searchable_attributes',
    });
    expectServiceError(await rest('PUT', at('distinct-attribute'), { body: jsonApi('distinct_attribute', { distinct_attribute: 7 }), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'distinct_attribute',
    });
    const other = await rest('PUT', at('filterable-attributes'), { body: jsonApi('filterable_attributes', { sortable_attributes: ['year'] }), headers: t.keyHeaders });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].source?.pointer ?? other.body.errors[0].meta?.parameter ?? JSON.stringify(other.body)).toContain('sortable_attributes');
    const reset = await settle(t, await rest('PUT', at('distinct-attribute'), { body: jsonApi('distinct_attribute', { distinct_attribute: null }), headers: t.keyHeaders }));
    expect(reset.attributes.status).toBe('succeeded');
    // another tenant's index is not found
    const stranger = await createTenant();
    expectServiceError(await rest('GET', at('filterable-attributes'), { headers: stranger.keyHeaders }), 'search', 404, 'index_not_found');
    expectServiceError(await rest('DELETE', at('filterable-attributes'), { headers: stranger.keyHeaders }), 'search', 404, 'index_not_found');
  });

  test("faceting and pagination (Meilisearch's settings): values per facet and their order by attribute, hits reachable past 1,000; PATCH merges, DELETE resets", async () => {
    const idx = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['color', 'size'] } });
    // 1,501 documents: colours 'c000'..'c149' (ten each, 'c149' eleven), sizes s/m/l
    const docs = Array.from({ length: 1500 }, (_, i) => ({ id: i, title: `item ${i}`, color: `c${String(i % 150).padStart(3, '0')}`, size: ['s', 'm', 'l'][i % 3] }));
    docs.push({ id: 1500, title: 'item extra', color: 'c149', size: 'l' });
    await addDocuments(t, idx, docs);
    const at = (setting: string) => `/search/v1/indexes/${idx}/settings/${setting}`;
    const get = async (setting: string) => (await rest('GET', at(setting), { headers: t.keyHeaders })).body.data.attributes;
    expect(await get('faceting')).toEqual({ faceting: { max_values_per_facet: 100, sort_facet_values_by: { '*': 'alpha' } } });
    expect(await get('pagination')).toEqual({ pagination: { max_total_hits: 1000 } });
    // the defaults: 100 values in value order, and nothing past the first 1,000 hits
    const before = (await search(t, idx, { query: '', facets: ['color', 'size'], offset: 1200, limit: 5 })).body.data.attributes;
    expect(Object.keys(before.facet_distribution.color)).toHaveLength(100);
    expect(Object.keys(before.facet_distribution.color)[0]).toBe('c000');
    expect(before.hits).toEqual([]);
    expect(before.estimated_total_hits).toBe(1501);

    await settle(t, await rest('PATCH', at('faceting'), { body: jsonApi('faceting', { faceting: { max_values_per_facet: 3, sort_facet_values_by: { color: 'count' } } }), headers: t.keyHeaders }));
    await settle(t, await rest('PATCH', at('pagination'), { body: jsonApi('pagination', { pagination: { max_total_hits: 2000 } }), headers: t.keyHeaders }));
    expect(await get('faceting')).toEqual({ faceting: { max_values_per_facet: 3, sort_facet_values_by: { '*': 'alpha', color: 'count' } } });
    const after = (await search(t, idx, { query: '', facets: ['color', 'size'], offset: 1200, limit: 5 })).body.data.attributes;
    // color by count (c149 holds 11), size by value; three values each
    expect(Object.keys(after.facet_distribution.color)).toEqual(['c149', 'c000', 'c001']);
    expect(after.facet_distribution.color.c149).toBe(11);
    expect(Object.keys(after.facet_distribution.size)).toEqual(['l', 'm', 's']);
    expect(after.hits).toHaveLength(5);
    const pages = (await search(t, idx, { query: '', hits_per_page: 500, page: 4 })).body.data.attributes;
    expect(pages).toMatchObject({ total_hits: 1501, total_pages: 4 });
    expect(pages.hits).toHaveLength(1);
    // PATCH merges one field; the whole settings object shows them
    await settle(t, await rest('PATCH', at('faceting'), { body: jsonApi('faceting', { faceting: { max_values_per_facet: 5 } }), headers: t.keyHeaders }));
    expect((await get('faceting')).faceting).toEqual({ max_values_per_facet: 5, sort_facet_values_by: { '*': 'alpha', color: 'count' } });
    const index = (await rest('GET', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders })).body.data.attributes;
    expect(index.settings.pagination).toEqual({ max_total_hits: 2000 });
    // bad values name the field; nothing changes
    expectServiceError(await rest('PATCH', at('pagination'), { body: jsonApi('pagination', { pagination: { max_total_hits: 50_000 } }), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'pagination.max_total_hits',
    });
    expectServiceError(await rest('PATCH', at('faceting'), { body: jsonApi('faceting', { faceting: { sort_facet_values_by: { color: 'size' } } }), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'faceting.sort_facet_values_by.color',
    });
    expectServiceError(await rest('PATCH', at('faceting'), { body: jsonApi('faceting', { faceting: { max_values: 5 } }), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'faceting.max_values',
    });
    // DELETE resets
    await settle(t, await rest('DELETE', at('pagination'), { headers: t.keyHeaders }));
    await settle(t, await rest('DELETE', at('faceting'), { headers: t.keyHeaders }));
    expect(await get('pagination')).toEqual({ pagination: { max_total_hits: 1000 } });
    const reset = (await search(t, idx, { query: '', facets: ['color'], offset: 1200, limit: 5 })).body.data.attributes;
    expect(reset.hits).toEqual([]);
    expect(Object.keys(reset.facet_distribution.color)).toHaveLength(100);
  });

  test('DELETE index → 202 task; afterwards the index and its documents are gone, and the uid is free again', async () => {
    const idx = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, idx, [{ id: 1, title: 'Gone soon' }]);
    const del = await rest('DELETE', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders });
    expect(del.status).toBe(202);
    const task = await settle(t, del);
    expect(task.attributes).toMatchObject({ status: 'succeeded', task_type: 'index_deletion', index_uid: idx, details: { deleted_documents: 1 } });
    expectServiceError(await rest('GET', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders }), 'search', 404, 'index_not_found');
    expectServiceError(await search(t, idx, { query: 'gone' }), 'search', 404, 'index_not_found');
    await createIndex(t, { uid: idx });
    expect((await rest('GET', `/search/v1/indexes/${idx}`, { headers: t.keyHeaders })).body.data.attributes.number_of_documents).toBe(0);
  });
});

describe('POST /search/v1/indexes/:index_uid/similar', () => {
  test("the documents closest to one document's vector, without it; filter and paging as a search; errors name id", async () => {
    const t = await createTenant({ plan: 'growth' });
    const idx = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['section'], embedding_attributes: ['name', 'summary'] } });
    await addDocuments(t, idx, PACKAGES);
    const similar = (attrs: Record<string, unknown>, headers = t.keyHeaders) => rest('POST', `/search/v1/indexes/${idx}/similar`, { body: jsonApi('similar_queries', attrs), headers });
    const r = await similar({ id: 3, show_ranking_score: true });
    expect(r.status).toBe(200);
    const a = r.body.data.attributes;
    const hitIds = a.hits.map((h: any) => h.id);
    expect(hitIds).not.toContain(3);
    expect(hitIds).toHaveLength(5);
    expect(a.estimated_total_hits).toBe(5);
    // the web servers are closer to nginx than the compressors
    expect(hitIds.slice(0, 2).sort()).toEqual([4, 6]);
    const scores = a.hits.map((h: any) => h._ranking_score ?? h._rankingScore);
    expect(scores).toEqual([...scores].sort((x: number, y: number) => y - x));
    expect(a.hits[0]).not.toHaveProperty('_formatted');
    // filter and paging as in a search; a string id names the same document
    expect((await similar({ id: '3', filter: 'section = utils', limit: 2 })).body.data.attributes.hits.map((h: any) => h.section)).toEqual(['utils', 'utils']);
    expect((await similar({ id: 3, offset: 1, limit: 1 })).body.data.attributes.hits.map((h: any) => h.id)).toEqual([hitIds[1]]);
    // errors
    expectServiceError(await similar({ id: 99 }), 'search', 404, 'not_found_similar_id', { parameter: 'id' });
    expectServiceError(await similar({ id: { x: 1 } }), 'search', 400, 'invalid_similar_id', { parameter: 'id' });
    expectServiceError(await similar({ filter: 'section = utils' }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'id' });
    const plain = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, plain, [{ id: 1, name: 'gzip' }]);
    expectServiceError(await rest('POST', `/search/v1/indexes/${plain}/similar`, { body: jsonApi('similar_queries', { id: 1 }), headers: t.keyHeaders }), 'search', 400, 'invalid_similar_embedder', {
      parameter: 'id',
    });
    // another tenant's index is not found
    const stranger = await createTenant();
    expectServiceError(await similar({ id: 3 }, stranger.keyHeaders), 'search', 404, 'index_not_found');
  });
});

describe('POST /search/v1/multi-search', () => {
  test('answers each query in order; an unknown index names queries[i].index_uid', async () => {
    const other = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, other, [{ id: 'x', title: 'Potter wheel' }]);
    const r = await rest('POST', '/search/v1/multi-search', {
      body: jsonApi('multi_search_queries', { queries: [{ index_uid: uid, query: 'potter', limit: 2 }, { index_uid: other, query: 'potter' }] }),
      headers: t.keyHeaders,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0]).toMatchObject({ type: 'search_results', attributes: { index_uid: uid, limit: 2 } });
    expect(r.body.data[0].attributes.hits).toHaveLength(2);
    expect(r.body.data[1].attributes.hits.map((h: any) => h.id)).toEqual(['x']);
    const bad = await rest('POST', '/search/v1/multi-search', {
      body: jsonApi('multi_search_queries', { queries: [{ index_uid: uid, query: 'a' }, { index_uid: uniq('none_'), query: 'b' }] }),
      headers: t.keyHeaders,
    });
    expectServiceError(bad, 'search', 404, 'index_not_found', { parameter: 'queries[1].index_uid' });
    const badFilter = await rest('POST', '/search/v1/multi-search', {
      body: jsonApi('multi_search_queries', { queries: [{ index_uid: uid, filter: 'title = x' }] }),
      headers: t.keyHeaders,
    });
    expectServiceError(badFilter, 'search', 400, 'attribute_not_filterable');
    expect(badFilter.body.errors[0].source.parameter).toMatch(/^queries\[0\]/);
  });
});
