// Plan limits. The plan comes from the tenant context the gateway signs; these tests call the
// stack's search subgraph directly with a signed context naming the Free plan (3 indexes, 10,000
// documents per index, 10 searches per second), and check the REST rendering of 429 through the
// bridge with the stack's default plan (SEARCH_DEFAULT_PLAN=growth: 200 searches per second).
import { createTenant, jsonApi, rest, stack } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, keyContext, sleep, subgraphGql } from './search.helpers.js';

const CREATE = `mutation($uid: String!) { createIndex(input: { uid: $uid, primaryKey: "id" }) { uid } }`;
const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id status } }`;
const TASK = `query($id: ID!) { searchTask(id: $id) { status error { code message } } }`;
const SEARCH = `query($uid: String!) { searchIndex(indexUid: $uid, input: { query: "doc" }) { estimatedTotalHits } }`;

const url = () => stack().subgraphs.search;

async function waitDirect(ctx: ReturnType<typeof keyContext>, id: string): Promise<{ status: string; error: { code: string } | null }> {
  for (let i = 0; i < 400; i++) {
    const r = await subgraphGql(url(), ctx, TASK, { id });
    const task = r.data?.searchTask;
    if (task && ['succeeded', 'failed', 'canceled'].includes(task.status)) return task;
    await sleep(50);
  }
  throw new Error(`task ${id} did not finish`);
}

/** Sleep until a fresh 1-second window starts, so a burst lands in one window. */
async function windowStart(): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + 5);
}

describe('Free plan (from the tenant context)', () => {
  test('a 4th index → 403 index_limit_exceeded', async () => {
    const ctx = keyContext({ plan: 'free' });
    for (let i = 0; i < 3; i++) expect((await subgraphGql(url(), ctx, CREATE, { uid: `i${i}` })).errors).toBeUndefined();
    const r = await subgraphGql(url(), ctx, CREATE, { uid: 'i3' });
    expect(r.errors?.[0].extensions).toMatchObject({ code: 'index_limit_exceeded', status: 403 });
    expect(r.errors?.[0].message).toMatch(/free plan allows 3 indexes/);
    // the same plan name in any case; an unknown plan falls back to the default plan
    const upper = keyContext({ plan: 'FREE' });
    for (let i = 0; i < 3; i++) await subgraphGql(url(), upper, CREATE, { uid: `u${i}` });
    expect((await subgraphGql(url(), upper, CREATE, { uid: 'u3' })).errors?.[0].extensions.code).toBe('index_limit_exceeded');
    const unknown = keyContext({ plan: 'platinum' });
    for (let i = 0; i < 4; i++) expect((await subgraphGql(url(), unknown, CREATE, { uid: `x${i}` })).errors).toBeUndefined();
  });

  test('10,000 documents per index: a batch adding more → 403 document_limit_exceeded; replacing is fine; a race fails the task', async () => {
    const ctx = keyContext({ plan: 'free' });
    await subgraphGql(url(), ctx, CREATE, { uid: 'docs' });
    const full = Array.from({ length: 9_999 }, (_, i) => ({ id: i, t: 'doc' }));
    const first = await subgraphGql(url(), ctx, ADD, { uid: 'docs', docs: full });
    expect((await waitDirect(ctx, first.data.addIndexDocuments.id)).status).toBe('succeeded');

    const over = await subgraphGql(url(), ctx, ADD, { uid: 'docs', docs: [{ id: 'new1' }, { id: 'new2' }] });
    expect(over.errors?.[0].extensions).toMatchObject({ code: 'document_limit_exceeded', status: 403, parameter: 'documents' });
    const replace = await subgraphGql(url(), ctx, ADD, { uid: 'docs', docs: [{ id: 1, t: 'doc v2' }, { id: 2, t: 'doc v2' }] });
    expect((await waitDirect(ctx, replace.data.addIndexDocuments.id)).status).toBe('succeeded');

    // Two batches each fitting alone, sent together: exactly one is applied. The other fails its task
    // when both were enqueued before either ran, or is refused at once when the first had already run.
    const sent = await Promise.all([
      subgraphGql(url(), ctx, ADD, { uid: 'docs', docs: [{ id: 'race1' }] }),
      subgraphGql(url(), ctx, ADD, { uid: 'docs', docs: [{ id: 'race2' }] }),
    ]);
    const outcomes = await Promise.all(
      sent.map(async (r) => (r.data?.addIndexDocuments ? waitDirect(ctx, r.data.addIndexDocuments.id) : { status: 'refused', error: { code: r.errors?.[0].extensions.code } })),
    );
    expect(outcomes.filter((x) => x.status === 'succeeded')).toHaveLength(1);
    expect(outcomes.find((x) => x.status !== 'succeeded')!.error!.code).toBe('document_limit_exceeded');
  });

  test('10 searches per second: the 11th in a second → 429 RATE_LIMITED', async () => {
    const ctx = keyContext({ plan: 'free' });
    await subgraphGql(url(), ctx, CREATE, { uid: 'rate' });
    let limited: any[] = [];
    for (let attempt = 0; attempt < 3 && !limited.length; attempt++) {
      await windowStart();
      const answers = await Promise.all(Array.from({ length: 12 }, () => subgraphGql(url(), ctx, SEARCH, { uid: 'rate' })));
      limited = answers.filter((r) => r.errors);
      if (limited.length) expect(answers.filter((r) => !r.errors).length).toBeLessThanOrEqual(10);
    }
    expect(limited[0].errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(limited[0].errors[0].message).toMatch(/free plan allows 10 searches per second/);
  });
});

describe('REST rendering', () => {
  test('searches beyond the plan → 429 rate_limit_exceeded in the errors[] shape', async () => {
    const t = await createTenant({ plan: 'growth' });
    const uid = await createIndex(t, { primary_key: 'id' });
    await addDocuments(t, uid, [{ id: 1, title: 'doc' }]);
    const queries = Array.from({ length: 100 }, () => ({ index_uid: uid, query: 'doc' }));
    let last;
    for (let attempt = 0; attempt < 3; attempt++) {
      await windowStart();
      await rest('POST', '/search/v1/multi-search', { body: jsonApi('multi_search_queries', { queries }), headers: t.keyHeaders });
      await rest('POST', '/search/v1/multi-search', { body: jsonApi('multi_search_queries', { queries }), headers: t.keyHeaders });
      last = await rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: 'doc' }), headers: t.keyHeaders });
      if (last.status === 429) break;
    }
    const e = expectServiceError(last!, 'search', 429, 'RATE_LIMITED');
    expect(e.code).toBe('rate_limit_exceeded');
    expect(e.detail).toMatch(/growth plan allows 200 searches per second/);
    expect(last!.headers.get('retry-after')).toBe('1');
    // the next second has a fresh budget
    await windowStart();
    expect((await rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: 'doc' }), headers: t.keyHeaders })).status).toBe(200);
  });
});
