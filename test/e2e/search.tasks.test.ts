// Tasks: read, list with filters and paging, cancel while enqueued, and live progress over the
// gateway's taskEvents subscription.
import { createTenant, gql, jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { subscribe, wsClient } from '../harness/ws.js';
import { addDocuments, createIndex, settle, stackDbUrl, waitTask, withDb } from './search.helpers.js';

let t: Tenant;
beforeAll(async () => {
  t = await createTenant({ plan: 'growth' }); // more indexes than the free plan's 3
});

describe('GET /search/v1/tasks and /search/v1/tasks/:task_id', () => {
  test('every write is a task: creation, additions, settings; filters by status, index_uid, type; paging with from', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, uid, [{ id: 1 }]);
    const failed = await addDocuments(t, uid, [{ id: 'bad id' }]);
    await settle(t, await rest('PUT', `/search/v1/indexes/${uid}/settings/stop-words`, { body: jsonApi('stop_words', { stop_words: ['a'] }), headers: t.keyHeaders }));

    const all = await rest('GET', `/search/v1/tasks?index_uid=${uid}`, { headers: t.keyHeaders });
    expect(all.status).toBe(200);
    expect(all.body.data.map((x: any) => x.attributes.task_type)).toEqual(['settings_update', 'document_addition_or_update', 'document_addition_or_update', 'index_creation']);
    const ids = all.body.data.map((x: any) => Number(x.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.body.meta).toEqual({ limit: 20, next: null });

    const onlyFailed = await rest('GET', `/search/v1/tasks?index_uid=${uid}&status=failed`, { headers: t.keyHeaders });
    expect(onlyFailed.body.data.map((x: any) => x.id)).toEqual([failed.id]);
    const types = await rest('GET', `/search/v1/tasks?index_uid=${uid}&type=index_creation,settings_update`, { headers: t.keyHeaders });
    expect(types.body.data).toHaveLength(2);

    const page1 = await rest('GET', `/search/v1/tasks?index_uid=${uid}&limit=3`, { headers: t.keyHeaders });
    expect(page1.body.data).toHaveLength(3);
    const page2 = await rest('GET', `/search/v1/tasks?index_uid=${uid}&limit=3&from=${page1.body.meta.next}`, { headers: t.keyHeaders });
    expect(page2.body.data.map((x: any) => x.attributes.task_type)).toEqual(['index_creation']);

    const one = await rest('GET', `/search/v1/tasks/${failed.id}`, { headers: t.keyHeaders });
    expect(one.body.data).toMatchObject({
      id: failed.id,
      type: 'indexing_tasks',
      attributes: { status: 'failed', task_type: 'document_addition_or_update', index_uid: uid, error: { code: 'invalid_document_id' } },
    });
    for (const k of ['enqueued_at', 'started_at', 'finished_at', 'duration_ms']) expect(one.body.data.attributes[k]).not.toBeNull();
  });

  test("Meilisearch's time bounds, uids and reverse: before/after enqueued_at, started_at, finished_at (strict); oldest first with paging; malformed bounds → 400 naming them", async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    const first = await addDocuments(t, uid, [{ id: 1 }]);
    const second = await addDocuments(t, uid, [{ id: 2 }]);
    const third = await addDocuments(t, uid, [{ id: 3 }]);
    const list = async (query: string) => {
      const r = await rest('GET', `/search/v1/tasks?index_uid=${uid}&type=document_addition_or_update&${query}`, { headers: t.keyHeaders });
      expect(r.status).toBe(200);
      return r;
    };
    const idsOf = async (query: string) => (await list(query)).body.data.map((x: any) => x.id);
    expect(await idsOf(`after_enqueued_at=${first.attributes.enqueued_at}`)).toEqual([third.id, second.id]);
    expect(await idsOf(`before_enqueued_at=${third.attributes.enqueued_at}`)).toEqual([second.id, first.id]);
    expect(await idsOf(`after_finished_at=${first.attributes.finished_at}&before_started_at=${third.attributes.started_at}`)).toEqual([second.id]);
    expect(await idsOf(`before_finished_at=2000-01-01`)).toEqual([]);
    expect(await idsOf(`uids=${first.id},${third.id}`)).toEqual([third.id, first.id]);
    // oldest first, paged: `next` continues upwards
    const page = await list('reverse=true&limit=2');
    expect(page.body.data.map((x: any) => x.id)).toEqual([first.id, second.id]);
    expect(page.body.meta.next).toBe(third.id);
    expect(await idsOf(`reverse=true&from=${page.body.meta.next}`)).toEqual([third.id]);
    // the same bounds in GraphQL
    const viaGql = await gql(`query($u: String, $a: String) { searchTasks(indexUid: $u, type: "document_addition_or_update", afterEnqueuedAt: $a, reverse: true) { results { id } } }`, { u: uid, a: first.attributes.enqueued_at }, t.keyHeaders);
    expect(viaGql.body.data!.searchTasks.results.map((x: any) => x.id)).toEqual([second.id, third.id]);
    expectServiceError(await rest('GET', '/search/v1/tasks?after_enqueued_at=yesterday', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'after_enqueued_at' });
    expectServiceError(await rest('GET', '/search/v1/tasks?before_finished_at=2026-13-45', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'before_finished_at' });
    expectServiceError(await rest('GET', '/search/v1/tasks?reverse=maybe', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'reverse' });
  });

  test('unknown, malformed and foreign task ids → 404 task_not_found; bad filters → 400', async () => {
    const other = await createTenant();
    const uid = await createIndex(other);
    const theirs = (await rest('GET', `/search/v1/tasks?index_uid=${uid}`, { headers: other.keyHeaders })).body.data[0].id;
    // uids are counted per app partition: a number names the caller's own task of that number, never another tenant's
    const fresh = await createTenant();
    expectServiceError(await rest('GET', `/search/v1/tasks/${theirs}`, { headers: fresh.keyHeaders }), 'search', 404, 'task_not_found', { parameter: 'task_id' });
    expectServiceError(await rest('POST', `/search/v1/tasks/${theirs}/cancel`, { headers: fresh.keyHeaders }), 'search', 404, 'task_not_found', { parameter: 'task_id' });
    const same = await rest('GET', `/search/v1/tasks/${theirs}`, { headers: t.keyHeaders });
    if (same.status === 200) expect(same.body.data.attributes.index_uid).not.toBe(uid);
    else expectServiceError(same, 'search', 404, 'task_not_found', { parameter: 'task_id' });
    expectServiceError(await rest('GET', '/search/v1/tasks/99999999999', { headers: t.keyHeaders }), 'search', 404, 'task_not_found');
    expectServiceError(await rest('GET', '/search/v1/tasks/abc', { headers: t.keyHeaders }), 'search', 404, 'task_not_found');
    expect((await rest('GET', `/search/v1/tasks?index_uid=${uid}`, { headers: t.keyHeaders })).body.data).toEqual([]);
    expectServiceError(await rest('GET', '/search/v1/tasks?status=done', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'status' });
    expectServiceError(await rest('GET', '/search/v1/tasks?limit=0', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'limit' });
    expectServiceError(await rest('GET', '/search/v1/tasks?from=x', { headers: t.keyHeaders }), 'search', 400, 'BAD_REQUEST', { parameter: 'from' });
  });
});

