// Search index REST paths end to end: REST bridge → gateway → search subgraph → PostgreSQL.
// Errors in the search shape: errors[] with the spec's lower_snake codes. Each test makes its own
// tenant and unique index uids.
import { createTenant, gql, jsonApi, rest, uniq } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, search, settle, sleep, stackDbUrl, waitTask, withDb } from './search.helpers.js';

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
    expect(list.body.meta).toEqual({ offset: 0, limit: 1000, total: 3 });
    // pages by uid (Meilisearch's offset and limit), the total of the app's indexes beside them
    const page = await rest('GET', '/search/v1/indexes?offset=1&limit=1', { headers: t.keyHeaders });
    expect(page.body.data.map((i: any) => i.attributes.uid)).toEqual([`${base}_b`]);
    expect(page.body.meta).toEqual({ offset: 1, limit: 1, total: 3 });
    expect((await rest('GET', '/search/v1/indexes?offset=5', { headers: t.keyHeaders })).body).toMatchObject({ data: [], meta: { total: 3 } });
    expectServiceError(await rest('GET', '/search/v1/indexes?limit=1001', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'limit' });
    expectServiceError(await rest('GET', '/search/v1/indexes?offset=-1', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'offset' });
    // GraphQL: the same page and the count; a bad limit names it there too
    const viaGql = await gql('query { indexes(offset: 2, limit: 5) { uid } indexCount }', {}, t.keyHeaders);
    expect(viaGql.body.data).toEqual({ indexes: [{ uid: `${base}_c` }], indexCount: 3 });
    const bad = await gql('query { indexes(limit: 0) { uid } }', {}, t.keyHeaders);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', parameter: 'limit' });
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

/** A tenant with two empty indexes, a and b. */
async function twoIndexes() {
  const t = await createTenant({ plan: 'growth' });
  const [a, b] = [uniq('a'), uniq('b')];
  await createIndex(t, { uid: a, primary_key: 'id' });
  await createIndex(t, { uid: b, primary_key: 'id' });
  return { t, a, b };
}

const swapTwo = (t: Awaited<ReturnType<typeof createTenant>>, a: string, b: string) =>
  rest('POST', '/search/v1/swap-indexes', { body: jsonApi('index_swaps', { swaps: [{ indexes: [a, b] }] }), headers: t.keyHeaders });

