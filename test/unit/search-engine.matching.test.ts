// Query matching: typo budgets, prefix on the last word, stop words, synonyms, searchable attributes.
import { engineWith, errorOf, ids } from './search-engine.fixtures.js';
import type { EngineSettings } from '../../lib/search-engine/index.js';

const DOCS = [
  { id: 1, title: 'Harry Potter and the Philosopher’s Stone', author: 'J.K. Rowling' },
  { id: 2, title: 'The Hobbit', author: 'J.R.R. Tolkien' },
  { id: 3, title: 'Harriet the Spy', author: 'Louise Fitzhugh' },
  { id: 4, title: 'A Tale of Two Cities', author: 'Charles Dickens' },
  { id: 5, title: 'Crème de la crème', author: 'Zoë Ångström' },
  { id: 6, title: 'Extraordinary Popular Delusions', author: 'Charles Mackay' },
];
const e = engineWith(DOCS, { searchableAttributes: ['title', 'author'] });
const q = (query: string, en = e) => ids(en, { query }).sort();
/** documents { id: 1.., t } of these texts */
const titled = (...texts: string[]) => texts.map((t, i) => ({ id: i + 1, t }));

describe('typo tolerance', () => {
  test('no typo below 5 letters, one from 5, two from 9 (a trailing space turns prefix matching off)', () => {
    expect(q('hary ')).toEqual([]); // 4 letters: exact only
    expect(q('hobit ')).toEqual(['2']); // 5 letters: one typo
    expect(q('hoobitt ')).toEqual([]); // two typos need 9 letters
    expect(q('extrordinari ')).toEqual(['6']); // 12 letters: two typos
  });

  test('a typo on the first letter counts as two', () => {
    expect(q('cobbit ')).toEqual([]);
    expect(q('dxtraordinary ')).toEqual(['6']); // 13 letters: the first-letter typo uses the two-typo budget
  });

  test('custom thresholds and disabled typo tolerance', () => {
    const loose = engineWith(DOCS, { searchableAttributes: ['title'], typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 6 } } });
    expect(q('hary ', loose)).toEqual(['1']);
    expect(q('hoobitt ', loose)).toEqual(['2']);
    const strict = engineWith(DOCS, { searchableAttributes: ['title'], typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } } });
    expect(q('hobit ', strict)).toEqual([]);
    expect(q('hobbit', strict)).toEqual(['2']);
  });
});

describe('typo tolerance turned off for some words, numbers or attributes', () => {
  const CATALOG = [
    { id: 1, name: 'Charger', sku: 'ab12345', year: '2024', note: 'fits the ab12346' },
    { id: 2, name: 'Cable', sku: 'ab12346', year: '2025', note: '' },
    { id: 3, name: 'Chargers pack', sku: 'zz99999', year: '2024', note: 'tower' },
  ];
  const typo = (extra: object) => engineWith(CATALOG, { searchableAttributes: ['name', 'sku', 'note', 'year'], typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 }, ...extra } });

  test('disableOnWords: those query words match only as written (their prefix extensions stay)', () => {
    expect(q('chargr ', typo({}))).toEqual(['1']);
    expect(q('chargr ', typo({ disableOnWords: ['Chargr'] }))).toEqual([]);
    expect(q('charger', typo({ disableOnWords: ['charger'] }))).toEqual(['1', '3']);
    expect(q('towel ', typo({ disableOnWords: ['charger'] }))).toEqual(['3']);
  });

  test('disableOnNumbers: a query word of digits matches no other number', () => {
    expect(q('2025 ', typo({}))).toEqual(['1', '2', '3']);
    expect(q('2025 ', typo({ disableOnNumbers: true }))).toEqual(['2']);
    expect(q('ab12345 ', typo({ disableOnNumbers: true }))).toEqual(['1', '2']); // letters and digits: not a number
  });

  test('disableOnAttributes: a typo match in those attributes does not count; elsewhere it does', () => {
    expect(q('ab12345 ', typo({}))).toEqual(['1', '2']);
    const strictSku = typo({ disableOnAttributes: ['sku'] });
    // document 2's ab12346 is one typo away in sku (off) and nowhere else; document 1 also has it in note
    expect(q('ab12346 ', strictSku)).toEqual(['1', '2']);
    expect(q('ab12345 ', strictSku)).toEqual(['1']);
    expect(q('ab1234', strictSku)).toEqual(['1', '2']); // prefixes are no typos
    expect(q('towel ', typo({ disableOnAttributes: ['note'] }))).toEqual([]);
    // with every field searched, names are the document's top-level fields
    const all = engineWith(CATALOG, { typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 }, disableOnAttributes: ['sku', 'note'] } });
    expect(q('ab12345 ', all)).toEqual(['1']);
    expect(q('chargr ', all)).toEqual(['1']);
  });

  test('settings: lists of non-empty strings and a boolean, kept only when set', () => {
    expect(() => typo({ disableOnWords: [''] })).toThrow(expect.objectContaining({ parameter: 'typo_tolerance.disable_on_words' }));
    expect((typo({ disableOnWords: [], disableOnNumbers: false }) as unknown as { settings: EngineSettings }).settings.typoTolerance).toEqual({ enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 } });
  });
});