/**
 * Hold an index's queue with a task "processing" elsewhere (its job leased by a worker of another
 * process), so what is enqueued after it stays enqueued for as long as the test needs; answers the
 * blocking task's row id.
 */
async function holdQueue(uid: string, indexId: string): Promise<string> {
  return withDb(stackDbUrl(), async (c) => {
    const r = await c.query(
      `insert into search.tasks (uid, app_id, environment, index_id, index_uid, type, status, details, enqueued_at, started_at, attempts, worker)
       values (900000000 + (random() * 1e6)::int, $1, 'live', $2, $3, 'settings_update', 'processing', '{}', now(), now(), 1, 'test-blocker') returning id`,
      [t.appId, indexId, uid],
    );
    await c.query(
      `insert into search.jobs (kind, key, payload, status, attempts, run_at, created_at, started_at, worker, lease_until)
       values ('search.task', $1, jsonb_build_object('taskId', $2::text), 'running', 1, now(), now(), now(), 'test-blocker', now() + interval '1 hour')`,
      [`index:${indexId}`, r.rows[0].id],
    );
    return r.rows[0].id as string;
  });
}

/** Let the held queue go: the blocking task fails and its job is dead. */
async function releaseQueue(blocker: string): Promise<void> {
  await withDb(stackDbUrl(), async (c) => {
    await c.query(`update search.tasks set status = 'failed', finished_at = now() where id = $1`, [blocker]);
    await c.query(`update search.jobs set status = 'dead', finished_at = now(), lease_until = null where worker = 'test-blocker' and payload->>'taskId' = $1`, [blocker]);
  });
}

