// Pure rules of the search service (no stack): document ids and primary-key inference, plan
// limits, webhook URL guard and signatures, suggestion highlighting, settings patches, and the
// one mapping of engine errors to domain errors.
import { DomainError } from '../../lib/errors.js';
import { EngineError } from '../../lib/search-engine/types.js';
import { fromEngineError } from '../../subgraphs/search/errors.js';
import { documentId, documentSlots, inferPrimaryKey } from '../../subgraphs/search/documents/primary-key.rules.js';
import { mergeSettings, defaultSettings, parseSettingsPatch } from '../../subgraphs/search/indexes/index-settings.rules.js';
import { rebuildNeeded, settingsKey, toEngineSettings } from '../../subgraphs/search/indexes/engine-settings.js';
import { PLAN_LIMITS, planOf } from '../../subgraphs/search/plans.js';
import { loadSearchConfig } from '../../subgraphs/search/config.js';
import { fold, highlight } from '../../subgraphs/search/suggestions/suggestion.service.js';
import { mergeSuggestionSettings, defaultSuggestionSettings } from '../../subgraphs/search/indexes/suggestion-settings.rules.js';
import { blockedReason } from '../../lib/net-guard.js';
import { checkWebhookUrl as checkUrl, signWebhook, verifyWebhook } from '../../lib/webhooks/index.js';
import { normaliseQuery } from '../../subgraphs/search/analytics/analytics.buffer.js';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).code;
  }
  return undefined;
}

describe('document ids', () => {
  test('inference: the one attribute ending in "id", case-insensitive', () => {
    expect(inferPrimaryKey({ title: 'x', bookID: 1 })).toBe('bookID');
    expect(inferPrimaryKey({ uuid: 'a' })).toBe('uuid');
    expect(code(() => inferPrimaryKey({ id: 1, user_id: 2 }))).toBe('index_primary_key_multiple_candidates_found');
    expect(code(() => inferPrimaryKey({ title: 'x' }))).toBe('index_primary_key_no_candidate_found');
    expect(code(() => inferPrimaryKey(undefined))).toBe('index_primary_key_no_candidate_found');
  });

  test('integers and [A-Za-z0-9_-]{1,511} strings', () => {
    expect(documentId({ id: 42 }, 'id', 0)).toBe('42');
    expect(documentId({ id: 'a-B_9' }, 'id', 0)).toBe('a-B_9');
    expect(documentId({ id: 'x'.repeat(511) }, 'id', 0)).toHaveLength(511);
    for (const bad of ['x'.repeat(512), 'a b', 'é', '', 1.5, true, { a: 1 }]) expect(code(() => documentId({ id: bad }, 'id', 3))).toBe('invalid_document_id');
    expect(code(() => documentId({ other: 1 }, 'id', 0))).toBe('missing_document_id');
  });

  test('a batch placed by id: the last occurrence wins, first-seen order kept', () => {
    const m = documentSlots([{ id: 1, v: 'a' }, { id: 2 }, { id: 1, v: 'b' }], 'id');
    expect([...m.entries()]).toEqual([['1', 2], ['2', 1]]);
    expect(code(() => documentSlots([{ id: 1 }, 'x' as never], 'id'))).toBe('VALIDATION_FAILED');
  });
});

describe('plans', () => {
  test('the spec table; unknown or missing plans take the default', () => {
    expect(PLAN_LIMITS.free).toEqual({ searchesPerSecond: 10, documentsPerIndex: 10_000, indexes: 3 });
    expect(PLAN_LIMITS.starter).toEqual({ searchesPerSecond: 50, documentsPerIndex: 100_000, indexes: 10 });
    expect(PLAN_LIMITS.growth).toEqual({ searchesPerSecond: 200, documentsPerIndex: 1_000_000, indexes: 50 });
    expect(PLAN_LIMITS.enterprise).toEqual({ searchesPerSecond: null, documentsPerIndex: null, indexes: null });
    expect(planOf('Growth', 'free')).toBe('growth');
    expect(planOf(undefined, 'free')).toBe('free');
    expect(planOf('platinum', 'starter')).toBe('starter');
  });

  test('SEARCH_* configuration: defaults and one clear error per bad variable', () => {
    expect(loadSearchConfig({})).toMatchObject({ worker: true, defaultPlan: 'free', taskLeaseMs: 30_000 });
    expect(loadSearchConfig({ SEARCH_WORKER: '0', SEARCH_DEFAULT_PLAN: 'Enterprise' })).toMatchObject({ worker: false, defaultPlan: 'enterprise' });
    expect(() => loadSearchConfig({ SEARCH_DEFAULT_PLAN: 'gold' })).toThrow(/SEARCH_DEFAULT_PLAN/);
    expect(() => loadSearchConfig({ SEARCH_TASK_LEASE_MS: '5' })).toThrow(/SEARCH_TASK_LEASE_MS/);
    expect(() => loadSearchConfig({ SEARCH_WORKER: 'yes' })).toThrow(/SEARCH_WORKER/);
  });
});

