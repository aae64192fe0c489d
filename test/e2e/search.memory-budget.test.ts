// The search engines' memory budget and drops, with real search processes (subgraphs/search/main.ts)
// on a database of their own: A with a 1 MB budget (room for about one of this test's indexes), B
// sharing the database without a worker. Unloaded engines are rebuilt on the next search with the
// same answers, concurrent searches share one build, and deleting an index drops its engine in both
// processes (by NOTIFY); a third process C shows the periodic check catching a deletion it was not
// notified of. Figures come from each process's GET /metrics (`search_engines{measure=…}`).
import { keyContext, searchProcesses, sleep, subgraphGql, withDb } from './search.helpers.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const processes = searchProcesses('sgmem');

const CREATE = `mutation($uid: String!) { createIndex(input: { uid: $uid, primaryKey: "id" }) { id } }`;
const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id } }`;
const SETTINGS = `mutation($uid: String!, $s: JSONObject!) { updateIndexSettings(uid: $uid, settings: $s) { id } }`;
const DROP = `mutation($uid: String!) { deleteIndex(uid: $uid) { id } }`;
const TASK = `query($id: ID!) { searchTask(id: $id) { status error { code message } } }`;
const SEARCH = `query($uid: String!, $q: String!, $f: JSON) {
  searchIndex(indexUid: $uid, input: { query: $q, filter: $f, facets: ["colour"], limit: 30 }) { hits estimatedTotalHits facetDistribution }
}`;

const COLOURS = ['red', 'green', 'blue', 'amber', 'violet'];
function documents(tag: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i}`,
    title: `${tag} lamp model ${i} ${COLOURS[i % 5]} shade`,
    text: `a ${['desk', 'floor', 'wall', 'ceiling'][i % 4]} lamp with a ${COLOURS[(i * 3) % 5]} glass shade and a brass stand, item ${i}`,
    colour: COLOURS[i % 5],
  }));
}

type Proc = Awaited<ReturnType<typeof processes.start>>;

async function metrics(p: Proc): Promise<Record<string, number>> {
  const text = await (await fetch(p.url.replace('/graphql', '/metrics'))).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^search_engines\{measure="(\w+)"\} (\S+)$/gm)) out[m[1]] = Number(m[2]);
  return out;
}

async function done(p: Proc, ctx: ReturnType<typeof keyContext>, taskId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const t = (await subgraphGql(p.url, ctx, TASK, { id: taskId })).data?.searchTask;
    if (t?.status === 'succeeded') return;
    if (t && t.status !== 'enqueued' && t.status !== 'processing') throw new Error(`task ${taskId}: ${JSON.stringify(t)}`);
    if (Date.now() > deadline) throw new Error(`task ${taskId} not done`);
    await sleep(50);
  }
}

async function search(p: Proc, ctx: ReturnType<typeof keyContext>, uid: string, q = 'lamp shade', f: unknown = 'colour IN [red, blue]') {
  const r = await subgraphGql(p.url, ctx, SEARCH, { uid, q, f });
  expect(r.errors).toBeUndefined();
  return r.data.searchIndex;
}

let a: Proc;
let b: Proc;
const ctx = keyContext({ plan: 'enterprise' });
const uids = ['mem_a', 'mem_b', 'mem_c'];

beforeAll(async () => {
  await processes.setUp();
  // the periodic check is pushed out of the test's time, so the drops seen are the NOTIFY's
  // snapshots after 1,000 changed documents, so the test's indexes get theirs
  const env = { SEARCH_MEMORY_BUDGET_MB: '1', SEARCH_ENGINE_SWEEP_MS: '600000', SEARCH_SNAPSHOT_EVERY_DOCS: '1000' };
  a = await processes.start('search-memory-a', BASE + 40, env);
  b = await processes.start('search-memory-b', BASE + 41, { ...env, SEARCH_WORKER: '0' });
  for (const uid of uids) {
    expect((await subgraphGql(a.url, ctx, CREATE, { uid })).errors).toBeUndefined();
    const s = await subgraphGql(a.url, ctx, SETTINGS, { uid, s: { filterable_attributes: ['colour'] } });
    await done(a, ctx, s.data.updateIndexSettings.id);
    const r = await subgraphGql(a.url, ctx, ADD, { uid, docs: documents(uid, 1500) });
    await done(a, ctx, r.data.addIndexDocuments.id);
  }
}, 120_000);
afterAll(() => processes.tearDown(), 120_000);

