// Placement across search nodes (docs/search.md, "Placement"): three search processes on one
// database, each index held by R = 2 of them. Searches sent to any node answer with the documents
// PostgreSQL holds, whether the node holds the index or forwards; a node joins, one leaves (SIGTERM)
// and one is killed (SIGKILL), and after each, once the grace period is over, no index is loaded on
// more than R nodes. A holder whose engine is still loading answers 503 with Retry-After through
// the forwarding node. A forwarded search keeps its caller's tenant: the holder resolves the index
// again under the signed context, and refuses an unsigned request.
import { randomUUID } from 'node:crypto';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../../lib/tenant.js';
import { stack } from '../harness/client.js';
import { stop } from '../harness/spawn.js';
import { holdersOf } from '../../subgraphs/search/placement/ring.rules.js';
import { keyContext, searchProcesses, sleep, subgraphGql, withDb } from './search.helpers.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const R = 2;
const processes = searchProcesses('sgplace');
const dbUrl = processes.dbUrl;
const PLACEMENT = { SEARCH_REPLICAS: String(R), SEARCH_NODE_HEARTBEAT_MS: '200', SEARCH_NODE_STALE_MS: '1500', SEARCH_PLACEMENT_GRACE_MS: '1500', SEARCH_FORWARD_TIMEOUT_MS: '10000' };
type Node = Awaited<ReturnType<typeof processes.start>> & { port: number; name: string };
async function startNode(name: string, offset: number, extra: Record<string, string> = {}): Promise<Node> {
  const port = BASE + offset;
  const n = await processes.start(name, port, { ...PLACEMENT, SEARCH_NODE_URL: `http://127.0.0.1:${port}`, SEARCH_NODE_ID: name, ...extra });
  return { ...n, port, name };
}

const CREATE = `mutation($uid: String!) { createIndex(input: { uid: $uid, primaryKey: "id", settings: { filterableAttributes: ["tree"] } }) { id } }`;
const LIST = `query($uid: String!, $f: JSON) { indexDocuments(indexUid: $uid, filter: $f, limit: 1000) { results { id } } }`;
const ADD = `mutation($uid: String!, $docs: [JSON]) { addIndexDocuments(indexUid: $uid, documents: $docs) { id } }`;
const SEARCH = `query($uid: String!, $q: String!) { searchIndex(indexUid: $uid, input: { query: $q, limit: 1000, attributesToHighlight: [], showMatchesPosition: false }) { hits estimatedTotalHits } }`;
const INDEXES = 12;
const uids = Array.from({ length: INDEXES }, (_, i) => `place${i}`);
const ctx: TenantContext = keyContext({ plan: 'enterprise' });

/** documents of index i: `amber` in every third, `birch` in the others */
const docs = (i: number, from: number, n: number) =>
  Array.from({ length: n }, (_, k) => ({ id: `d${from + k}`, title: `${(from + k) % 3 ? 'birch' : 'amber'} item ${i} number ${from + k}`, tree: (from + k) % 3 ? 'birch' : 'amber' }));

async function settled(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const open = await withDb(dbUrl(), async (c) => Number((await c.query(`select count(*) from search.tasks where status in ('enqueued', 'processing')`)).rows[0].count));
    if (!open) return;
    if (Date.now() > deadline) throw new Error(`${open} tasks still open`);
    await sleep(100);
  }
}

/** What PostgreSQL says index `uid` holds for a word (the titles' first word). */
async function truth(uid: string, word: string): Promise<string[]> {
  return withDb(dbUrl(), async (c) =>
    (
      await c.query(
        `select d.doc_id from search.documents d join search.indexes i on i.id = d.index_id
          where i.uid = $1 and i.app_id = $2 and not d.deleted and d.body->>'title' like $3 order by d.doc_id`,
        [uid, ctx.appId, `${word} %`],
      )
    ).rows.map((r) => r.doc_id as string),
  );
}

async function answers(node: Node, uid: string, word: string): Promise<string[]> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const r = await subgraphGql(node.url, ctx, SEARCH, { uid, q: word });
    // an engine still loading answers 503 with Retry-After: the documented answer, retried
    if (r.errors?.[0]?.extensions?.code === 'SERVICE_UNAVAILABLE' && Date.now() < deadline) {
      expect(r.errors[0].extensions.meta.retryAfterMs).toBeGreaterThan(0);
      await sleep(250);
      continue;
    }
    expect(r.errors).toBeUndefined();
    return (r.data.searchIndex.hits as { id: string }[]).map((h) => h.id).sort();
  }
}

