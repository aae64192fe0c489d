// PostgreSQL cut while writes are in flight (docs/operations.md, "Faults"): a search process of its
// own reaches its database through a TCP relay; four writers keep adding documents (each write is a
// task, its payload and its job, in one transaction; each task's completion writes its
// `indexing.completed` outbox row with it). The relay is cut for two seconds mid-stream (every open
// connection reset, so statements and commits in flight fail) and restored. Afterwards: every
// acknowledged write has its task, job, documents and outbox row; no task lacks its job or payload
// and no job lacks its task (nothing half-written); writes refused meanwhile answered 503.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keyContext, searchProcesses, serverUrl, sleep, subgraphGql, withDb } from './search.helpers.js';
import { tcpRelay } from '../harness/tcp-relay.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 660;
const procs = searchProcesses('faults_tx');
const pgServer = new URL(serverUrl());
const relay = tcpRelay(BASE + 9, { host: pgServer.hostname, port: Number(pgServer.port || 5432) });
const hooks = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));

beforeAll(async () => {
  await procs.setUp();
  await relay.up();
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', () => r()));
}, 30_000);
afterAll(async () => {
  await relay.down();
  await procs.tearDown();
  await new Promise<void>((r) => hooks.close(() => r()));
}, 60_000);

const ADD = 'mutation($u: String!, $d: [JSON]) { addIndexDocuments(indexUid: $u, documents: $d, primaryKey: "id") { id } }';

test('writes in flight when the database is cut: every acknowledged one complete with its job and outbox row, none half-written', async () => {
  const relayed = new URL(procs.dbUrl());
  relayed.hostname = '127.0.0.1';
  relayed.port = String(BASE + 9);
  const { url } = await procs.start('faults-transactions', BASE, {
    DATABASE_URL: relayed.toString(),
    ALLOW_PRIVATE_NETWORK_FETCH: '1',
    SEARCH_WEBHOOK_BACKOFF_MS: '100',
    SEARCH_TASK_LEASE_MS: '3000',
  });
  const ctx = keyContext();
  expect((await subgraphGql(url, ctx, 'mutation { createIndex(input: { uid: "tx", primaryKey: "id" }) { uid } }')).errors).toBeUndefined();
  const hook = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
  const reg = await subgraphGql(url, ctx, 'mutation($i: RegisterWebhookInput!) { registerSearchWebhook(input: $i) { id } }', {
    i: { url: hook, events: ['indexing.completed'], secret: 'whsec_faults_0123456789' },
  });
  expect(reg.errors).toBeUndefined();

  const acked = new Map<string, string[]>();
  const refused: string[] = [];
  let writing = true;
  const writer = async (w: number) => {
    for (let n = 0; writing; n++) {
      const ids = Array.from({ length: 5 }, (_, k) => `w${w}-${n}-${k}`);
      const r = await subgraphGql(url, ctx, ADD, { u: 'tx', d: ids.map((id) => ({ id, title: `doc ${id}` })) });
      if (r.errors) refused.push(String(r.errors[0]?.extensions?.code));
      else acked.set(String(r.data.addIndexDocuments.id), ids);
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  await sleep(1500);
  const before = acked.size;
  await relay.down();
  await sleep(2000);
  await relay.up();
  await sleep(2000);
  writing = false;
  await Promise.all(writers);

  // the queue drains once the database is back: every task final
  const db = serverUrl(new URL(procs.dbUrl()).pathname.slice(1));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const open = await withDb(db, async (c) => Number((await c.query(`select count(*) from search.tasks where status in ('enqueued', 'processing')`)).rows[0].count));
    const pending = await withDb(db, async (c) => Number((await c.query(`select count(*) from search.webhook_deliveries where status <> 'delivered'`)).rows[0].count));
    if (open === 0 && pending === 0) break;
    if (Date.now() > deadline) throw new Error(`${open} tasks, ${pending} deliveries still open after 60 s`);
    await sleep(250);
  }

  const rows = await withDb(db, async (c) => ({
    tasks: (await c.query(`select uid::text as id, status from search.tasks where type = 'document_addition_or_update'`)).rows as { id: string; status: string }[],
    orphanTasks: Number(
      (
        await c.query(`select count(*) from search.tasks t where type = 'document_addition_or_update'
           and (not exists (select 1 from search.jobs j where j.payload->>'taskId' = t.id::text)
             or not exists (select 1 from search.task_payloads p where p.task_id = t.id) and t.status in ('enqueued', 'processing'))`)
      ).rows[0].count,
    ),
    orphanJobs: Number(
      (await c.query(`select count(*) from search.jobs j where j.kind = 'search.task' and not exists (select 1 from search.tasks t where t.id::text = j.payload->>'taskId')`)).rows[0]
        .count,
    ),
    docs: new Set((await c.query(`select doc_id from search.documents where not deleted`)).rows.map((r) => r.doc_id as string)),
    completedEvents: (await c.query(`select body from search.webhook_deliveries where event = 'indexing.completed'`)).rows.map(
      (r) => String(JSON.parse(r.body).data.task_id),
    ),
  }));
  const byId = new Map(rows.tasks.map((t) => [t.id, t.status]));
  console.log(
    `database cut mid-write: ${acked.size} writes acknowledged (${before} before the cut), ${refused.length} refused (${[...new Set(refused)].join(', ')}), ${rows.tasks.length} tasks recorded, ${rows.completedEvents.length} indexing.completed events`,
  );
  expect(acked.size).toBeGreaterThan(before); // writes resumed after the outage
  expect(refused.length).toBeGreaterThan(0); // the cut did hit writes in flight
  expect([...new Set(refused)]).toEqual(['SERVICE_UNAVAILABLE']);
  for (const [id, ids] of acked) {
    expect([id, byId.get(id)]).toEqual([id, 'succeeded']);
    for (const doc of ids) expect(rows.docs.has(doc)).toBe(true);
  }
  expect(rows.orphanTasks).toBe(0);
  expect(rows.orphanJobs).toBe(0);
  // each task that succeeded has exactly one outbox row (written in its completing transaction)
  const succeeded = rows.tasks.filter((t) => t.status === 'succeeded').map((t) => t.id).sort();
  expect([...rows.completedEvents].sort()).toEqual(succeeded);
}, 300_000);
