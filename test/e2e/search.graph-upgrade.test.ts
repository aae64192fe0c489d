// An index whose stored vector graph an older builder made (HNSW_BUILDER 1), on real search processes
// with their own database: a search after the restart answers at once from that graph; the engine
// thread builds the graph again in a background load, which takes the loaded engine's place; its
// snapshot replaces the one at the same task, so the next restart restores the new graph and builds
// nothing. (docs/search.md, Hybrid search: a graph due again is built in the background.)
import { readFileSync } from 'node:fs';
import { stop } from '../harness/spawn.js';
import { TestPool } from '../harness/test-pool.js';
import { createLogger } from '../../lib/logger.js';
import { engineFactory } from '../../lib/search-engine/index.js';
import { EngineLoader, readSnapshot } from '../../subgraphs/search/engine-registry/engine-loader.js';
import { discardSnapshot, storedSnapshot } from '../../subgraphs/search/engine-registry/snapshot-store.js';
import { keyContext, searchProcesses, sleep, subgraphGql } from './search.helpers.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const processes = searchProcesses('sggraph');
const ENV = { SEARCH_SNAPSHOT_EVERY_DOCS: '1000', LOG_LEVEL: 'info' };
const ctx = keyContext({ plan: 'enterprise' });

const CREATE = `mutation { createIndex(input: { uid: "graph", primaryKey: "id", settings: { embedding_attributes: ["text"] } }) { id } }`;
const ADD = `mutation($docs: [JSON]) { addIndexDocuments(indexUid: "graph", documents: $docs) { id } }`;
const SEARCH = `query($i: SearchInput) { searchIndex(indexUid: "graph", input: $i) { hits estimatedTotalHits } }`;

/** 12,000 texts of two gettext messages each: past EXACT_MAX (10,000), so searches walk the graph */
function texts(): string[] {
  const f = JSON.parse(readFileSync(new URL('../relevance/fixtures/gettext-multilingual.json', import.meta.url), 'utf8'));
  const m: string[] = Object.values(f.languages as Record<string, { documents: { text: string }[] }>).flatMap((l) => l.documents.map((d) => d.text));
  return Array.from({ length: 12_000 }, (_, i) => `${m[i % m.length]} ${m[(i * 13 + 5) % m.length]}`);
}

async function metrics(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(url.replace('/graphql', '/metrics'))).text();
  const out: Record<string, number> = {};
  for (const x of text.matchAll(/^search_engines\{measure="(\w+)"\} (\S+)$/gm)) out[x[1]] = Number(x[2]);
  return out;
}

/** The stored snapshot's graph builder (absent in a graph of builder 1), and its task. */
async function storedGraph(pool: TestPool, indexId: string): Promise<{ taskId: number; builder: number | undefined; createdAt: number }> {
  const snap = (await storedSnapshot(pool, indexId))!;
  const data = (await readSnapshot(pool, indexId, snap)) as { vectors: { hnsw: { builder?: number } | null } };
  return { taskId: snap.taskId, builder: data.vectors.hnsw?.builder, createdAt: snap.createdAt };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, tries = 600): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(() => processes.setUp(), 30_000);
afterAll(() => processes.tearDown(), 120_000);

test("an older builder's graph answers at once after a restart, is built again in the background, and its snapshot replaced", async () => {
  const a = await processes.start('search-graph-a', BASE + 1700, ENV);
  const indexId = (await subgraphGql(a.url, ctx, CREATE)).data.createIndex.id as string;
  await subgraphGql(a.url, ctx, SEARCH, { i: { query: 'x' } }); // loads the engine, so batches reach it (and its snapshots follow)
  const all = texts();
  for (let i = 0; i < all.length; i += 4000) {
    const r = await subgraphGql(a.url, ctx, ADD, { docs: all.slice(i, i + 4000).map((text, k) => ({ id: i + k, text })) });
    expect(r.errors).toBeUndefined();
  }
  const pool = new TestPool({ connectionString: processes.dbUrl() });
  try {
    // the last add's snapshot, with this builder's graph
    const lastTask = await until('the adds', async () => {
      const r = await pool.query(`select applied_task_id::int as t, (select count(*)::int from search.tasks where status in ('enqueued', 'processing')) as open from search.indexes where id = $1`, [indexId]);
      return r.rows[0].open === 0 ? (r.rows[0].t as number) : undefined;
    });
    const first = await until('the snapshot', async () => {
      const s = await storedSnapshot(pool, indexId);
      return s && s.taskId === lastTask ? s : undefined;
    });
    const query = { query: 'file not found', hybrid: { semanticRatio: 1 }, limit: 10 };
    const expected = (await subgraphGql(a.url, ctx, SEARCH, { i: query })).data.searchIndex;
    expect(expected.hits).toHaveLength(10);
    await stop(a.child);

    // the same snapshot, its graph marked as builder 1's (as stored before builder 2)
    const data = (await readSnapshot(pool, indexId, first)) as { vectors: { hnsw: { builder?: number } } };
    expect(data.vectors.hnsw.builder).toBe(2);
    delete data.vectors.hnsw.builder;
    await discardSnapshot(pool, indexId, first.taskId);
    await new EngineLoader(pool, engineFactory, createLogger({}, 'error')).writeSnapshot(indexId, { data, version: first.taskId, documents: all.length });
    const old = await storedGraph(pool, indexId);
    expect(old).toMatchObject({ taskId: first.taskId, builder: undefined });

    // a restart: the first search answers from the restored graph, without waiting for a rebuild
    const b = await processes.start('search-graph-b', BASE + 1701, ENV);
    const started = performance.now();
    const r = await subgraphGql(b.url, ctx, SEARCH, { i: query });
    const firstSearchMs = performance.now() - started;
    expect(r.errors).toBeUndefined();
    expect(r.data.searchIndex.estimatedTotalHits).toBe(expected.estimatedTotalHits);
    console.log(`first vector search after the restart: ${Math.round(firstSearchMs)} ms`);
    // the background rebuild takes the loaded engine's place, and its snapshot replaces the old one
    await until('the rebuild', async () => ((await metrics(b.url)).graph_rebuilds === 1 ? true : undefined));
    const rebuilt = await until('the replaced snapshot', async () => {
      const g = await storedGraph(pool, indexId);
      return g.builder === 2 ? g : undefined;
    });
    expect(rebuilt.taskId).toBe(first.taskId);
    const after = (await subgraphGql(b.url, ctx, SEARCH, { i: query })).data.searchIndex;
    expect(after.hits.map((h: { id: number }) => h.id)).toEqual(expected.hits.map((h: { id: number }) => h.id));
    await stop(b.child);

    // the next restart restores the new graph: nothing to build
    const c = await processes.start('search-graph-c', BASE + 1702, ENV);
    expect((await subgraphGql(c.url, ctx, SEARCH, { i: query })).data.searchIndex.hits.map((h: { id: number }) => h.id)).toEqual(expected.hits.map((h: { id: number }) => h.id));
    await sleep(2000);
    const m = await metrics(c.url);
    expect(m.loads_from_snapshot).toBe(1);
    expect(m.graph_rebuilds).toBe(0);
  } finally {
    await pool.end();
  }
}, 300_000);