describe('attributesToSearchOn', () => {
  const on = (query: string, attributesToSearchOn: string[], en = e) => ids(en, { query, attributesToSearchOn }).sort();

  test('the words match only in the attributes named; typos and prefixes too; [*] is every attribute', () => {
    expect(q('charles')).toEqual(['4', '6']);
    expect(on('charles', ['title'])).toEqual([]);
    expect(on('charles', ['author'])).toEqual(['4', '6']);
    expect(on('dickns ', ['author'])).toEqual(['4']);
    expect(on('dickns ', ['title'])).toEqual([]);
    expect(on('tale', ['title', 'author'])).toEqual(['4']);
    expect(on('tale', ['*'])).toEqual(['4']);
  });

  test('phrases and -words follow it too', () => {
    expect(on('"charles dickens"', ['title'])).toEqual([]);
    expect(on('"charles dickens"', ['author'])).toEqual(['4']);
    // -charles in the titles only: no title holds it, so nothing is left out
    expect(on('the -charles', ['title'])).toEqual(q('the'));
    expect(q('the -charles')).not.toContain('4');
  });

  test('with every field searchable, top-level fields; unknown or nested names are refused', () => {
    const all = engineWith([{ id: 1, a: 'red apple', b: { c: 'green apple' } }, { id: 2, a: 'green pear', b: { c: 'red pear' } }]);
    expect(on('red', ['a'], all)).toEqual(['1']);
    expect(on('red', ['b'], all)).toEqual(['2']);
    expect(errorOf(() => all.search({ query: 'red', attributesToSearchOn: ['b.c'] }))).toMatchObject({ code: 'invalid_search_attributes_to_search_on', parameter: 'attributesToSearchOn' });
    expect(errorOf(() => e.search({ query: 'x', attributesToSearchOn: ['publisher'] }))).toMatchObject({ code: 'invalid_search_attributes_to_search_on' });
    expect(errorOf(() => e.search({ query: 'x', attributesToSearchOn: 'title' as never }))).toMatchObject({ code: 'invalid_search_attributes_to_search_on' });
  });

  test('the proximity and exactness rules read only the attributes named', () => {
    const ranked = (docs: Record<string, unknown>[], query: string) => ids(engineWith(docs, { searchableAttributes: ['title', 'body'] }), { query, attributesToSearchOn: ['title'] });
    // 1 has the words side by side in its body only: in its title they stand further apart than in 2's
    expect(ranked([{ id: 1, title: 'alpha x y z beta', body: 'alpha beta' }, { id: 2, title: 'alpha x beta', body: '' }], 'alpha beta ')).toEqual(['2', '1']);
    // 2's body is exactly the query: that does not make it exact when only titles are searched
    expect(ranked([{ id: 1, title: 'red fox runs', body: '' }, { id: 2, title: 'red fox jumps', body: 'red fox' }], 'red fox ')).toEqual(['1', '2']);
  });

  test('with disableOnAttributes: typo matches are off where either says so', () => {
    const strict = engineWith(DOCS, { searchableAttributes: ['title', 'author'], typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnAttributes: ['author'] } });
    expect(on('dickns ', ['title', 'author'], strict)).toEqual([]);
    expect(on('dickens ', ['author'], strict)).toEqual(['4']);
    expect(on('hobit ', ['title'], strict)).toEqual(['2']);
  });
});