describe('POST /search/v1/tasks/:task_id/cancel', () => {
  test('an enqueued task is canceled and never runs; later tasks of the index run; a finished task is returned unchanged', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    const indexId = (await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.id;
    const blocker = await holdQueue(uid, indexId);
    const queued = await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [{ id: 'never' }] }), headers: t.keyHeaders });
    const next = await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [{ id: 'later' }] }), headers: t.keyHeaders });
    await new Promise((r) => setTimeout(r, 500));
    expect((await rest('GET', `/search/v1/tasks/${queued.body.data.id}`, { headers: t.keyHeaders })).body.data.attributes.status).toBe('enqueued');

    const c1 = await rest('POST', `/search/v1/tasks/${queued.body.data.id}/cancel`, { headers: t.keyHeaders });
    expect(c1.status).toBe(200);
    expect(c1.body).toMatchObject({ data: { id: queued.body.data.id, type: 'indexing_tasks', attributes: { status: 'canceled', finished_at: expect.any(String) } }, meta: { canceled: true } });
    expect(c1.body.data.attributes.details.canceled_at).toEqual(expect.any(String));
    const c2 = await rest('POST', `/search/v1/tasks/${queued.body.data.id}/cancel`, { headers: t.keyHeaders });
    expect(c2.body).toMatchObject({ data: { attributes: { status: 'canceled' } }, meta: { canceled: false } });

    await releaseQueue(blocker);
    expect((await waitTask(t, next.body.data.id)).attributes.status).toBe('succeeded');
    expect((await waitTask(t, queued.body.data.id)).attributes.status).toBe('canceled');
    expectServiceError(await rest('GET', `/search/v1/indexes/${uid}/documents/never`, { headers: t.keyHeaders }), 'search', 404, 'document_not_found');
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/later`, { headers: t.keyHeaders })).status).toBe(200);

    const done = await rest('POST', `/search/v1/tasks/${next.body.data.id}/cancel`, { headers: t.keyHeaders });
    expect(done.body).toMatchObject({ data: { attributes: { status: 'succeeded' } }, meta: { canceled: false } });
    expectServiceError(await rest('POST', '/search/v1/tasks/123456789012/cancel', { headers: t.keyHeaders }), 'search', 404, 'task_not_found');
  });
});

describe('POST /search/v1/tasks/cancel', () => {
  test('cancels the enqueued tasks a selection names (uids, index_uid, type), never a bare call; the rest of the queue runs', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    const indexId = (await rest('GET', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders })).body.data.id;
    const blocker = await holdQueue(uid, indexId);
    const add = async (id: string) => (await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [{ id }] }), headers: t.keyHeaders })).body.data.id as string;
    const [a, b, c, d] = [await add('a'), await add('b'), await add('c'), await add('d')];
    const cancel = (query: string) => rest('POST', `/search/v1/tasks/cancel?${query}`, { headers: t.keyHeaders });

    const byUids = await cancel(`uids=${a},${c},123456789012`);
    expect(byUids.status).toBe(200);
    expect(byUids.body.data.map((x: any) => [x.id, x.attributes.status])).toEqual([
      [a, 'canceled'],
      [c, 'canceled'],
    ]);
    expect(byUids.body.meta).toEqual({ canceled: 2, remaining: 0 });
    // another type of the same index: nothing to cancel
    expect((await cancel(`index_uid=${uid}&type=settings_update`)).body).toMatchObject({ data: [], meta: { canceled: 0, remaining: 0 } });
    expectServiceError(await cancel(''), 'search', 400, 'BAD_REQUEST', { parameter: 'uids' });
    expectServiceError(await cancel('uids=1,x'), 'search', 400, 'BAD_REQUEST', { parameter: 'uids' });
    expectServiceError(await cancel('type=nope'), 'search', 400, 'BAD_REQUEST', { parameter: 'type' });
    // another app naming this index's uid cancels nothing of it
    const other = await createTenant();
    expect((await rest('POST', `/search/v1/tasks/cancel?index_uid=${uid}`, { headers: other.keyHeaders })).body.meta).toEqual({ canceled: 0, remaining: 0 });

    await releaseQueue(blocker);
    expect((await waitTask(t, d)).attributes.status).toBe('succeeded');
    expect((await waitTask(t, b)).attributes.status).toBe('succeeded');
    for (const id of [a, c]) expect((await waitTask(t, id)).attributes.status).toBe('canceled');
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/a`, { headers: t.keyHeaders })).status).toBe(404);
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/b`, { headers: t.keyHeaders })).status).toBe(200);

    // by index: every enqueued task of it
    const blocker2 = await holdQueue(uid, indexId);
    const [e, f] = [await add('e'), await add('f')];
    const byIndex = await cancel(`index_uid=${uid}`);
    expect(byIndex.body.data.map((x: any) => x.id)).toEqual([e, f]);
    await releaseQueue(blocker2);
    for (const id of [e, f]) expect((await waitTask(t, id)).attributes.status).toBe('canceled');
  });
});

describe('taskEvents subscription', () => {
  const SUB = `subscription { taskEvents { event taskId indexUid taskType status documentsIndexed occurredAt task { id status details { documentsIndexed } } } }`;

  test('enqueued → processing → succeeded for a document batch, with the task resolved through the supergraph', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    const sub = await subscribe(wsClient(stack().gateway, { 'x-app-id': t.appId, 'x-api-key': t.secretKey }), SUB);
    try {
      const r = await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [{ id: 1 }, { id: 2 }] }), headers: t.keyHeaders });
      const taskId = r.body.data.id;
      const events: any[] = [];
      while (!events.some((e) => e.event === 'task.succeeded')) {
        const e = (await sub.next(10_000)).taskEvents;
        if (e.taskId === taskId) events.push(e);
      }
      expect(events.map((e) => e.event)).toEqual(['task.enqueued', 'task.processing', 'task.succeeded']);
      expect(events[2]).toMatchObject({ indexUid: uid, taskType: 'document_addition_or_update', status: 'succeeded', documentsIndexed: 2, task: { id: taskId, status: 'succeeded', details: { documentsIndexed: 2 } } });
    } finally {
      await sub.close();
    }
  });

  test("another tenant's tasks are never delivered; a key without search:read cannot subscribe", async () => {
    const other = await createTenant();
    const sub = await subscribe(wsClient(stack().gateway, { 'x-app-id': t.appId, 'x-api-key': t.secretKey }), SUB);
    try {
      await createIndex(other, { uid: uniq('theirs_') });
      expect(await sub.quiet(700)).toBe(true);
    } finally {
      await sub.close();
    }
    const key = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, {
      body: jsonApi('api_keys', { name: 'products only', key_type: 'secret', scopes: ['products:read'] }),
      headers: t.platformHeaders,
    });
    let failure: unknown;
    try {
      const s = await subscribe(wsClient(stack().gateway, { 'x-app-id': t.appId, 'x-api-key': key.body.data.attributes.key_id }), SUB);
      failure = await s.next(3000);
      await s.close();
    } catch (e) {
      failure = e;
    }
    expect(JSON.stringify(failure)).toContain('INSUFFICIENT_SCOPE');
  });
});

describe('DELETE /search/v1/tasks', () => {
  test('deletes the finished tasks a selection names, nothing of another tenant; a bare call or an unfinished status is refused', async () => {
    const mine = await createTenant({ plan: 'growth' });
    const uid = await createIndex(mine, { primary_key: 'id' });
    const ok = await addDocuments(mine, uid, [{ id: 1, title: 'kept' }]);
    const bad = await addDocuments(mine, uid, [{ id: 'bad id' }]);
    expect(bad.attributes.status).toBe('failed');
    const other = await createTenant({ plan: 'growth' });
    const theirs = await createIndex(other, { uid, primary_key: 'id' });
    const del = (q: string, who = mine) => rest('DELETE', `/search/v1/tasks?${q}`, { headers: who.keyHeaders });
    // a time bound alone names tasks: nothing of this tenant finished before 2000
    expect((await del('before_finished_at=2000-01-01')).body.meta).toEqual({ deleted: 0, remaining: 0 });
    expectServiceError(await del('after_enqueued_at=soon'), 'search', 400, 'BAD_REQUEST', { parameter: 'after_enqueued_at' });
    const r = await del(`index_uid=${uid}&status=failed&after_enqueued_at=${ok.attributes.enqueued_at}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], meta: { deleted: 1, remaining: 0 } });
    expectServiceError(await rest('GET', `/search/v1/tasks/${bad.id}`, { headers: mine.keyHeaders }), 'search', 404, 'task_not_found');
    expect((await rest('GET', `/search/v1/tasks/${ok.id}`, { headers: mine.keyHeaders })).status).toBe(200);
    // the rest of the index's history, by index: the other tenant's same-named index keeps its own
    expect((await del(`index_uid=${uid}`)).body.meta).toEqual({ deleted: 2, remaining: 0 });
    expect((await rest('GET', `/search/v1/tasks?index_uid=${theirs}`, { headers: other.keyHeaders })).body.data).toHaveLength(1);
    // the documents stay: a task's row is history only
    expect((await rest('GET', `/search/v1/indexes/${uid}/documents/1`, { headers: mine.keyHeaders })).body.data.attributes).toEqual({ id: 1, title: 'kept' });
    expectServiceError(await del(''), 'search', 400, 'BAD_REQUEST', { parameter: 'uids' });
    expectServiceError(await del('status=enqueued'), 'search', 400, 'BAD_REQUEST', { parameter: 'status' });
    expectServiceError(await del('uids=1,x'), 'search', 400, 'BAD_REQUEST', { parameter: 'uids' });
  });
});
