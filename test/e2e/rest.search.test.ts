// Search index REST paths end to end: REST bridge → gateway → search subgraph → PostgreSQL.
// Errors in the search shape: errors[] with the spec's lower_snake codes. Each test makes its own
// tenant and unique index uids.
import { createTenant, jsonApi, rest, uniq } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('search indexes', () => {
  test('POST /search/v1/indexes → 201; GET by uid and the list read it back', async () => {
    const t = await createTenant();
    const uid = uniq('movies_');
    const created = await rest('POST', '/search/v1/indexes', {
      body: jsonApi('indexes', { uid, primary_key: 'movie_id', settings: { filterable_attributes: ['genre'], synonyms: { SciFi: ['science-fiction'] } } }),
      headers: t.keyHeaders,
    });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.type).toBe('indexes');
    expect(data.id).toMatch(/^idx_[A-Za-z0-9]{20}$/);
    expect(data.attributes).toMatchObject({
      uid,
      primary_key: 'movie_id',
      number_of_documents: 0,
      is_indexing: false,
      settings: {
        searchable_attributes: ['*'],
        filterable_attributes: ['genre'],
        sortable_attributes: [],
        ranking_rules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'],
        stop_words: [],
        distinct_attribute: null,
        // synonym terms are data: kept as written
        synonyms: { SciFi: ['science-fiction'] },
        typo_tolerance: { enabled: true, min_word_size_for_typos: { one_typo: 5, two_typos: 9 } },
      },
    });
    expect(data.attributes.created_at).toMatch(ISO);

    const got = await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(data);

    const list = await rest('GET', '/search/v1/indexes', { headers: t.keyHeaders });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([data]);
  });

  test('the list holds every index of the app, ordered by uid', async () => {
    const t = await createTenant();
    const base = uniq('i');
    for (const uid of [`${base}_c`, `${base}_a`, `${base}_b`]) {
      expect((await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid }), headers: t.keyHeaders })).status).toBe(201);
    }
    const list = await rest('GET', '/search/v1/indexes', { headers: t.keyHeaders });
    expect(list.body.data.map((i: any) => i.attributes.uid)).toEqual([`${base}_a`, `${base}_b`, `${base}_c`]);
    expect(list.body.data.every((i: any) => i.attributes.primary_key === null)).toBe(true);
  });

  test('duplicate uid → 409 index_already_exists in the errors[] shape', async () => {
    const t = await createTenant();
    const uid = uniq('dup_');
    expect((await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid }), headers: t.keyHeaders })).status).toBe(201);
    const dup = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid, primary_key: 'id' }), headers: t.keyHeaders });
    const e = expectServiceError(dup, 'search', 409, 'index_already_exists', { parameter: 'uid' });
    expect(e.detail).toContain(uid);
    // the first index is unchanged
    const got = await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.primary_key).toBeNull();
  });

  test('the same uid is free in another tenant', async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const uid = uniq('shared_');
    expect((await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid }), headers: a.keyHeaders })).status).toBe(201);
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}`, { headers: b.keyHeaders }), 'search', 404, 'index_not_found');
    expect((await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid }), headers: b.keyHeaders })).status).toBe(201);
  });

  test.each([
    ['a space and punctuation', 'bad uid!'],
    ['a dot', 'movies.v2'],
    ['an empty string', ''],
  ])('invalid uid (%s) → 400 invalid_index_uid naming uid', async (_what, uid) => {
    const t = await createTenant();
    const r = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid }), headers: t.keyHeaders });
    expectServiceError(r, 'search', 400, 'invalid_index_uid', { parameter: 'uid' });
    expect((await rest('GET', '/search/v1/indexes', { headers: t.keyHeaders })).body.data).toEqual([]);
  });

  test('invalid primary_key → 400 invalid_primary_key', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid: uniq('pk_'), primary_key: 'bad key' }), headers: t.keyHeaders });
    expectServiceError(r, 'search', 400, 'invalid_primary_key', { parameter: 'primary_key' });
  });

  test('settings that is not a JSON object → 422 naming settings (not 500)', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid: uniq('s_'), settings: 'fast please' }), headers: t.keyHeaders });
    expectServiceError(r, 'search', 422, 'VALIDATION_FAILED', { parameter: 'settings' });
  });

  test('unknown uid → 404 index_not_found', async () => {
    const t = await createTenant();
    const uid = uniq('nope_');
    const e = expectServiceError(await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders }), 'search', 404, 'index_not_found');
    expect(e.detail).toContain(uid);
  });

  test('malformed JSON → 400 and wrong data.type → 409, in the search shape', async () => {
    const t = await createTenant();
    expectServiceError(await rest('POST', '/search/v1/indexes', { raw: '{"data":', headers: t.keyHeaders }), 'search', 400, 'INVALID_JSON');
    expectServiceError(
      await rest('POST', '/search/v1/indexes', { body: jsonApi('products', { uid: uniq('x') }), headers: t.keyHeaders }),
      'search',
      409,
      'INVALID_RESOURCE_TYPE',
      { parameter: 'data.type' },
    );
    expectServiceError(await rest('GET', '/search/v1/nothing-here', { headers: t.keyHeaders }), 'search', 404, 'ROUTE_NOT_FOUND');
  });
});