/** Every index, asked through every node, answers with PostgreSQL's documents. */
async function everyIndexAnswers(nodes: Node[]): Promise<void> {
  for (const uid of uids) {
    const amber = await truth(uid, 'amber');
    const birch = await truth(uid, 'birch');
    expect(amber.length).toBeGreaterThan(0);
    for (const n of nodes) {
      expect(await answers(n, uid, 'amber')).toEqual(amber);
      expect(await answers(n, uid, 'birch')).toEqual(birch);
    }
    // a filtered listing: the filter's ids come from a holder's engine too
    const listed = await subgraphGql(nodes[0].url, ctx, LIST, { uid, f: 'tree = amber' });
    expect(listed.errors).toBeUndefined();
    expect((listed.data.indexDocuments.results as { id: string }[]).map((d) => d.id).sort()).toEqual(amber);
  }
}

async function loadedOn(n: Node): Promise<{ indexIds: string[]; placement: { forwarded: number; served: number; nodes: number } }> {
  const body = '{}';
  const tenant = signTenantContext({ kind: 'service', requestId: randomUUID(), scopes: [] }, stack().env.INTERNAL_SECRET, { audience: 'search', body });
  const r = await fetch(`http://127.0.0.1:${n.port}/internal/search/loaded`, { method: 'POST', headers: { 'content-type': 'application/json', [TENANT_HEADER]: tenant }, body });
  expect(r.status).toBe(200);
  return ((await r.json()) as { ok: any }).ok;
}

/** After the grace period each index is loaded on at most R of the live nodes (polled: unloading runs on the heartbeat). */
async function atMostR(nodes: Node[]): Promise<Map<string, number>> {
  await sleep(Number(PLACEMENT.SEARCH_PLACEMENT_GRACE_MS) + 2 * Number(PLACEMENT.SEARCH_NODE_HEARTBEAT_MS));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const count = new Map<string, number>();
    for (const n of nodes) for (const id of (await loadedOn(n)).indexIds) count.set(id, (count.get(id) ?? 0) + 1);
    const over = [...count].filter(([, c]) => c > Math.min(R, nodes.length));
    if (!over.length) return count;
    if (Date.now() > deadline) throw new Error(`indexes loaded on more than ${R} nodes: ${JSON.stringify(over)}`);
    await sleep(250);
  }
}