test('over the budget the least recently used engines are unloaded; the next search rebuilds one with the same answers', async () => {
  const first: Record<string, unknown> = {};
  for (const uid of uids) first[uid] = await search(a, ctx, uid);
  expect((first.mem_a as { estimatedTotalHits: number }).estimatedTotalHits).toBe(600);
  const m1 = await metrics(a);
  expect(m1.budget_bytes).toBe(1024 * 1024);
  // one index's engine alone is most of the budget: two of them do not fit
  expect(m1.loaded).toBe(1);
  expect(m1.bytes).toBeGreaterThan(300_000);
  expect(m1.unloads).toBeGreaterThanOrEqual(2);

  // the unloaded engines still had changes worth a snapshot: the worker writes them (in the engine thread)
  const deadline = Date.now() + 30_000;
  while ((await withDb(processes.dbUrl(), (c) => c.query('select index_id from search.index_snapshots'))).rowCount! < 3) {
    if (Date.now() > deadline) throw new Error('snapshots not written');
    await sleep(200);
  }
  // mem_a was unloaded: searching it builds it again from its snapshot, with identical answers
  const m1b = await metrics(a);
  expect(await search(a, ctx, 'mem_a')).toEqual(first.mem_a);
  const m2 = await metrics(a);
  expect(m2.loads).toBe(m1b.loads + 1);
  expect(m2.loads_from_snapshot).toBe(m1b.loads_from_snapshot + 1);
  expect(m2.unloads).toBe(m1b.unloads + 1);
  // other queries too
  expect((await search(a, ctx, 'mem_a', 'brass', 'colour = green')).estimatedTotalHits).toBe(300);
});

test('concurrent searches of an unloaded index share one build', async () => {
  await search(a, ctx, 'mem_c'); // mem_b is now unloaded
  const before = await metrics(a);
  const answers = await Promise.all(Array.from({ length: 6 }, () => search(a, ctx, 'mem_b', 'ceiling lamp', null)));
  for (const r of answers) expect(r).toEqual(answers[0]);
  expect(answers[0].estimatedTotalHits).toBeGreaterThan(0);
  const after = await metrics(a);
  expect(after.loads).toBe(before.loads + 1);
});

test('a settings change that re-indexes is built off the event loop and answers with the new settings', async () => {
  const s = await subgraphGql(a.url, ctx, SETTINGS, { uid: 'mem_b', s: { searchable_attributes: ['title'] } });
  await done(a, ctx, s.data.updateIndexSettings.id);
  // "brass" is only in `text`, no longer searchable
  expect((await search(a, ctx, 'mem_b', 'brass', null)).estimatedTotalHits).toBe(0);
  expect((await search(a, ctx, 'mem_b', 'shade', 'colour = red')).estimatedTotalHits).toBe(300);
});

test('deleting an index drops its engine in every process', async () => {
  await search(b, ctx, 'mem_c');
  await search(a, ctx, 'mem_c');
  const [ma, mb] = [await metrics(a), await metrics(b)];
  expect(mb.loaded).toBe(1);
  const r = await subgraphGql(a.url, ctx, DROP, { uid: 'mem_c' });
  await done(a, ctx, r.data.deleteIndex.id);
  const deadline = Date.now() + 20_000; // a bound under load; met in well under a second alone
  for (;;) {
    const [na, nb] = [await metrics(a), await metrics(b)];
    if (na.drops === ma.drops + 1 && nb.drops === mb.drops + 1) {
      expect(nb.loaded).toBe(0);
      expect(na.loaded).toBe(ma.loaded - 1);
      break;
    }
    if (Date.now() > deadline) throw new Error(`not dropped: a ${JSON.stringify(na)} b ${JSON.stringify(nb)}`);
    await sleep(50);
  }
  const gone = await subgraphGql(b.url, ctx, SEARCH, { uid: 'mem_c', q: 'lamp', f: null });
  expect(gone.errors?.[0]?.extensions?.code).toBe('index_not_found');
});

test('a deletion whose notification was missed is caught by the periodic check', async () => {
  // C checks its loaded engines every 300 ms; the index row is removed without NOTIFY (as when
  // C's LISTEN connection was down at the deletion's commit)
  const c = await processes.start('search-memory-c', BASE + 42, { SEARCH_WORKER: '0', SEARCH_ENGINE_SWEEP_MS: '300' });
  await search(c, ctx, 'mem_a');
  const before = await metrics(c);
  expect(before.loaded).toBe(1);
  await withDb(processes.dbUrl(), (db) => db.query(`delete from search.indexes where uid = 'mem_a' and app_id = $1`, [ctx.appId]));
  const deadline = Date.now() + 20_000; // a bound under load; met in well under a second alone
  for (;;) {
    const m = await metrics(c);
    if (m.drops === before.drops + 1) {
      expect(m.loaded).toBe(0);
      break;
    }
    if (Date.now() > deadline) throw new Error(`not dropped: ${JSON.stringify(m)}`);
    await sleep(100);
  }
});