describe('POST /search/v1/swap-indexes', () => {
  test('pairs trade names atomically: documents, settings and task history follow; recorded as a succeeded index_swap task', async () => {
    const t = await createTenant({ plan: 'growth' });
    const [live, next, a, b] = [uniq('live'), uniq('next'), uniq('a'), uniq('b')];
    await createIndex(t, { uid: live, primary_key: 'id', settings: { filterable_attributes: ['v'] } });
    await createIndex(t, { uid: next, primary_key: 'id' });
    await createIndex(t, { uid: a, primary_key: 'id' });
    await createIndex(t, { uid: b, primary_key: 'id' });
    const added = await addDocuments(t, live, [{ id: 1, title: 'old catalogue', v: 1 }]);
    await addDocuments(t, next, [{ id: 1, title: 'new catalogue' }, { id: 2, title: 'new arrivals' }]);
    const swap = await rest('POST', '/search/v1/swap-indexes', { body: jsonApi('index_swaps', { swaps: [{ indexes: [live, next] }, { indexes: [a, b] }] }), headers: t.keyHeaders });
    expect(swap.status).toBe(202);
    expect(swap.body.data.attributes).toMatchObject({ status: 'succeeded', task_type: 'index_swap', index_uid: live, details: { swaps: [{ indexes: [live, next] }, { indexes: [a, b] }] } });
    const titles = async (uid: string) => (await search(t, uid, { query: 'catalogue', attributes_to_highlight: [], show_matches_position: false })).body.data.attributes.hits.map((h: any) => h.title);
    expect(await titles(live)).toEqual(['new catalogue']);
    expect(await titles(next)).toEqual(['old catalogue']);
    const index = async (uid: string) => (await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.attributes;
    expect(await index(live)).toMatchObject({ number_of_documents: 2, settings: { filterable_attributes: [] } });
    expect(await index(next)).toMatchObject({ number_of_documents: 1, settings: { filterable_attributes: ['v'] } });
    // the task that added the old documents is now listed under the name its index holds
    const task = (await rest('GET', `/search/v1/tasks/${added.id}`, { headers: t.keyHeaders })).body.data.attributes;
    expect(task.index_uid).toBe(next);
    // writes after the swap go to the index now holding the name
    await addDocuments(t, live, [{ id: 3, title: 'new catalogue two' }]);
    expect(await titles(live)).toEqual(['new catalogue', 'new catalogue two']);
  });

  test('a write racing the swap is listed under the name its index holds after the swap, and its documents are there', async () => {
    const { t, a, b } = await twoIndexes();
    const task = await withDb(stackDbUrl(), async (c) => {
      const [{ id }] = (await c.query('select id from search.indexes where uid = $1', [a])).rows;
      // hold a's queue lock, as an enqueue in flight does: the write below resolves `a` and waits behind it
      await c.query('begin');
      await c.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`search.jobs:index:${id}`]);
      const write = rest('POST', `/search/v1/indexes/${a}/documents`, { body: jsonApi('documents', { documents: [{ id: 1, title: 'raced' }] }), headers: t.keyHeaders });
      await sleep(300);
      const swap = swapTwo(t, a, b);
      await sleep(300);
      await c.query('commit');
      expect((await swap).status).toBe(202);
      const w = await write;
      expect(w.status).toBe(202);
      return waitTask(t, w.body.data.id);
    });
    // whichever of the two took the lock first, the task names the index its documents went to
    expect(task.attributes).toMatchObject({ status: 'succeeded', index_uid: b });
    const hits = (await search(t, b, { query: 'raced' })).body.data.attributes.hits;
    expect(hits.map((h: any) => h.id)).toEqual([1]);
  });

  test("a swap while a worker holds a task's row and waits for its index's row waits for the worker: no deadlock, both done", async () => {
    const { t, a, b } = await twoIndexes();
    const taskId = await withDb(stackDbUrl(), async (c) => {
      const [{ index_id: indexId, id: taskId }] = (await c.query(`select index_id, id from search.tasks where index_uid = $1 and type = 'index_creation'`, [a])).rows;
      // a task of a's as a worker holds it: processing (committed, as its start is), its row locked, then its index's row
      await c.query(`update search.tasks set status = 'processing' where id = $1`, [taskId]);
      try {
        await c.query('begin');
        await c.query('select id from search.tasks where id = $1 for update', [taskId]);
        const swap = swapTwo(t, a, b);
        await sleep(300);
        // the swap waits for the task's row, so it holds no index row yet
        await c.query(`set local lock_timeout = '5s'`);
        await c.query('select id from search.indexes where id = $1 for update', [indexId]);
        await c.query(`update search.tasks set status = 'succeeded' where id = $1`, [taskId]);
        await c.query('commit');
        expect((await swap).status).toBe(202);
      } finally {
        await c.query('rollback').catch(() => undefined);
        await c.query(`update search.tasks set status = 'succeeded' where id = $1`, [taskId]);
      }
      return taskId as string;
    });
    // swapped: a's index now holds the name b, and its task is listed under it
    const moved = (await withDb(stackDbUrl(), (c) => c.query('select index_uid from search.tasks where id = $1', [taskId]))).rows[0];
    expect(moved.index_uid).toBe(b);
  });

  test('malformed pairs → 400 naming the pair; an index twice → 400; unknown or foreign → 404; nothing swapped', async () => {
    const t = await createTenant({ plan: 'growth' });
    const other = await createTenant({ plan: 'growth' });
    const [a, b, c] = [uniq('a'), uniq('b'), uniq('c')];
    for (const uid of [a, b, c]) await createIndex(t, { uid, primary_key: 'id' });
    const foreign = uniq('f');
    await createIndex(other, { uid: foreign, primary_key: 'id' });
    const swap = (swaps: unknown) => rest('POST', '/search/v1/swap-indexes', { body: jsonApi('index_swaps', { swaps }), headers: t.keyHeaders });
    const idOf = async (uid: string) => (await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.id;
    const before = await idOf(a);
    expectServiceError(await swap([{ indexes: [a, b] }, { indexes: [c] }]), 'search', 400, 'invalid_swap_indexes', { parameter: 'swaps[1].indexes' });
    expectServiceError(await swap([{ indexes: [a, a] }]), 'search', 400, 'invalid_swap_indexes', { parameter: 'swaps[0].indexes' });
    expectServiceError(await swap([]), 'search', 400, 'invalid_swap_indexes', { parameter: 'swaps' });
    expectServiceError(await swap([{ indexes: [a, 'not a uid!'] }]), 'search', 400, 'invalid_index_uid', { parameter: 'swaps[0].indexes' });
    expectServiceError(await swap([{ indexes: [a, b] }, { indexes: [b, c] }]), 'search', 400, 'invalid_swap_duplicate_index_found', { parameter: 'swaps[1].indexes' });
    expectServiceError(await swap([{ indexes: [a, b] }, { indexes: [c, foreign] }]), 'search', 404, 'index_not_found', { parameter: 'swaps[1].indexes' });
    expectServiceError(await swap([{ indexes: [a, uniq('nope')] }]), 'search', 404, 'index_not_found', { parameter: 'swaps[0].indexes' });
    // nothing moved: a still answers as itself
    expect(await idOf(a)).toBe(before);
    const tasks = await rest('GET', `/search/v1/tasks?type=index_swap`, { headers: t.keyHeaders });
    expect(tasks.body.data).toEqual([]);
  });
});

