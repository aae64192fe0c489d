// Documents through REST: add (a task) → read back, list (offset, limit, fields, filter), delete by
// ids and by filter; ids, primary keys and batch sizes refused with the documented codes.
import { createTenant, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, search, settle, stackDbUrl, waitTask, withDb } from './search.helpers.js';

const BOOKS = [
  { id: 1, title: 'The Hobbit', author: 'Tolkien', genre: 'fantasy', year: 1937 },
  { id: 2, title: 'Dune', author: 'Herbert', genre: 'scifi', year: 1965 },
  { id: 3, title: 'Neuromancer', author: 'Gibson', genre: 'scifi', year: 1984 },
  { id: 4, title: 'Emma', author: 'Austen', genre: 'classic', year: 1815 },
];

let t: Tenant;
beforeAll(async () => {
  t = await createTenant({ plan: 'growth' });
});

describe('adding documents', () => {
  test('POST → 202 indexing_tasks (enqueued, documents_received); the task succeeds; the index counts them', async () => {
    const uid = await createIndex(t, { settings: { filterable_attributes: ['genre', 'year'] } });
    const r = await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: BOOKS }), headers: t.keyHeaders });
    expect(r.status).toBe(202);
    expect(r.body.data).toMatchObject({
      type: 'indexing_tasks',
      id: expect.stringMatching(/^\d+$/),
      attributes: { status: 'enqueued', task_type: 'document_addition_or_update', index_uid: uid, documents_received: 4, enqueued_at: expect.any(String) },
    });
    const task = await waitTask(t, r.body.data.id);
    expect(task.attributes).toMatchObject({
      status: 'succeeded',
      details: { documents_received: 4, documents_indexed: 4, primary_key: 'id' },
      error: null,
      started_at: expect.any(String),
      finished_at: expect.any(String),
      duration_ms: expect.any(Number),
    });
    const index = await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders });
    expect(index.body.data.attributes).toMatchObject({ primary_key: 'id', number_of_documents: 4, is_indexing: false });

    const one = await rest('GET', `/search/v1/indexes/${uid}/documents/3`, { headers: t.keyHeaders });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({
      id: '3',
      type: 'documents',
      attributes: BOOKS[2],
      links: { self: `/search/v1/indexes/${uid}/documents/3` },
      relationships: { index: { links: { related: `/search/v1/indexes/${uid}` } } },
    });
    const picked = await rest('GET', `/search/v1/indexes/${uid}/documents/3?fields=title,year`, { headers: t.keyHeaders });
    expect(picked.body.data.attributes).toEqual({ title: 'Neuromancer', year: 1984 });
  });

  test('add-or-replace by primary key: a second batch replaces whole documents, the last duplicate in a batch wins', async () => {
    const uid = await createIndex(t, { primary_key: 'sku' });
    await addDocuments(t, uid, [{ sku: 'a', name: 'Lamp', color: 'red' }, { sku: 'b', name: 'Desk' }]);
    const task = await addDocuments(t, uid, [{ sku: 'a', name: 'Lamp v2' }, { sku: 'c', name: 'Chair' }, { sku: 'c', name: 'Chair v2' }]);
    expect(task.attributes.details).toMatchObject({ documents_received: 3, documents_indexed: 2 });
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/a`, { headers: t.keyHeaders })).body.data.attributes).toEqual({ sku: 'a', name: 'Lamp v2' });
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/c`, { headers: t.keyHeaders })).body.data.attributes).toEqual({ sku: 'c', name: 'Chair v2' });
    expect((await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.attributes.number_of_documents).toBe(3);
  });

  test('PUT merges top-level fields into the stored documents (new ids added, duplicates of a batch merged in order), search and stats follow', async () => {
    const uid = await createIndex(t, { primary_key: 'sku', settings: { filterable_attributes: ['color', 'stock'] } });
    await addDocuments(t, uid, [{ sku: 'a', name: 'Lamp', color: 'red', dims: { w: 1, h: 2 } }, { sku: 'b', name: 'Desk' }]);
    const put = (documents: unknown[]) => rest('PUT', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents }), headers: t.keyHeaders });
    const r = await put([{ sku: 'a', stock: 3, dims: { w: 5 } }, { sku: 'c', name: 'Chair' }, { sku: 'a', color: 'blue' }]);
    expect(r.status).toBe(202);
    expect(r.body.data.attributes).toMatchObject({ status: 'enqueued', task_type: 'document_addition_or_update', documents_received: 3 });
    const task = await settle(t, r);
    expect(task.attributes).toMatchObject({ status: 'succeeded', details: { documents_received: 3, documents_indexed: 2 } });
    const doc = async (id: string) => (await rest('GET', `/search/v1/indexes/${uid}/documents/${id}`, { headers: t.keyHeaders })).body.data.attributes;
    // shallow, as Meilisearch: a nested object is replaced whole
    expect(await doc('a')).toEqual({ sku: 'a', name: 'Lamp', color: 'blue', stock: 3, dims: { w: 5 } });
    expect(await doc('b')).toEqual({ sku: 'b', name: 'Desk' });
    expect(await doc('c')).toEqual({ sku: 'c', name: 'Chair' });
    const hits = (q: Record<string, unknown>) => search(t, uid, { attributes_to_highlight: [], show_matches_position: false, ...q }).then((x) => x.body.data.attributes.hits);
    expect(await hits({ query: 'lamp', filter: 'color = blue AND stock = 3' })).toEqual([{ sku: 'a', name: 'Lamp', color: 'blue', stock: 3, dims: { w: 5 } }]);
    expect(await hits({ query: '', filter: 'color = red' })).toEqual([]);
    const stats = (await rest('GET', `/search/v1/indexes/${uid}/stats`, { headers: t.keyHeaders })).body.data.attributes;
    expect(stats).toMatchObject({ number_of_documents: 3, field_distribution: { color: 1, dims: 1, name: 3, sku: 3, stock: 1 } });
    // a document without its id fails the task, naming it, and writes nothing
    const bad = await settle(t, await put([{ sku: 'b', name: 'Desk v2' }, { name: 'no id' }]));
    expect(bad.attributes).toMatchObject({ status: 'failed', error: { code: 'missing_document_id' } });
    expect(await doc('b')).toEqual({ sku: 'b', name: 'Desk' });
    expectServiceError(await put([]), 'search', 422, 'VALIDATION_FAILED', { parameter: 'documents' });
  });

  test('primary key inferred from the one attribute ending in "id"; several candidates or none fail the task', async () => {
    const inferred = await createIndex(t);
    const ok = await addDocuments(t, inferred, [{ bookId: 'x1', title: 'A' }]);
    expect(ok.attributes.details.primary_key).toBe('bookId');
    expect((await rest('GET', `/search/v1/indexes/${inferred}`, { headers: t.keyHeaders })).body.data.attributes.primary_key).toBe('bookId');

    const several = await addDocuments(t, await createIndex(t), [{ id: 1, user_id: 2 }]);
    expect(several.attributes).toMatchObject({ status: 'failed', error: { code: 'index_primary_key_multiple_candidates_found' } });
    const none = await addDocuments(t, await createIndex(t), [{ title: 'no key' }]);
    expect(none.attributes).toMatchObject({ status: 'failed', error: { code: 'index_primary_key_no_candidate_found' } });
  });

  test('an invalid or missing id fails the whole task and applies nothing', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    const bad = await addDocuments(t, uid, [{ id: 'fine' }, { id: 'not ok!' }]);
    expect(bad.attributes.status).toBe('failed');
    expect(bad.attributes.error).toEqual({ code: 'invalid_document_id', message: expect.stringContaining('position 1'), parameter: 'documents[1].id' });
    const missing = await addDocuments(t, uid, [{ id: 'x' }, { title: 'no id' }]);
    expect(missing.attributes.error).toMatchObject({ code: 'missing_document_id', parameter: 'documents[1].id' });
    const long = await addDocuments(t, uid, [{ id: 'a'.repeat(512) }]);
    expect(long.attributes.error.code).toBe('invalid_document_id');
    expect((await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.attributes.number_of_documents).toBe(0);
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents/fine`, { headers: t.keyHeaders }), 'search', 404, 'document_not_found', { parameter: 'document_id' });
  });

  test('a different primary_key for an index that has one fails with index_primary_key_already_exists', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    const r = await addDocuments(t, uid, [{ id: 1, code: 'x' }], { primary_key: 'code' });
    expect(r.attributes.error).toMatchObject({ code: 'index_primary_key_already_exists', parameter: 'primary_key' });
  });

  test('more than 10,000 documents → 400 max_documents_exceeded; none, or not objects → 422', async () => {
    const uid = await createIndex(t);
    const many = Array.from({ length: 10_001 }, (_, i) => ({ id: i }));
    expectServiceError(await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: many }), headers: t.keyHeaders }), 'search', 400, 'max_documents_exceeded', {
      parameter: 'documents',
    });
    expectServiceError(await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [] }), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'documents',
    });
    expectServiceError(await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', {}), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'documents',
    });
    const notObject = await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [{ id: 1 }, 'text'] }), headers: t.keyHeaders });
    expectServiceError(notObject, 'search', 422, 'VALIDATION_FAILED');
    expect(notObject.body.errors[0].source.parameter).toMatch(/^documents/);
    expectServiceError(await rest('POST', `/search/v1/indexes/${uniq('none_')}/documents`, { body: jsonApi('documents', { documents: [{ id: 1 }] }), headers: t.keyHeaders }), 'search', 404, 'index_not_found');
  });

  test('a body above 1 MiB → 413 in the search shape', async () => {
    const uid = await createIndex(t);
    const big = Array.from({ length: 1200 }, (_, i) => ({ id: i, text: 'x'.repeat(1000) }));
    expectServiceError(await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: big }), headers: t.keyHeaders }), 'search', 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('listing documents', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['genre', 'year'] } });
    await addDocuments(t, uid, BOOKS);
  });

  test('insertion order, offset/limit, total in meta, fields', async () => {
    const all = await rest('GET', `/search/v1/indexes/${uid}/documents`, { headers: t.keyHeaders });
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: any) => d.id)).toEqual(['1', '2', '3', '4']);
    expect(all.body.meta).toEqual({ offset: 0, limit: 20, total: 4 });
    const page = await rest('GET', `/search/v1/indexes/${uid}/documents?offset=1&limit=2&fields=title`, { headers: t.keyHeaders });
    expect(page.body.data.map(({ id, type, attributes }: any) => ({ id, type, attributes }))).toEqual([
      { id: '2', type: 'documents', attributes: { title: 'Dune' } },
      { id: '3', type: 'documents', attributes: { title: 'Neuromancer' } },
    ]);
    expect(page.body.data[0].links).toEqual({ self: `/search/v1/indexes/${uid}/documents/2` });
    expect(page.body.meta).toEqual({ offset: 1, limit: 2, total: 4 });
    const past = await rest('GET', `/search/v1/indexes/${uid}/documents?offset=10`, { headers: t.keyHeaders });
    expect(past.body).toEqual({ data: [], meta: { offset: 10, limit: 20, total: 4 } });
  });

  test('filter (filterable attributes only) and its errors', async () => {
    const r = await rest('GET', `/search/v1/indexes/${uid}/documents?filter=${encodeURIComponent('genre = scifi AND year > 1970')}`, { headers: t.keyHeaders });
    expect(r.body.data.map((d: any) => d.id)).toEqual(['3']);
    expect(r.body.meta.total).toBe(1);
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents?filter=${encodeURIComponent('title = Dune')}`, { headers: t.keyHeaders }), 'search', 400, 'attribute_not_filterable');
    const syntax = expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents?filter=${encodeURIComponent('year <> 1965')}`, { headers: t.keyHeaders }), 'search', 400, 'invalid_filter_syntax', {
      parameter: 'filter',
    });
    expect(syntax.detail).toMatch(/position/);
  });

  test('ids: only the documents named, in listing order; with a filter, those it matches; unknown ids are absent', async () => {
    const list = async (q: string) => (await rest('GET', `/search/v1/indexes/${uid}/documents?${q}`, { headers: t.keyHeaders })).body;
    const named = await list('ids=4,1,nope');
    expect(named.data.map((d: any) => d.id)).toEqual(['1', '4']);
    expect(named.meta.total).toBe(2);
    expect((await list(`ids=1,2,3&filter=${encodeURIComponent('genre = scifi')}`)).data.map((d: any) => d.id)).toEqual(['2', '3']);
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents?ids=1,${encodeURIComponent('not an id')}`, { headers: t.keyHeaders }), 'search', 400, 'invalid_document_id', { parameter: 'ids[1]' });
  });

  test('POST …/documents/fetch: the same listing with the query in the body (filter in array form too)', async () => {
    const fetch = (attrs: Record<string, unknown>) => rest('POST', `/search/v1/indexes/${uid}/documents/fetch`, { body: jsonApi('document_queries', attrs), headers: t.keyHeaders });
    const r = await fetch({ filter: [['genre = scifi', 'genre = classic'], 'year > 1900'], fields: ['title'], limit: 5 });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      expect.objectContaining({ id: '2', type: 'documents', attributes: { title: 'Dune' } }),
      expect.objectContaining({ id: '3', type: 'documents', attributes: { title: 'Neuromancer' } }),
    ]);
    expect(r.body.meta).toEqual({ offset: 0, limit: 5, total: 2 });
    expect((await fetch({ ids: ['4', '1'], offset: 1 })).body.data.map((d: any) => d.id)).toEqual(['4']);
    expect((await fetch({})).body.meta).toEqual({ offset: 0, limit: 20, total: 4 });
    expectServiceError(await fetch({ limit: 1001 }), 'search', 400, 'BAD_REQUEST', { parameter: 'limit' });
    expectServiceError(await fetch({ filter: 'title = Dune' }), 'search', 400, 'attribute_not_filterable');
  });

  test('limit above 1000 or negative offset → 400 naming the parameter', async () => {
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents?limit=1001`, { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'limit' });
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents?offset=-1`, { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'offset' });
  });
});