describe('prefix on the last word', () => {
  test('the last word matches as a prefix, earlier words do not', () => {
    expect(q('harr')).toEqual(['1', '3']);
    expect(q('harr potter')).toEqual([]);
    expect(q('potter harr')).toEqual(['1']);
  });

  test('a trailing separator ends the prefix', () => {
    expect(q('harr ')).toEqual([]);
    expect(q('harry ')).toEqual(['1']);
  });

  test('the prefix can carry a typo when long enough', () => {
    expect(q('extrao')).toEqual(['6']);
    expect(q('extrsordin')).toEqual(['6']);
  });
});

describe('normalisation', () => {
  test('case and diacritics are ignored both ways', () => {
    expect(q('CREME')).toEqual(['5']);
    expect(q('zoe angstrom')).toEqual(['5']);
    expect(q('Ångström')).toEqual(['5']);
    expect(q('philosopher s')).toEqual(['1']);
  });
});

describe('stop words', () => {
  const s = engineWith(DOCS, { searchableAttributes: ['title'], stopWords: ['the', 'of', 'a'] });

  test('are dropped from the query', () => {
    // without the stop word rule "the" would be required as the first word
    expect(q('the hobbit ', s)).toEqual(['2']);
    expect(q('tale of two ', s)).toEqual(['4']);
  });

  test('a query of only stop words still searches them', () => {
    expect(q('the ', s)).toEqual(['1', '2', '3']);
  });

  test('the last word is kept while it may still be a prefix', () => {
    expect(q('hobbit the', s)).toEqual(['2']);
  });
});

describe('synonyms', () => {
  const docs = [
    { id: 1, t: 'cheap flights to NYC' },
    { id: 2, t: 'New York city guide' },
    { id: 3, t: 'budget hotels' },
    { id: 4, t: 'big apple tours' },
  ];

  test('two-way: every member finds the others', () => {
    const s = engineWith(docs, { synonyms: { cheap: ['budget'] } });
    expect(q('cheap ', s)).toEqual(['1', '3']);
    expect(q('budget ', s)).toEqual(['1', '3']);
  });

  test('one-way: only from the key', () => {
    const s = engineWith(docs, { oneWaySynonyms: { nyc: ['new york', 'big apple'] } });
    expect(q('nyc ', s)).toEqual(['1', '2', '4']);
    expect(q('new york ', s)).toEqual(['2']);
  });

  test('a multi-word synonym needs all its words', () => {
    const s = engineWith([{ id: 1, t: 'new jersey' }, { id: 2, t: 'york new' }], { oneWaySynonyms: { nyc: ['new york'] } });
    expect(q('nyc ', s)).toEqual(['2']);
  });

  test('keys of several words: the query words that spell one match its values, in two-way groups too', () => {
    const one = engineWith(docs, { oneWaySynonyms: { 'New York': ['nyc', 'big apple'] } });
    expect(q('new york ', one)).toEqual(['1', '2', '4']);
    expect(q('nyc ', one)).toEqual(['1']); // one way: from the key only
    // every word of the run matches through the synonym; the others still have to match
    expect(q('cheap new york ', one)).toEqual(['1']);
    const guide = ids(one, { query: 'new york guide ' });
    expect(guide[0]).toBe('2'); // every word; 1 and 4 lack guide
    expect(guide.slice(1).sort()).toEqual(['1', '4']);
    // the words must stand together in the query, in the key's order
    expect(q('york new ', one)).toEqual(['2']);
    expect(q('new city york ', one)).toEqual(['2']);
    const two = engineWith(docs, { synonyms: { nyc: ['new york'] } });
    expect(q('new york ', two)).toEqual(['1', '2']);
    expect(q('nyc ', two)).toEqual(['1', '2']);
    // quoted words are matched as written
    expect(q('"new york"', two)).toEqual(['2']);
  });

  test('a synonym of several words is highlighted where it stands in', () => {
    const one = engineWith(docs, { oneWaySynonyms: { 'new york': ['nyc'] } });
    const hit = one.search({ query: 'new york ', attributesToHighlight: ['t'] }).hits.find((h) => h.id === 1)!;
    expect(hit._formatted).toMatchObject({ t: 'cheap flights to <em>NYC</em>' });
  });
});