const liveIds = () => withDb(dbUrl(), async (c) => (await c.query(`select id from search.nodes where heartbeat_at > now() - interval '1500 milliseconds' order by id`)).rows.map((r) => r.id as string));
async function nodesAre(ids: string[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (JSON.stringify(await liveIds()) !== JSON.stringify(ids)) {
    if (Date.now() > deadline) throw new Error(`live nodes ${JSON.stringify(await liveIds())}, expected ${JSON.stringify(ids)}`);
    await sleep(100);
  }
  await sleep(600); // every node's next heartbeat has read the same set
}

beforeAll(() => processes.setUp(), 30_000);
// A test that fails leaves no process behind to take the next test's tasks.
afterEach(() => processes.stopAll(), 60_000);
afterAll(() => processes.tearDown(), 120_000);

test('three search nodes: join, leave and kill -9; every index answers as PostgreSQL, loaded on at most R nodes', async () => {
  const a = await startNode('node-a', 1500);
  const b = await startNode('node-b', 1501);
  await nodesAre(['node-a', 'node-b']);
  for (const [i, uid] of uids.entries()) {
    expect((await subgraphGql(a.url, ctx, CREATE, { uid })).errors).toBeUndefined();
    expect((await subgraphGql(i % 2 ? a.url : b.url, ctx, ADD, { uid, docs: docs(i, 0, 40) })).errors).toBeUndefined();
  }
  await settled();
  await everyIndexAnswers([a, b]);

  // join: C takes its share; after the grace period A and B have let go of what C now holds
  const c = await startNode('node-c', 1502);
  await nodesAre(['node-a', 'node-b', 'node-c']);
  await everyIndexAnswers([a, b, c]);
  const spread = await atMostR([a, b, c]);
  expect(spread.size).toBe(INDEXES);
  const figures = await Promise.all([a, b, c].map(loadedOn));
  // searches were forwarded (each node holds only some indexes) and every node served some
  expect(figures.reduce((n, f) => n + f.placement.forwarded, 0)).toBeGreaterThan(0);
  for (const f of figures) expect(f.placement.served).toBeGreaterThan(0);
  // each node holds its share, not every index
  for (const f of figures) expect(f.indexIds.length).toBeLessThan(INDEXES);

  // writes after the join: every holder catches up from PostgreSQL
  for (const [i, uid] of uids.entries()) expect((await subgraphGql(c.url, ctx, ADD, { uid, docs: docs(i, 40, 10) })).errors).toBeUndefined();
  await settled();
  await everyIndexAnswers([a, b, c]);

  // leave: B stops (SIGTERM) and leaves the registry; A and C hold everything
  await stop(b.child);
  await nodesAre(['node-a', 'node-c']);
  await everyIndexAnswers([a, c]);
  await atMostR([a, c]);

  // kill -9: C dies without leaving; once its heartbeat is stale, A holds every index alone
  const d = await startNode('node-d', 1503);
  await nodesAre(['node-a', 'node-c', 'node-d']);
  await everyIndexAnswers([a, c, d]);
  c.child.kill('SIGKILL');
  // searches sent meanwhile to the survivors answer (a forward to C fails over to the next holder)
  await everyIndexAnswers([a, d]);
  await nodesAre(['node-a', 'node-d']);
  for (const [i, uid] of uids.entries()) expect((await subgraphGql(a.url, ctx, ADD, { uid, docs: docs(i, 50, 5) })).errors).toBeUndefined();
  await settled();
  await everyIndexAnswers([a, d]);
  await atMostR([a, d]);
  await Promise.all([stop(a.child), stop(d.child)]);
  await nodesAre([]);
}, 360_000);

test('a holder still loading answers 503 with Retry-After through the forwarding node; the same search answers once it loaded', async () => {
  // R = 1 on this ring of two, one of them waiting 1 ms for a load: its cold indexes answer 503 at once
  const t = await startNode('node-t', 1504, { SEARCH_REPLICAS: '1' });
  const slow = await startNode('node-slow', 1505, { SEARCH_REPLICAS: '1', SEARCH_ENGINE_LOAD_WAIT_MS: '1' });
  await nodesAre(['node-slow', 'node-t']);
  const ids = await withDb(dbUrl(), async (c) => new Map((await c.query(`select uid, id from search.indexes where app_id = $1`, [ctx.appId])).rows.map((r) => [r.uid as string, r.id as string])));
  const ring = [t, slow].map((n) => ({ id: n.name, url: `http://127.0.0.1:${n.port}` }));
  const onSlow = uids.find((uid) => holdersOf(ring, ids.get(uid)!, 1)[0].id === 'node-slow')!;
  expect(onSlow).toBeDefined();
  const first = await subgraphGql(t.url, ctx, SEARCH, { uid: onSlow, q: 'amber' });
  expect(first.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  expect(first.errors![0].extensions.meta.retryAfterMs).toBeGreaterThan(0);
  expect(await answers(t, onSlow, 'amber')).toEqual(await truth(onSlow, 'amber'));
  const figures = await loadedOn(slow);
  expect(figures.indexIds).toContain(ids.get(onSlow));
  expect((await loadedOn(t)).indexIds).not.toContain(ids.get(onSlow));
}, 120_000);

test('a forwarded search keeps its tenant: the holder resolves the uid under the signed context, and refuses unsigned requests', async () => {
  const a = await startNode('node-u', 1506);
  const body = JSON.stringify({ op: 'search', indexUid: uids[0], request: { query: 'amber' } });
  const other = keyContext({ plan: 'enterprise' });
  const signed = (t: TenantContext) => signTenantContext({ ...t, requestId: randomUUID() }, stack().env.INTERNAL_SECRET, { audience: 'search', body });
  const call = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${a.port}/internal/search/engine`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const mine = await call({ [TENANT_HEADER]: signed(ctx) });
  expect(mine.status).toBe(200);
  expect(((await mine.json()) as any).ok.hits.length).toBeGreaterThan(0);
  const foreign = await call({ [TENANT_HEADER]: signed(other) });
  expect(((await foreign.json()) as any).error).toMatchObject({ code: 'index_not_found' });
  expect((await call({})).status).toBe(401);
  const wrongAudience = signTenantContext({ ...ctx, requestId: randomUUID() }, stack().env.INTERNAL_SECRET, { audience: 'catalog', body });
  expect((await call({ [TENANT_HEADER]: wrongAudience })).status).toBe(401);
  await stop(a.child);
}, 120_000);
