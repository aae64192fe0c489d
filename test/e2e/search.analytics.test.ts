// Analytics (searches recorded by the service, click events from clients, the three reports) and
// suggestions (past queries and source_attributes values, per suggestion settings).
import { createTenant, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, search } from './search.helpers.js';

const PRODUCTS = [
  { id: 'p1', name: 'Desk lamp', brand: 'Lumina', category: 'lighting' },
  { id: 'p2', name: 'Floor lamp', brand: 'Lumina', category: 'lighting' },
  { id: 'p3', name: 'Lamp shade', brand: 'Shady', category: 'lighting' },
  { id: 'p4', name: 'Office desk', brand: 'Deskio', category: 'furniture' },
];

let t: Tenant;
let uid: string;
beforeAll(async () => {
  t = await createTenant({ plan: 'growth' });
  uid = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['brand'] } });
  await addDocuments(t, uid, PRODUCTS);
});

function event(attrs: Record<string, unknown>) {
  return rest('POST', '/search/v1/analytics/events', { body: jsonApi('search_events', { index_uid: uid, ...attrs }), headers: t.keyHeaders });
}

describe('analytics', () => {
  beforeAll(async () => {
    // 3 × "lamp" by two users, 2 × "desk" (one anonymous session), 2 × a query with no result
    await search(t, uid, { query: 'lamp', user_id: 'u1' });
    await search(t, uid, { query: 'Lamp ', user_id: 'u1' });
    await search(t, uid, { query: 'lamp', user_id: 'u2' });
    await search(t, uid, { query: 'desk', session_id: 's1' });
    await search(t, uid, { query: 'desk' });
    await search(t, uid, { query: 'zzzqqq' });
    await search(t, uid, { query: 'zzzqqq', user_id: 'u3' });
  });

  test('POST /search/v1/analytics/events records a click (201); validation names the attribute', async () => {
    const r = await event({ event_type: 'click', query: 'lamp', document_id: 'p1', position: 1, user_id: 'u1' });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ type: 'search_events', attributes: { event_type: 'click', index_uid: uid, document_id: 'p1', position: 1, query: 'lamp', created_at: expect.any(String) } });
    expect((await event({ event_type: 'click', query: 'lamp', document_id: 'p2', position: 3 })).status).toBe(201);
    expect((await event({ event_type: 'click', query: 'desk', document_id: 'p4', position: 1 })).status).toBe(201);
    expectServiceError(await event({ event_type: 'hover', document_id: 'p1' }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'event_type' });
    expectServiceError(await event({ event_type: 'click', document_id: 'p1' }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'position' });
    expectServiceError(await event({ event_type: 'click', position: 1 }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'document_id' });
    expectServiceError(await event({ event_type: 'click', document_id: 'p1', position: 0 }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'position' });
    expectServiceError(await event({ event_type: 'click', document_id: 'p1', position: 1, index_uid: uniq('none_') }), 'search', 404, 'index_not_found');
  });

  test('popular-searches: normalised queries by count, unique users, average click position; total', async () => {
    const r = await rest('GET', `/search/v1/indexes/${uid}/analytics/popular-searches?period=24h&limit=2`, { headers: t.keyHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: uid, type: 'popular_searches' });
    expect(r.body.data.attributes).toMatchObject({
      period: '24h',
      total_searches: 7,
      popular_searches: [
        { query: 'lamp', count: 3, unique_users: 2, avg_click_position: 2 },
        { query: 'desk', count: 2, unique_users: 1, avg_click_position: 1 },
      ],
    });
  });

  test('no-result-searches: queries that found nothing, with the last time', async () => {
    const r = await rest('GET', `/search/v1/indexes/${uid}/analytics/no-result-searches`, { headers: t.keyHeaders });
    expect(r.body.data.attributes).toMatchObject({
      period: '7d',
      total_no_result_searches: 2,
      no_result_searches: [{ query: 'zzzqqq', count: 2, last_searched_at: expect.any(String) }],
    });
  });

  test('clicks: per document clicks, impressions, ctr and average position; totals', async () => {
    const r = await rest('GET', `/search/v1/indexes/${uid}/analytics/clicks?period=30d`, { headers: t.keyHeaders });
    const a = r.body.data.attributes;
    // impressions: p1 and p2 were shown by the 3 lamp searches (p1 also by the 2 desk searches)
    const p1 = a.click_data.find((d: any) => d.document_id === 'p1');
    const p2 = a.click_data.find((d: any) => d.document_id === 'p2');
    expect(p1).toEqual({ document_id: 'p1', clicks: 1, impressions: 5, ctr: 0.2, avg_position: 1 });
    expect(p2).toEqual({ document_id: 'p2', clicks: 1, impressions: 3, ctr: 0.3333, avg_position: 3 });
    expect(a.total_clicks).toBe(3);
    expect(a.total_impressions).toBeGreaterThanOrEqual(10);
    expect(a.avg_ctr).toBeCloseTo(a.total_clicks / a.total_impressions, 4);
  });

  test('period and limit are checked', async () => {
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/analytics/clicks?period=1y`, { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'period' });
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/analytics/popular-searches?limit=0`, { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'limit' });
    expectServiceError(await rest('GET', `/search/v1/indexes/${uniq('none_')}/analytics/popular-searches`, { headers: t.keyHeaders }), 'search', 404, 'index_not_found');
  });
});