describe('deleting documents', () => {
  test('by ids: a task counting what existed; the documents are gone from reads and search', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, uid, BOOKS);
    const r = await rest('DELETE', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('document_deletions', { document_ids: ['1', 2, 'nope'] }), headers: t.keyHeaders });
    expect(r.status).toBe(202);
    expect(r.body.data).toMatchObject({ type: 'indexing_tasks', attributes: { status: 'enqueued', task_type: 'document_deletion', details: { provided_ids: 3 } } });
    const task = await settle(t, r);
    expect(task.attributes).toMatchObject({ status: 'succeeded', details: { provided_ids: 3, deleted_documents: 2 } });
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents/1`, { headers: t.keyHeaders }), 'search', 404, 'document_not_found');
    expect((await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.attributes.number_of_documents).toBe(2);
    const hits = await rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: 'dune' }), headers: t.keyHeaders });
    expect(hits.body.data.attributes.hits).toEqual([]);
    // a deleted id can come back
    await addDocuments(t, uid, [BOOKS[0]]);
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/1`, { headers: t.keyHeaders })).status).toBe(200);
  });

  test('DELETE …/documents/:document_id: one document, as a document_deletion task; an id the index lacks → 404, a bad id → 400', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, uid, BOOKS);
    const r = await rest('DELETE', `/search/v1/indexes/${uid}/documents/2`, { headers: t.keyHeaders });
    expect(r.status).toBe(202);
    const task = await settle(t, r);
    expect(task.attributes).toMatchObject({ status: 'succeeded', task_type: 'document_deletion', details: { provided_ids: 1, deleted_documents: 1 } });
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents/2`, { headers: t.keyHeaders }), 'search', 404, 'document_not_found');
    // an id the index does not hold (any more) answers 404, as reading it does
    expectServiceError(await rest('DELETE', `/search/v1/indexes/${uid}/documents/2`, { headers: t.keyHeaders }), 'search', 404, 'document_not_found', { parameter: 'document_id' });
    expectServiceError(await rest('DELETE', `/search/v1/indexes/${uid}/documents/${'x'.repeat(512)}`, { headers: t.keyHeaders }), 'search', 400, 'invalid_document_id', { parameter: 'document_id' });
    expect((await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.attributes.number_of_documents).toBe(3);
  });

  test('by filter: checked at once (syntax, filterable), applied by the task', async () => {
    const uid = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['genre'] } });
    await addDocuments(t, uid, BOOKS);
    expectServiceError(
      await rest('POST', `/search/v1/indexes/${uid}/documents/delete-by-filter`, { body: jsonApi('document_deletions', { filter: 'year > 1900' }), headers: t.keyHeaders }),
      'search',
      400,
      'attribute_not_filterable',
    );
    expectServiceError(
      await rest('POST', `/search/v1/indexes/${uid}/documents/delete-by-filter`, { body: jsonApi('document_deletions', { filter: 'genre = ' }), headers: t.keyHeaders }),
      'search',
      400,
      'invalid_filter_syntax',
      { parameter: 'filter' },
    );
    expectServiceError(
      await rest('POST', `/search/v1/indexes/${uid}/documents/delete-by-filter`, { body: jsonApi('document_deletions', {}), headers: t.keyHeaders }),
      'search',
      422,
      'VALIDATION_FAILED',
      { parameter: 'filter' },
    );
    const r = await rest('POST', `/search/v1/indexes/${uid}/documents/delete-by-filter`, { body: jsonApi('document_deletions', { filter: 'genre = scifi' }), headers: t.keyHeaders });
    const task = await settle(t, r);
    expect(task.attributes).toMatchObject({ status: 'succeeded', task_type: 'document_deletion_by_filter', details: { original_filter: 'genre = scifi', deleted_documents: 2 } });
    const left = await rest('GET', `/search/v1/indexes/${uid}/documents`, { headers: t.keyHeaders });
    expect(left.body.data.map((d: any) => d.id)).toEqual(['1', '4']);
  });

  test('document_ids that are not ids → 400 invalid_document_id; missing → 422', async () => {
    const uid = await createIndex(t);
    expectServiceError(
      await rest('DELETE', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('document_deletions', { document_ids: [{ id: 1 }] }), headers: t.keyHeaders }),
      'search',
      400,
      'invalid_document_id',
      { parameter: 'document_ids[0]' },
    );
    expectServiceError(await rest('DELETE', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('document_deletions', {}), headers: t.keyHeaders }), 'search', 422, 'VALIDATION_FAILED', {
      parameter: 'document_ids',
    });
  });
});

describe('GET /search/v1/indexes/:index_uid/stats', () => {
  const stats = async (uid: string, tenant = t) => rest('GET', `/search/v1/indexes/${uid}/stats`, { headers: tenant.keyHeaders });
  const distribution = async (uid: string) => (await stats(uid)).body.data.attributes.field_distribution;

  test('counts the documents holding each top-level field through adds, replaces, deletes by id and by filter', async () => {
    const uid = await createIndex(t, { primary_key: 'id', settings: { filterable_attributes: ['genre'] } });
    const empty = await stats(uid);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ id: uid, type: 'index_stats', attributes: { number_of_documents: 0, is_indexing: false, field_distribution: {} } });
    await addDocuments(t, uid, [...BOOKS, { id: 5, title: 'Odd', 'Ünïcode field': 1, details: { pages: 3 } }]);
    const five = (await stats(uid)).body.data.attributes;
    // keys are the documents' own, byte order, nested fields under their top-level one
    expect(Object.entries(five.field_distribution)).toEqual([
      ['author', 4], ['details', 1], ['genre', 4], ['id', 5], ['title', 5], ['year', 4], ['Ünïcode field', 1],
    ].sort(([a], [b]) => (Buffer.compare(Buffer.from(a as string), Buffer.from(b as string)))));
    expect(five.number_of_documents).toBe(5);
    // a replace takes the old body's fields away and adds the new one's
    await addDocuments(t, uid, [{ id: 5, title: 'Odd', year: 2000 }, { id: 1, title: 'The Hobbit' }]);
    expect(await distribution(uid)).toEqual({ author: 3, genre: 3, id: 5, title: 5, year: 4 });
    await settle(t, await rest('DELETE', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('document_deletions', { document_ids: ['5', 'nope'] }), headers: t.keyHeaders }));
    await settle(t, await rest('POST', `/search/v1/indexes/${uid}/documents/delete-by-filter`, { body: jsonApi('document_deletions', { filter: 'genre = scifi' }), headers: t.keyHeaders }));
    expect(await distribution(uid)).toEqual({ author: 1, genre: 1, id: 2, title: 2, year: 1 });
    // a deleted id coming back counts again
    await addDocuments(t, uid, [BOOKS[1]]);
    expect(await distribution(uid)).toEqual({ author: 2, genre: 2, id: 3, title: 3, year: 2 });
    expect((await stats(uid)).body.data.attributes.number_of_documents).toBe(3);
  });

  test('GET /search/v1/stats: every index of the caller by uid, and when a task last finished; nothing of another tenant', async () => {
    const other = await createTenant({ plan: 'growth' });
    const none = await rest('GET', '/search/v1/stats', { headers: other.keyHeaders });
    expect(none.status).toBe(200);
    expect(none.body.data).toMatchObject({ type: 'search_stats', attributes: { last_update: null, indexes: {} } });
    const a = await createIndex(other, { primary_key: 'id' });
    const b = await createIndex(other, { primary_key: 'id' });
    const task = await addDocuments(other, a, BOOKS.slice(0, 2));
    const all = (await rest('GET', '/search/v1/stats', { headers: other.keyHeaders })).body.data.attributes;
    expect(all.indexes).toEqual({
      [a]: { number_of_documents: 2, is_indexing: false, field_distribution: { author: 2, genre: 2, id: 2, title: 2, year: 2 } },
      [b]: { number_of_documents: 0, is_indexing: false, field_distribution: {} },
    });
    expect(Date.parse(all.last_update)).toBeGreaterThanOrEqual(Date.parse(task.attributes.finished_at));
    const mine = (await rest('GET', '/search/v1/stats', { headers: t.keyHeaders })).body.data.attributes;
    expect(mine.indexes[a]).toBeUndefined();
  });

  test("another tenant's index or an unknown one → 404 index_not_found; deleting the index deletes its counts", async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, uid, BOOKS);
    const other = await createTenant({ plan: 'growth' });
    expectServiceError(await stats(uid, other), 'search', 404, 'index_not_found');
    expectServiceError(await stats(uniq('missing')), 'search', 404, 'index_not_found');
    const id = await withDb(stackDbUrl(), async (c) => (await c.query(`select id from search.indexes where uid = $1`, [uid])).rows[0].id as string);
    await settle(t, await rest('DELETE', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders }));
    expectServiceError(await stats(uid), 'search', 404, 'index_not_found');
    const left = await withDb(stackDbUrl(), async (c) => (await c.query(`select count(*)::int as n from search.document_fields where index_id = $1`, [id])).rows[0].n);
    expect(left).toBe(0);
  });
});
