// Task durability with real processes: search subgraph processes (subgraphs/search/main.ts) run
// against their own database (so the stack's worker stays out of it). One is killed with SIGKILL
// while it holds a task's transaction open; another takes over: the task ends succeeded exactly
// once, nothing half-applied, every document present. Two live workers on one database never
// run a task twice and keep each index's order.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, stop } from '../harness/spawn.js';
import { keyContext, searchProcesses, sleep, subgraphGql, withDb } from './search.helpers.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const processes = searchProcesses('sgdur');
const dbUrl = processes.dbUrl;
// A short lease, so a killed worker's task is taken over within seconds.
const startSearch = (name: string, port: number, extra: Record<string, string> = {}) => processes.start(name, port, { SEARCH_TASK_LEASE_MS: '1500', ...extra });

const CREATE = `mutation($uid: String!) { createIndex(input: { uid: $uid, primaryKey: "id" }) { id } }`;
const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id } }`;
const SEARCH = `query($uid: String!, $q: String!) { searchIndex(indexUid: $uid, input: { query: $q, limit: 1 }) { estimatedTotalHits } }`;
const DELETE = `mutation($uid: String!, $ids: [JSON!]) { deleteIndexDocuments(indexUid: $uid, documentIds: $ids) { id } }`;

function batch(tag: string, n: number) {
  // `code` is one token per document (ids like "s-0" tokenise to "s" and "0")
  return Array.from({ length: n }, (_, i) => ({ id: `${tag}-${i}`, code: `${tag}x${i}code`, title: `durable item ${tag} number ${i}`, text: 'lorem ipsum dolor sit amet '.repeat(6) }));
}

interface TaskRow {
  id: string;
  index_uid: string;
  status: string;
  attempts: number;
  worker: string | null;
  started_at: Date;
  finished_at: Date | null;
}

const tasksOf = (appId: string) =>
  withDb(dbUrl(), async (c) => (await c.query(`select id, index_uid, status, attempts, worker, started_at, finished_at from search.tasks where app_id = $1 and type <> 'index_creation' order by id`, [appId])).rows as TaskRow[]);

async function allFinal(appId: string, timeoutMs = 60_000): Promise<TaskRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await tasksOf(appId);
    if (rows.every((r) => ['succeeded', 'failed', 'canceled'].includes(r.status))) return rows;
    if (Date.now() > deadline) throw new Error(`tasks not final: ${rows.map((r) => `${r.id}:${r.status}`).join(' ')}`);
    await sleep(100);
  }
}

const workerOf = (child: ChildProcess) => new RegExp(`:${child.pid}:`);

beforeAll(() => processes.setUp(), 30_000);
// A test that fails leaves no worker behind to take the next test's tasks.
afterEach(() => processes.stopAll(), 60_000);
afterAll(() => processes.tearDown(), 120_000);

test('a worker killed mid-task: the task is re-run by another process, succeeds once, all documents present', async () => {
  const a = await startSearch('search-durability-a', BASE + 20);
  const ctx = keyContext({ plan: 'enterprise' });
  expect((await subgraphGql(a.url, ctx, CREATE, { uid: 'dur' })).errors).toBeUndefined();
  const BATCHES = 6;
  const PER = 4000;
  for (let b = 0; b < BATCHES; b++) {
    const r = await subgraphGql(a.url, ctx, ADD, { uid: 'dur', docs: batch(`b${b}`, PER) });
    expect(r.errors).toBeUndefined();
  }

  // Kill A while it holds a task's transaction (the task row is locked by it).
  let interrupted: string | undefined;
  await withDb(dbUrl(), async (c) => {
    const deadline = Date.now() + 30_000;
    while (!interrupted && Date.now() < deadline) {
      const p = await c.query(`select id, worker from search.tasks where app_id = $1 and status = 'processing'`, [ctx.appId]);
      const mine = p.rows.find((r) => workerOf(a.child).test(r.worker));
      if (mine) {
        // Frozen first, and given time for a COMMIT it may already have sent to reach the server:
        // a row still locked after that belongs to a transaction that can no longer commit.
        a.child.kill('SIGSTOP');
        await sleep(150);
        let frozenMidTask = false;
        await c.query('begin');
        try {
          await c.query('select 1 from search.tasks where id = $1 for update nowait', [mine.id]);
        } catch (e) {
          if ((e as { code?: string }).code === '55P03') frozenMidTask = true;
          else throw e;
        } finally {
          await c.query('rollback');
        }
        if (frozenMidTask) {
          a.child.kill('SIGKILL');
          interrupted = mine.id;
        } else a.child.kill('SIGCONT'); // it had finished that task: catch it in the next one
      }
      if (!interrupted) await sleep(2);
    }
  });
  expect(interrupted).toBeDefined();
  await new Promise((r) => (a.child.exitCode !== null || a.child.signalCode !== null ? r(null) : a.child.once('exit', r)));

  // Nothing of the interrupted task was applied; it still reads processing (its lease runs out).
  await withDb(dbUrl(), async (c) => {
    const t = (await c.query('select status, attempts from search.tasks where id = $1', [interrupted])).rows[0];
    expect(t).toEqual({ status: 'processing', attempts: 1 });
    expect(Number((await c.query('select count(*) from search.documents where task_id = $1', [interrupted])).rows[0].count)).toBe(0);
  });

  const b = await startSearch('search-durability-b', BASE + 21);
  const tasks = await allFinal(ctx.appId!);
  expect(tasks.map((t) => t.status)).toEqual(Array(BATCHES).fill('succeeded'));
  const again = tasks.find((t) => t.id === interrupted)!;
  expect(again.attempts).toBe(2);
  expect(again.worker).toMatch(workerOf(b.child));
  for (const t of tasks.filter((x) => x.id !== interrupted)) expect(t.attempts).toBe(1);
  // in enqueue order
  for (let i = 1; i < tasks.length; i++) expect(tasks[i].finished_at!.getTime()).toBeGreaterThanOrEqual(tasks[i - 1].finished_at!.getTime());

  await withDb(dbUrl(), async (c) => {
    const perTask = await c.query(`select task_id, count(*)::int as n from search.documents where not deleted group by task_id order by task_id`);
    expect(perTask.rows.map((r) => Number(r.n))).toEqual(Array(BATCHES).fill(PER));
    const idx = (await c.query(`select number_of_documents, is_indexing from search.indexes where app_id = $1`, [ctx.appId])).rows[0];
    expect(idx).toEqual({ number_of_documents: BATCHES * PER, is_indexing: false });
  });
  // B rebuilt its engine from PostgreSQL and finds every batch, including the re-run one.
  const found = await subgraphGql(b.url, ctx, SEARCH, { uid: 'dur', q: 'durable' });
  expect(found.data.searchIndex.estimatedTotalHits).toBeGreaterThanOrEqual(Math.min(1000, BATCHES * PER));
  for (let i = 0; i < BATCHES; i++) {
    const r = await subgraphGql(b.url, ctx, SEARCH, { uid: 'dur', q: `b${i}` });
    expect(r.data.searchIndex.estimatedTotalHits).toBeGreaterThanOrEqual(1);
  }
  await stop(b.child);
}, 120_000);

test('two live workers on one database: every task runs exactly once, each index in order, both share the work', async () => {
  // Live workers only: a lease long enough that a test run's load (an event loop held for over a
  // second) does not lapse it, which would rightly count a second attempt.
  const live = { SEARCH_TASK_LEASE_MS: '15000' };
  const one = await startSearch('search-durability-c', BASE + 22, live);
  const two = await startSearch('search-durability-d', BASE + 23, live);
  const ctx = keyContext({ plan: 'enterprise' });
  const uids = ['w0', 'w1', 'w2', 'w3'];
  for (const uid of uids) expect((await subgraphGql(one.url, ctx, CREATE, { uid })).errors).toBeUndefined();
  const enqueues: Promise<unknown>[] = [];
  for (let n = 0; n < 10; n++) {
    for (const [i, uid] of uids.entries()) enqueues.push(subgraphGql((n + i) % 2 ? one.url : two.url, ctx, ADD, { uid, docs: batch(`${uid}-${n}`, 300) }));
  }
  for (const r of (await Promise.all(enqueues)) as { errors?: unknown }[]) expect(r.errors).toBeUndefined();
  const tasks = await allFinal(ctx.appId!);
  expect(tasks).toHaveLength(40);
  expect(tasks.every((t) => t.status === 'succeeded' && t.attempts === 1)).toBe(true);
  const workers = new Set(tasks.map((t) => (workerOf(one.child).test(t.worker!) ? 'one' : workerOf(two.child).test(t.worker!) ? 'two' : t.worker)));
  expect(workers).toEqual(new Set(['one', 'two']));
  for (const uid of uids) {
    const mine = tasks.filter((t) => t.index_uid === uid);
    for (let i = 1; i < mine.length; i++) expect(mine[i].started_at.getTime()).toBeGreaterThanOrEqual(mine[i - 1].finished_at!.getTime());
  }
  await withDb(dbUrl(), async (c) => {
    const n = await c.query(`select count(*)::int as n from search.documents d join search.indexes i on i.id = d.index_id where i.app_id = $1 and not d.deleted`, [ctx.appId]);
    expect(n.rows[0].n).toBe(40 * 300);
  });
  await Promise.all([stop(one.child), stop(two.child)]);
}, 120_000);

test('restart from an engine snapshot plus the rows written after it (additions and deletions)', async () => {
  const e = await startSearch('search-durability-e', BASE + 24, { SEARCH_SNAPSHOT_EVERY_DOCS: '100' });
  const ctx = keyContext({ plan: 'enterprise' });
  // typo tolerance off: "sx0code" must not match "sx1code"
  const created = await subgraphGql(e.url, ctx, `mutation { createIndex(input: { uid: "snap", primaryKey: "id", settings: { typo_tolerance: { enabled: false } } }) { id } }`);
  const indexId = created.data.createIndex.id;
  await subgraphGql(e.url, ctx, SEARCH, { uid: 'snap', q: 'x' }); // loads the engine, so batches reach it
  expect((await subgraphGql(e.url, ctx, ADD, { uid: 'snap', docs: batch('s', 500) })).errors).toBeUndefined();
  expect((await subgraphGql(e.url, ctx, DELETE, { uid: 'snap', ids: ['s-0', 's-1'] })).errors).toBeUndefined();
  await allFinal(ctx.appId!);
  // the worker writes the snapshot once idle for ~3 s, then purges the tombstones it covers
  let snap: { task_id: string } | undefined;
  for (let i = 0; i < 200 && !snap; i++) {
    snap = (await withDb(dbUrl(), (c) => c.query('select task_id from search.index_snapshots where index_id = $1', [indexId]))).rows[0];
    if (!snap) await sleep(100);
  }
  expect(snap).toBeDefined();
  await withDb(dbUrl(), async (c) => {
    expect(Number((await c.query('select count(*) from search.documents where index_id = $1 and deleted', [indexId])).rows[0].count)).toBe(0);
    expect(Number((await c.query('select purged_through_task_id from search.indexes where id = $1', [indexId])).rows[0].purged_through_task_id)).toBe(Number(snap!.task_id));
  });
  // after the snapshot: 20 new documents, 3 deletions (tombstones), one replacement
  expect((await subgraphGql(e.url, ctx, ADD, { uid: 'snap', docs: [...batch('t', 20), { id: 's-10', title: 'replaced quetzal' }] })).errors).toBeUndefined();
  expect((await subgraphGql(e.url, ctx, DELETE, { uid: 'snap', ids: ['s-2', 's-3', 's-4'] })).errors).toBeUndefined();
  await allFinal(ctx.appId!);
  await stop(e.child);

  const f = await startSearch('search-durability-f', BASE + 25, { LOG_LEVEL: 'info' });
  const count = async (q: string) => (await subgraphGql(f.url, ctx, SEARCH, { uid: 'snap', q })).data.searchIndex.estimatedTotalHits;
  expect(await count('durable')).toBe(500 - 5 + 20 - 1);
  expect(await count('quetzal')).toBe(1);
  for (const gone of ['sx0code', 'sx2code', 'sx4code', 'sx10code']) expect(await count(gone)).toBe(0);
  for (const kept of ['sx5code', 'sx499code', 'tx19code']) expect(await count(kept)).toBe(1);
  await stop(f.child);
  // F loaded the snapshot, not every row
  const log = readFileSync(resolve(ROOT, '.data', 'test-logs', `search-durability-f-${BASE}.log`), 'utf8');
  expect(log).toMatch(/"msg":"engine loaded".*"fromSnapshot":true/);
}, 120_000);