// search's registration rule: lib's URL check with search's documented code
const checkWebhookUrl = (raw: string, allowPrivate: boolean) => checkUrl(raw, allowPrivate, 'invalid_webhook_url');
const isInternalAddress = (ip: string) => blockedReason(ip) !== null;
const signatureHeader = (secret: string, body: string, t: number) => signWebhook(secret, body, t);
const verifySignature = (secret: string, body: string, header: string, toleranceSec: number, nowMs: number) =>
  verifyWebhook(secret, body, header, { toleranceSec, nowSec: Math.floor(nowMs / 1000) }).ok;

describe('webhooks', () => {
  test('signature: t=<unix>,v1=hex(HMAC-SHA256(secret, "<t>.<body>")); tampering and old timestamps fail', () => {
    const body = '{"event":"index.created"}';
    const now = Date.now();
    const t = Math.floor(now / 1000);
    const header = signatureHeader('s3cret', body, t);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature('s3cret', body, header, 300, now)).toBe(true);
    expect(verifySignature('s3cret', body + ' ', header, 300, now)).toBe(false);
    expect(verifySignature('other', body, header, 300, now)).toBe(false);
    expect(verifySignature('s3cret', body, header, 300, now + 301_000)).toBe(false);
  });

  test('internal addresses are refused unless private fetches are allowed', async () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect(isInternalAddress(ip)).toBe(true);
    }
    for (const ip of ['8.8.8.8', '2606:4700::1111', '93.184.216.34']) expect(isInternalAddress(ip)).toBe(false);
    await expect(checkWebhookUrl('http://127.0.0.1:8080/x', false)).rejects.toMatchObject({ code: 'invalid_webhook_url' });
    await expect(checkWebhookUrl('http://[::1]/x', false)).rejects.toMatchObject({ code: 'invalid_webhook_url' });
    await expect(checkWebhookUrl('http://localhost/x', false)).rejects.toMatchObject({ code: 'invalid_webhook_url' });
    await expect(checkWebhookUrl('http://127.0.0.1:8080/x', true)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('https://93.184.216.34/hook', false)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://user:pw@93.184.216.34/', false)).rejects.toMatchObject({ code: 'invalid_webhook_url' });
    await expect(checkWebhookUrl('file:///etc/passwd', true)).rejects.toMatchObject({ code: 'invalid_webhook_url' });
  });
});

describe('suggestions and analytics', () => {
  test('highlight wraps the first word-boundary match in the original text (diacritics folded)', () => {
    expect(highlight('Desk lamp', 'la')).toBe('Desk <em>la</em>mp');
    expect(highlight('Lamp', 'la')).toBe('<em>La</em>mp');
    expect(highlight('Île-de-France', 'ile')).toBe('<em>Île</em>-de-France');
    expect(highlight('blade', 'la')).toBe('blade');
    expect(fold('  Crème  Brûlée ')).toBe('creme brulee');
    expect(normaliseQuery('  Desk   LAMP ')).toBe('desk lamp');
  });

  test('suggestion settings merge: snake or camel keys, null resets, bad values name the key', () => {
    const s = mergeSuggestionSettings(defaultSuggestionSettings(), { sourceAttributes: ['brand'], max_suggestions: 8 });
    expect(s).toEqual({ enabled: true, source_attributes: ['brand'], min_query_length: 2, max_suggestions: 8, include_frequency: true });
    expect(mergeSuggestionSettings(s, { max_suggestions: null }).max_suggestions).toBe(5);
    expect(code(() => mergeSuggestionSettings(s, { min_query_length: -1 }))).toBe('VALIDATION_FAILED');
    expect(code(() => mergeSuggestionSettings(s, { colour: 'red' }))).toBe('VALIDATION_FAILED');
  });
});