describe('searchable attributes', () => {
  test('only the listed attributes are searched', () => {
    const s = engineWith(DOCS, { searchableAttributes: ['author'] });
    expect(q('hobbit ', s)).toEqual([]);
    expect(q('tolkien ', s)).toEqual(['2']);
  });

  test("'*' searches every field, including numbers and nested values", () => {
    const s = engineWith([{ id: 1, meta: { isbn: '0439785960', tags: ['fantasy'] }, year: 1997 }]);
    expect(q('fantasy ', s)).toEqual(['1']);
    expect(q('1997 ', s)).toEqual(['1']);
    expect(q('0439785960 ', s)).toEqual(['1']);
  });

  test('changing searchable attributes re-indexes', () => {
    const s = engineWith(DOCS, { searchableAttributes: ['title'] });
    expect(q('tolkien ', s)).toEqual([]);
    s.updateSettings({ ...(s as any).settings, searchableAttributes: ['title', 'author'] });
    expect(q('tolkien ', s)).toEqual(['2']);
  });
});

describe('query length', () => {
  test('only the first 10 words are used, and the 10th is then not a prefix', () => {
    const s = engineWith([{ id: 1, t: 'w1 w11 w100' }]);
    const words = Array.from({ length: 11 }, (_, i) => `w${i + 1}`).join(' ');
    const h = s.search({ query: words, attributesToHighlight: ['t'] }).hits[0];
    expect((h._formatted as any).t).toBe('<em>w1</em> w11 w100');
    const ten = s.search({ query: 'w1 w2 w3 w4 w5 w6 w7 w8 w9 w1', attributesToHighlight: ['t'] }).hits[0];
    expect((ten._formatted as any).t).toBe('<em>w1</em> <em>w1</em>1 <em>w1</em>00');
  });
});

describe('placeholder search', () => {
  test('an empty query returns every document in insertion order', () => {
    expect(ids(e, { query: '' })).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ids(e, {})).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ids(e, { query: ' ,. ' })).toEqual(['1', '2', '3', '4', '5', '6']);
  });
});

describe('large candidate sets (the paths a 1,000,000-document index takes)', () => {
  // 3 segments (batches), most documents matching: candidates read off the typo array, facets
  // counted per candidate (forward arrays), later words folded only where the earlier ones matched
  const colours = ['red', 'green', 'blue'];
  const docs = Array.from({ length: 900 }, (_, i) => ({
    id: i,
    title: i % 10 === 0 ? `lamp shade ${i}` : i % 2 ? `lamp base ${i}` : `shade only ${i}`,
    colour: colours[i % 3],
  }));
  const big = engineWith([], { searchableAttributes: ['title'], filterableAttributes: ['colour'] });
  for (let i = 0; i < docs.length; i += 300) big.addDocuments(docs.slice(i, i + 300), 'id');
  const expected = (pred: (d: (typeof docs)[number]) => boolean) => {
    const out: Record<string, number> = {};
    for (const d of docs.filter(pred)) out[d.colour] = (out[d.colour] ?? 0) + 1;
    return out;
  };

  test('counts and facets over most of the index equal a count of the documents', () => {
    const r = big.search({ query: 'lamp', facets: ['colour'], limit: 5 });
    const lamp = (d: (typeof docs)[number]) => d.title.startsWith('lamp');
    expect(r.estimatedTotalHits).toBe(docs.filter(lamp).length);
    expect(r.facetDistribution).toEqual({ colour: expected(lamp) });
    const all = big.search({ query: '', facets: ['colour'], limit: 0 });
    expect(all.facetDistribution).toEqual({ colour: expected(() => true) });
  });

  test('documents matching every word rank first; a later word alone never makes a candidate', () => {
    const r = big.search({ query: 'lamp shade', limit: 200 });
    const both = docs.filter((d) => d.title.startsWith('lamp shade')).map((d) => String(d.id));
    expect(r.estimatedTotalHits).toBe(docs.filter((d) => d.title.startsWith('lamp')).length);
    expect(r.hits.slice(0, both.length).map((h) => String(h.id)).sort()).toEqual(both.sort());
    expect(r.hits.every((h) => String(h.title).startsWith('lamp'))).toBe(true);
  });
});