describe('suggestions', () => {
  function suggest(index: string, attrs: Record<string, unknown>) {
    return rest('POST', `/search/v1/indexes/${index}/suggest`, { body: jsonApi('suggestion_queries', attrs), headers: t.keyHeaders });
  }

  test('past queries that found something, by frequency, highlighted', async () => {
    const idx = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, idx, PRODUCTS);
    for (const q of ['lamp', 'lamp', 'lamp shade', 'lamp', 'lampxyz-nothing', 'desk lamp']) await search(t, idx, { query: q });
    const r = await suggest(idx, { query: 'La' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ type: 'suggestions', id: idx, attributes: { processing_time_ms: expect.any(Number) } });
    expect(r.body.data.attributes.suggestions).toEqual([
      { suggestion: 'lamp', highlighted: '<em>la</em>mp', frequency: 3 },
      { suggestion: 'desk lamp', highlighted: 'desk <em>la</em>mp', frequency: 1 },
      { suggestion: 'lamp shade', highlighted: '<em>la</em>mp shade', frequency: 1 },
    ]);
    const plain = await suggest(idx, { query: 'la', limit: 1, highlight: false });
    expect(plain.body.data.attributes.suggestions).toEqual([{ suggestion: 'lamp', highlighted: 'lamp', frequency: 3 }]);
  });

  test('source_attributes values (facet counts when filterable) and the settings: min length, max, frequency, enabled', async () => {
    const set = await rest('PATCH', `/search/v1/indexes/${uid}/settings/suggestions`, {
      body: jsonApi('suggestion_settings', { source_attributes: ['brand', 'name'], min_query_length: 3, max_suggestions: 3 }),
      headers: t.keyHeaders,
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ id: uid, type: 'suggestion_settings' });
    expect(set.body.data.attributes).toEqual({ enabled: true, source_attributes: ['brand', 'name'], min_query_length: 3, max_suggestions: 3, include_frequency: true });
    const got = await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.suggestion_settings.source_attributes).toEqual(['brand', 'name']);

    const r = await suggest(uid, { query: 'lum' });
    expect(r.body.data.attributes.suggestions[0]).toEqual({ suggestion: 'Lumina', highlighted: '<em>Lum</em>ina', frequency: 2 });
    expect((await suggest(uid, { query: 'lu' })).body.data.attributes.suggestions).toEqual([]);
    expect((await suggest(uid, { query: 'lamp', limit: 10 })).body.data.attributes.suggestions.length).toBeLessThanOrEqual(3);

    await rest('PATCH', `/search/v1/indexes/${uid}/settings/suggestions`, { body: jsonApi('suggestion_settings', { include_frequency: false }), headers: t.keyHeaders });
    expect((await suggest(uid, { query: 'lum' })).body.data.attributes.suggestions[0].frequency).toBeNull();
    await rest('PATCH', `/search/v1/indexes/${uid}/settings/suggestions`, { body: jsonApi('suggestion_settings', { enabled: false }), headers: t.keyHeaders });
    expect((await suggest(uid, { query: 'lum' })).body.data.attributes.suggestions).toEqual([]);

    expectServiceError(
      await rest('PATCH', `/search/v1/indexes/${uid}/settings/suggestions`, { body: jsonApi('suggestion_settings', { max_suggestions: 0 }), headers: t.keyHeaders }),
      'search',
      422,
      'VALIDATION_FAILED',
      { parameter: 'max_suggestions' },
    );
    expectServiceError(await suggest(uid, {}), 'search', 422, 'VALIDATION_FAILED', { parameter: 'query' });
  });
});
