// Order of application = order of acceptance, per index, under concurrency: many concurrent writers
// on one index through three search processes (two running workers, one API-only replica), all
// against a database of their own. Every process's engine ends with exactly the documents
// PostgreSQL holds, and for every document the last accepted write (highest task id) wins.
import { keyContext, searchProcesses, sleep, subgraphGql, withDb } from './search.helpers.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const processes = searchProcesses('sgord');
const dbUrl = processes.dbUrl;

const CREATE = `mutation($uid: String!) { createIndex(input: { uid: $uid, primaryKey: "id" }) { id } }`;
const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id } }`;
const DELETE = `mutation($uid: String!, $ids: [JSON!]) { deleteIndexDocuments(indexUid: $uid, documentIds: $ids) { id } }`;
const ALL = `query($uid: String!) { searchIndex(indexUid: $uid, input: { query: "", limit: 1000, attributesToHighlight: [], showMatchesPosition: false }) { hits estimatedTotalHits } }`;

type Write = { kind: 'add'; docs: { id: string; v: number; tag: string }[] } | { kind: 'delete'; ids: string[] };

beforeAll(() => processes.setUp(), 30_000);
afterAll(() => processes.tearDown(), 120_000);

test('concurrent writers on one index, two workers and an API-only replica: every replica holds what PostgreSQL holds, the last accepted write wins', async () => {
  const started = await Promise.all([
    processes.start('search-ordering-a', BASE + 30),
    processes.start('search-ordering-b', BASE + 31),
    processes.start('search-ordering-c', BASE + 32, { SEARCH_WORKER: '0' }),
  ]);
  const urls = started.map((p) => p.url);
  const a = urls[0];
  const ctx = keyContext({ plan: 'enterprise' });
  expect((await subgraphGql(a, ctx, CREATE, { uid: 'race' })).errors).toBeUndefined();
  // every process loads its engine now, so later tasks reach each one by apply or catch-up
  for (const url of urls) expect((await subgraphGql(url, ctx, ALL, { uid: 'race' })).errors).toBeUndefined();

  const IDS = 8;
  const WRITES = 90;
  const writes: Write[] = Array.from({ length: WRITES }, (_, i) =>
    i % 9 === 4
      ? { kind: 'delete', ids: [`d${i % IDS}`] }
      : { kind: 'add', docs: [`d${i % IDS}`, `d${(i * 5 + 3) % IDS}`].filter((id, k, all) => all.indexOf(id) === k).map((id) => ({ id, v: i, tag: `t${i}` })) },
  );
  let reading = true;
  // readers on every replica while the writes go on (engines catch up mid-stream)
  const readers = urls.map(async (url) => {
    while (reading) {
      await subgraphGql(url, ctx, ALL, { uid: 'race' });
      await sleep(15);
    }
  });
  const taskIds = await Promise.all(
    writes.map(async (w, i) => {
      const url = urls[i % urls.length];
      const r = w.kind === 'add' ? await subgraphGql(url, ctx, ADD, { uid: 'race', docs: w.docs }) : await subgraphGql(url, ctx, DELETE, { uid: 'race', ids: w.ids });
      expect(r.errors).toBeUndefined();
      return Number((w.kind === 'add' ? r.data.addIndexDocuments : r.data.deleteIndexDocuments).id);
    }),
  );
  expect(new Set(taskIds).size).toBe(WRITES);

  // all tasks finished, each exactly once, in task-id order (acceptance order)
  const deadline = Date.now() + 90_000;
  let tasks: { id: string; status: string; attempts: number; started_at: Date; finished_at: Date | null }[] = [];
  for (;;) {
    tasks = (await withDb(dbUrl(), (db) => db.query(`select id, status, attempts, started_at, finished_at from search.tasks where app_id = $1 and type <> 'index_creation' order by id`, [ctx.appId])))
      .rows;
    if (tasks.length === WRITES && tasks.every((t) => t.status === 'succeeded')) break;
    if (Date.now() > deadline) throw new Error(`tasks not done: ${tasks.map((t) => `${t.id}:${t.status}`).join(' ')}`);
    await sleep(100);
  }
  reading = false;
  await Promise.all(readers);
  for (let i = 1; i < tasks.length; i++) expect(tasks[i].started_at.getTime()).toBeGreaterThanOrEqual(tasks[i - 1].finished_at!.getTime());
  expect(tasks.every((t) => t.attempts === 1)).toBe(true);

  // the expected documents: the writes replayed in acceptance (task id) order
  const expected = new Map<string, number>();
  const byTask = writes.map((w, i) => ({ w, task: taskIds[i] })).sort((x, y) => x.task - y.task);
  for (const { w } of byTask) {
    if (w.kind === 'add') for (const d of w.docs) expected.set(d.id, d.v);
    else for (const id of w.ids) expected.delete(id);
  }
  const want = [...expected].sort(([x], [y]) => x.localeCompare(y));

  const stored = await withDb(dbUrl(), (db) =>
    db.query(`select d.doc_id, d.body from search.documents d join search.indexes i on i.id = d.index_id where i.app_id = $1 and not d.deleted order by d.doc_id`, [ctx.appId]),
  );
  expect(stored.rows.map((r) => [r.doc_id, r.body.v])).toEqual(want);
  const applied = await withDb(dbUrl(), (db) => db.query(`select applied_task_id from search.indexes where app_id = $1`, [ctx.appId]));
  expect(Number(applied.rows[0].applied_task_id)).toBe(Math.max(...taskIds));

  for (const url of urls) {
    const r = await subgraphGql(url, ctx, ALL, { uid: 'race' });
    expect(r.errors).toBeUndefined();
    const got = (r.data.searchIndex.hits as { id: string; v: number }[]).map((h) => [h.id, h.v]).sort(([x], [y]) => String(x).localeCompare(String(y)));
    expect(got).toEqual(want);
  }
}, 180_000);