describe('matchingStrategy', () => {
  test("last (the default) also returns documents that match the first words only, after those that match every word; all only the latter", () => {
    const search = (query: string, matchingStrategy?: 'last' | 'all') => e.search({ query, ...(matchingStrategy ? { matchingStrategy } : {}) });
    // "charles dickens": 4 matches both words, 6 (Charles Mackay) the first only
    expect(search('charles dickens').hits.map((h) => String(h.id))).toEqual(['4', '6']);
    expect(search('charles dickens', 'last').hits.map((h) => String(h.id))).toEqual(['4', '6']);
    const all = search('charles dickens', 'all');
    expect(all.hits.map((h) => String(h.id))).toEqual(['4']);
    expect(all.estimatedTotalHits).toBe(1);
    // a word no document has: nothing under all
    expect(search('charles zebra', 'all').hits).toEqual([]);
    expect(search('charles zebra').hits.map((h) => String(h.id)).sort()).toEqual(['4', '6']);
  });

  test('frequency drops the most frequent words first: every hit holds the rarest word; a word no document holds goes first', () => {
    const f = engineWith(titled('wizard school in scotland', 'school lunch menu', 'school bus routes', 'wizard hats', 'school holidays'));
    const hits = (matchingStrategy: 'last' | 'frequency') => f.search({ query: 'school wizard dragons ', matchingStrategy, attributesToHighlight: ['*'] });
    expect(hits('last').hits.map((h) => String(h.id))).toEqual(['1', '2', '3', '5']);
    const frequency = hits('frequency');
    expect(frequency.hits.map((h) => String(h.id))).toEqual(['1', '4']);
    expect(frequency.estimatedTotalHits).toBe(2);
    // highlighting marks the words whatever the order they were matched in
    expect(frequency.hits[0]._formatted).toEqual({ id: '1', t: '<em>wizard</em> <em>school</em> in scotland' });
  });

  test('frequency: proximity and exactness still read the words in the order the query has them', () => {
    const f = engineWith(titled('pie apple red', 'red apple pie and more', 'red apple pie', 'red car', 'red hat', 'apple tree'));
    // pie is the rarest word, red the most frequent: matched as pie, apple, red
    const order = (matchingStrategy: 'last' | 'frequency') => f.search({ query: 'red apple pie ', matchingStrategy }).hits.map((h) => String(h.id));
    expect(order('frequency')).toEqual(['3', '2', '1']);
    expect(order('last').slice(0, 3)).toEqual(['3', '2', '1']);
  });

  test('an unknown strategy is refused naming matchingStrategy', () => {
    for (const bad of ['FREQUENCY', 'ALL', 3]) {
      expect(() => e.search({ query: 'charles', matchingStrategy: bad as never })).toThrow(expect.objectContaining({ code: 'invalid_search_matching_strategy', parameter: 'matchingStrategy' }));
    }
  });
});