/** The parameter a settings patch's refusal names; undefined when it is accepted. */
function named(input: unknown): string | undefined {
  try {
    parseSettingsPatch(input);
  } catch (e) {
    return (e as DomainError).opts.parameter;
  }
  return undefined;
}

describe('settings patches', () => {
  test('top-level attributes (PATCH .../settings) name bare keys; one_way_synonyms is a setting', () => {
    const p = parseSettingsPatch({ oneWaySynonyms: { couch: ['sofa'] }, stopWords: ['the'] }, '');
    expect(p).toEqual({ one_way_synonyms: { couch: ['sofa'] }, stop_words: ['the'] });
    try {
      parseSettingsPatch({ ranking_rules: ['nope'] }, '');
    } catch (e) {
      expect((e as DomainError).opts.parameter).toBe('ranking_rules');
    }
    expect(() => mergeSettings(defaultSettings(), { typo_tolerance: { min_word_size_for_typos: { one_typo: 10 } } }, '')).toThrow(/one_typo/);
  });

  test('typo_tolerance disable options: snake or camel keys, merged field by field, null resets, bad values named', () => {
    const p = parseSettingsPatch({ typo_tolerance: { disableOnWords: ['iPhone'], disable_on_attributes: ['sku'], disable_on_numbers: true } });
    expect(p.typo_tolerance).toEqual({ disable_on_words: ['iPhone'], disable_on_attributes: ['sku'], disable_on_numbers: true });
    const merged = mergeSettings(defaultSettings(), p);
    expect(merged.typo_tolerance).toEqual({ enabled: true, min_word_size_for_typos: { one_typo: 5, two_typos: 9 }, disable_on_words: ['iPhone'], disable_on_attributes: ['sku'], disable_on_numbers: true });
    const later = mergeSettings(merged, parseSettingsPatch({ typo_tolerance: { enabled: false, disable_on_words: null } }));
    expect(later.typo_tolerance).toMatchObject({ enabled: false, disable_on_words: [], disable_on_attributes: ['sku'], disable_on_numbers: true });
    // rows written before these options existed merge as if they were empty
    const old = { ...defaultSettings(), typo_tolerance: { enabled: true, min_word_size_for_typos: { one_typo: 5, two_typos: 9 } } };
    expect(mergeSettings(old, parseSettingsPatch({ typo_tolerance: { enabled: true } })).typo_tolerance).toMatchObject({ disable_on_words: [], disable_on_attributes: [], disable_on_numbers: false });
    expect(named({ typo_tolerance: { disable_on_words: 'iphone' } })).toBe('settings.typo_tolerance.disable_on_words');
    expect(named({ typo_tolerance: { disable_on_attributes: [''] } })).toBe('settings.typo_tolerance.disable_on_attributes');
    expect(named({ typo_tolerance: { disable_on_numbers: 'yes' } })).toBe('settings.typo_tolerance.disable_on_numbers');
  });

  test('faceting and pagination: either spelling, merged field by field over the defaults, null resets; only non-defaults reach the engine (older settings keep their key)', () => {
    const p = parseSettingsPatch({ faceting: { maxValuesPerFacet: 7, sort_facet_values_by: { brand: 'count' } }, pagination: { max_total_hits: 5000 } });
    expect(p).toEqual({ faceting: { max_values_per_facet: 7, sort_facet_values_by: { '*': 'alpha', brand: 'count' } }, pagination: { max_total_hits: 5000 } });
    // an index written before they existed has neither: the defaults stand in
    const { faceting: _f, pagination: _p, ...old } = defaultSettings();
    expect(settingsKey(old)).toBe(settingsKey(defaultSettings()));
    const merged = mergeSettings(old, parseSettingsPatch({ faceting: { max_values_per_facet: 3 } }));
    expect(merged.faceting).toEqual({ max_values_per_facet: 3, sort_facet_values_by: { '*': 'alpha' } });
    expect(toEngineSettings(merged).faceting).toEqual({ maxValuesPerFacet: 3 });
    expect(toEngineSettings(merged).maxTotalHits).toBeUndefined();
    const later = mergeSettings(mergeSettings(merged, p), parseSettingsPatch({ faceting: { sort_facet_values_by: null }, pagination: null }));
    expect(later.faceting).toEqual({ max_values_per_facet: 7, sort_facet_values_by: { '*': 'alpha' } });
    expect(later.pagination).toEqual({ max_total_hits: 1000 });
    // query-time settings: no document is read again
    expect(rebuildNeeded(defaultSettings(), mergeSettings(defaultSettings(), p))).toBe(false);
    expect(named({ faceting: { max_values_per_facet: -1 } })).toBe('settings.faceting.max_values_per_facet');
    expect(named({ faceting: { max_values_per_facet: 10_001 } })).toBe('settings.faceting.max_values_per_facet');
    expect(named({ faceting: { sort_facet_values_by: { brand: 'desc' } } })).toBe('settings.faceting.sort_facet_values_by.brand');
    expect(named({ faceting: { sort_facet_values_by: ['brand'] } })).toBe('settings.faceting.sort_facet_values_by');
    expect(named({ faceting: 3 })).toBe('settings.faceting');
    expect(named({ pagination: { max_total_hits: 0 } })).toBe('settings.pagination.max_total_hits');
    expect(named({ pagination: { max_total_hits: 20_001 } })).toBe('settings.pagination.max_total_hits');
    expect(named({ pagination: { limit: 5 } })).toBe('settings.pagination.limit');
    // names of Object's prototype are unknown fields like any other
    expect(named({ faceting: { constructor: 5 } })).toBe('settings.faceting.constructor');
    expect(named({ toString: [] })).toBe('settings.toString');
  });
});