describe('PATCH /search/v1/indexes/:index_uid (primary key)', () => {
  test('sets the primary key as a task while the index is empty; with documents under another key the task fails', async () => {
    const t = await createTenant({ plan: 'growth' });
    const uid = await createIndex(t);
    const patch = (attrs: Record<string, unknown>) => rest('PATCH', `/search/v1/indexes/${uid}`, { body: jsonApi('indexes', attrs), headers: t.keyHeaders });
    const r = await patch({ primary_key: 'sku' });
    expect(r.status).toBe(202);
    expect(r.body.data.attributes).toMatchObject({ task_type: 'index_update', status: 'enqueued', details: { primary_key: 'sku' } });
    expect((await settle(t, r)).attributes.status).toBe('succeeded');
    expect((await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.attributes.primary_key).toBe('sku');
    // the next batch is keyed by it: inference would have taken `id`, the one field ending in "id"
    expect((await addDocuments(t, uid, [{ sku: 'a', id: 1, name: 'Lamp' }])).attributes).toMatchObject({ status: 'succeeded', details: { primary_key: 'sku' } });
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/a`, { headers: t.keyHeaders })).status).toBe(200);
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents/1`, { headers: t.keyHeaders }), 'search', 404, 'document_not_found');
    expect((await settle(t, await patch({ primary_key: 'sku' }))).attributes.status).toBe('succeeded');
    const refused = await settle(t, await patch({ primary_key: 'id' }));
    expect(refused.attributes).toMatchObject({ status: 'failed', error: { code: 'index_primary_key_already_exists' } });
    expect((await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.attributes.primary_key).toBe('sku');
    expectServiceError(await patch({ primary_key: 'not ok!' }), 'search', 400, 'invalid_primary_key', { parameter: 'primary_key' });
    expectServiceError(await patch({}), 'search', 422, 'VALIDATION_FAILED', { parameter: 'primary_key' });
    expectServiceError(await rest('PATCH', `/search/v1/indexes/${uniq('nope')}`, { body: jsonApi('indexes', { primary_key: 'id' }), headers: t.keyHeaders }), 'search', 404, 'index_not_found');
  });

  test('new_uid renames the index at once: documents, settings and task history follow; the old name is free; recorded as a succeeded index_update task', async () => {
    const t = await createTenant({ plan: 'growth' });
    const [old, renamed, other] = [uniq('old'), uniq('new'), uniq('other')];
    await createIndex(t, { uid: old, primary_key: 'id', settings: { filterable_attributes: ['v'] } });
    await createIndex(t, { uid: other, primary_key: 'id' });
    const added = await addDocuments(t, old, [{ id: 1, title: 'moved lamp', v: 1 }]);
    const patch = (uid: string, attrs: Record<string, unknown>, headers = t.keyHeaders) => rest('PATCH', `/search/v1/indexes/${uid}`, { body: jsonApi('indexes', attrs), headers });
    const r = await patch(old, { new_uid: renamed });
    expect(r.status).toBe(202);
    expect(r.body.data.attributes).toMatchObject({ task_type: 'index_update', status: 'succeeded', index_uid: renamed, details: { old_index_uid: old, new_index_uid: renamed } });
    expect((await rest('GET', `/search/v1/indexes/${renamed}`, { headers: t.keyHeaders })).body.data.attributes).toMatchObject({ uid: renamed, number_of_documents: 1, settings: { filterable_attributes: ['v'] } });
    expectServiceError(await rest('GET', `/search/v1/indexes/${old}`, { headers: t.keyHeaders }), 'search', 404, 'index_not_found');
    const hits = (await search(t, renamed, { query: 'lamp', filter: 'v = 1' })).body.data.attributes.hits;
    expect(hits.map((h: any) => h.id)).toEqual([1]);
    expect((await rest('GET', `/search/v1/tasks/${added.id}`, { headers: t.keyHeaders })).body.data.attributes.index_uid).toBe(renamed);
    // the old name is free again; a taken or malformed name is refused, naming new_uid; nothing moves
    await createIndex(t, { uid: old, primary_key: 'id' });
    expectServiceError(await patch(renamed, { new_uid: other }), 'search', 409, 'index_already_exists', { parameter: 'new_uid' });
    expectServiceError(await patch(renamed, { new_uid: 'not a uid!' }), 'search', 400, 'invalid_index_uid', { parameter: 'new_uid' });
    expectServiceError(await patch(renamed, {}), 'search', 422, 'VALIDATION_FAILED', { parameter: 'primary_key' });
    // another tenant's index is not found, and cannot be renamed
    const stranger = await createTenant({ plan: 'growth' });
    expectServiceError(await patch(renamed, { new_uid: uniq('x') }, stranger.keyHeaders), 'search', 404, 'index_not_found');
    expect((await rest('GET', `/search/v1/indexes/${renamed}`, { headers: t.keyHeaders })).status).toBe(200);
    // both at once: renamed first, the answer is the key's task under the new name
    const empty = await createIndex(t);
    const third = uniq('third');
    const both = await patch(empty, { new_uid: third, primary_key: 'sku' });
    expect(both.status).toBe(202);
    expect(both.body.data.attributes).toMatchObject({ task_type: 'index_update', index_uid: third, details: { primary_key: 'sku' } });
    await waitTask(t, both.body.data.id);
    expect((await rest('GET', `/search/v1/indexes/${third}`, { headers: t.keyHeaders })).body.data.attributes.primary_key).toBe('sku');
  });
});