describe('negative words', () => {
  test('-word leaves out the documents containing it exactly; with no other word, every other document answers', () => {
    expect(q('charles')).toEqual(['4', '6']);
    expect(q('charles -dickens')).toEqual(['6']);
    expect(q('-charles').length).toBe(DOCS.length - 2);
    expect(q('-charles')).not.toContain('4');
    // exact only: no typo, no prefix ("dicken" is not "dickens")
    expect(q('charles -dicken')).toEqual(['4', '6']);
    expect(q('charles -dickns')).toEqual(['4', '6']);
  });

  test('a minus inside a word is a separator, not a negation; a query ending in an excluded word has no prefix word', () => {
    // "tale-of": both words searched (the minus follows a letter)
    expect(q('tale-of')).toEqual(['4']);
    // "harr -spy": "harr" is not the word being typed, so it is no prefix of "harry"/"harriet"
    expect(q('harr -spy')).toEqual([]);
    expect(q('harr')).toEqual(['1', '3']);
    expect(q('harry -spy')).toEqual(['1']);
  });

  test('the filter and the facets see the same documents', () => {
    const r = e.search({ query: 'the -hobbit', facets: [] });
    expect(r.hits.map((h) => String(h.id))).not.toContain('2');
    expect(r.estimatedTotalHits).toBe(r.hits.length);
  });
});

describe('phrases', () => {
  test('"..." answers only documents holding the words next to each other, in that order, exactly', () => {
    expect(q('"harry potter"')).toEqual(['1']);
    expect(q('"potter harry"')).toEqual([]);
    expect(q('"tale of two"')).toEqual(['4']);
    expect(q('"tale two"')).toEqual([]);
    // no typo, no prefix
    expect(q('"hary potter"')).toEqual([]);
    expect(q('"harry pott"')).toEqual([]);
    // one quoted word: that word exactly
    expect(q('"hobbit"')).toEqual(['2']);
    expect(q('"hobit"')).toEqual([]);
  });

  test('with other words, a -"phrase", an unpaired quote and a minus inside quotes', () => {
    expect(q('the "harry potter"')).toEqual(['1']);
    expect(q('charles "popular delusions"')).toEqual(['6']);
    expect(q('charles -"two cities"')).toEqual(['6']);
    expect(q('-"the hobbit"')).toEqual(['1', '3', '4', '5', '6']);
    // the words of a -"phrase" are not searched
    expect(q('-"tale of" charles')).toEqual(['6']);
    // an unpaired last quote is ignored: "harr is the word being typed
    expect(q('"harr')).toEqual(['1', '3']);
    // inside quotes a minus is a separator
    expect(q('"tale -of two"')).toEqual(['4']);
    // nothing between the quotes: no phrase
    expect(q('hobbit ""')).toEqual(['2']);
  });

  test('stop words stay part of the phrase; a phrase never spans two attributes or two values of one', () => {
    const stops = engineWith(DOCS, { searchableAttributes: ['title', 'author'], stopWords: ['of', 'the'] });
    expect(q('"tale of two"', stops)).toEqual(['4']);
    expect(q('"tale two"', stops)).toEqual([]);
    expect(q('"stone j"')).toEqual([]);
    const tagged = engineWith([
      { id: 1, tags: ['red', 'shoe'] },
      { id: 2, tags: ['red shoe'] },
    ]);
    expect(q('"red shoe"', tagged)).toEqual(['2']);
  });

  test('across segments, replaced documents, totals and facets', () => {
    const e2 = engineWith(DOCS.slice(0, 3), { searchableAttributes: ['title', 'author'], filterableAttributes: ['author'] });
    e2.addDocuments(DOCS.slice(3), 'id');
    e2.addDocuments([{ id: 7, title: 'Two Cities, a Tale', author: 'Nobody' }, { id: 8, title: 'A tale of two cities retold', author: 'Charles Dickens' }], 'id');
    expect(q('"tale of two cities"', e2)).toEqual(['4', '8']);
    e2.addDocuments([{ id: 4, title: 'A Tale of Three Cities', author: 'Charles Dickens' }], 'id');
    expect(q('"tale of two cities"', e2)).toEqual(['8']);
    const r = e2.search({ query: '"charles dickens"', facets: ['author'] });
    expect(r.estimatedTotalHits).toBe(2);
    expect(r.facetDistribution).toEqual({ author: { 'Charles Dickens': 2 } });
    expect(e2.search({ query: '"charles dickens"', filter: 'author = Nobody' }).hits).toEqual([]);
  });
});