describe('engine errors', () => {
  test('each engine code is a domain code of the same name, with the request parameter', () => {
    const e = fromEngineError(new EngineError('invalid_filter_syntax', 'Unexpected `<>`', 'filter', 5), 'queries[2]');
    expect(e).toBeInstanceOf(DomainError);
    expect(e).toMatchObject({ code: 'invalid_filter_syntax', status: 400 });
    expect(e.opts.parameter).toBe('queries[2].filter');
    expect(e.message).toMatch(/position 5/);
    expect(fromEngineError(new EngineError('invalid_sort_attribute', 'x', 'sort'), 'sort').opts.parameter).toBe('sort');
    expect(fromEngineError(new EngineError('attribute_not_filterable', 'x', 'attributesToHighlight')).opts.parameter).toBe('attributes_to_highlight');
    for (const c of ['attribute_not_filterable', 'invalid_search_limit', 'invalid_search_offset', 'invalid_search_facets', 'invalid_document_id', 'missing_document_id', 'invalid_settings'] as const) {
      expect(fromEngineError(new EngineError(c, 'x')).status).toBe(400);
    }
  });
});

describe('documents table statistics (statsStale)', () => {
  // the documents table is analysed each time an index crosses a power of two from 8,192 documents
  it('refreshes at each doubling from 8,192 documents, never below', async () => {
    const { statsStale } = await import('../../subgraphs/search/documents/document.store.js');
    expect(statsStale(0, 1000)).toBe(false);
    expect(statsStale(7000, 8191)).toBe(false);
    expect(statsStale(7000, 8192)).toBe(true);
    expect(statsStale(0, 9000)).toBe(true);
    expect(statsStale(9000, 10000)).toBe(false);
    expect(statsStale(16000, 17000)).toBe(true);
    expect(statsStale(500_000, 600_000)).toBe(true);
    expect(statsStale(600_000, 601_000)).toBe(false);
    expect(statsStale(20000, 20000)).toBe(false);
    let n = 0;
    let crossings = 0;
    while (n < 1_000_000) {
      if (statsStale(n, n + 1000)) crossings++;
      n += 1000;
    }
    expect(crossings).toBe(7);
  });
});
