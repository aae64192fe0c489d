// Engine snapshots as binary chunks in PostgreSQL (engine-registry/snapshot-store.ts), with real
// processes on their own database: a snapshot written in many small chunks restores across them; a
// chunk damaged on disk is detected by its checksum, the engine is rebuilt from the rows with the
// same answers, the damage is logged once (the snapshot is discarded, not read again), and the next
// snapshot replaces it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, stop } from '../harness/spawn.js';
import { TestPool } from '../harness/test-pool.js';
import { readSections, storedSnapshot, writeChunks } from '../../subgraphs/search/engine-registry/snapshot-store.js';
import { keyContext, searchProcesses, sleep, subgraphGql, withDb } from './search.helpers.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const processes = searchProcesses('sgsnap');
const dbUrl = processes.dbUrl;
// snapshots after 100 changes, in chunks of 8 KiB: this index's stream spans dozens of them
const ENV = { SEARCH_SNAPSHOT_EVERY_DOCS: '100', SEARCH_SNAPSHOT_CHUNK_KB: '8', LOG_LEVEL: 'info' };

const CREATE = `mutation { createIndex(input: { uid: "chunks", primaryKey: "id", settings: { filterable_attributes: ["colour"] } }) { id } }`;
const ADD = `mutation($docs: [JSON]) { addIndexDocuments(indexUid: "chunks", documents: $docs) { id } }`;
const SEARCH = `query($q: String!, $f: JSON) { searchIndex(indexUid: "chunks", input: { query: $q, filter: $f, facets: ["colour"], limit: 5 }) { estimatedTotalHits facetDistribution hits } }`;

const docs = Array.from({ length: 1500 }, (_, i) => ({
  id: `d${i}`,
  title: `chunked item number ${i} ${['lamp', 'chair', 'table'][i % 3]}`,
  colour: ['red', 'green', 'blue', 'black'][i % 4],
  text: `code${i}x `.repeat(8),
}));

const ctx = keyContext({ plan: 'enterprise' });
const answers = async (url: string) => {
  const out = [];
  for (const [q, f] of [['lamp', null], ['chair', 'colour = red'], ['', 'colour IN [blue, black]'], ['code77x', null]] as const) {
    const r = await subgraphGql(url, ctx, SEARCH, { q, f });
    expect(r.errors).toBeUndefined();
    out.push(r.data.searchIndex);
  }
  return out;
};
/** what a rebuild from rows keeps (ties may rank in another order: rows are read by id) */
const counts = (a: { estimatedTotalHits: number; facetDistribution: unknown }[]) =>
  a.map((r) => ({ total: r.estimatedTotalHits, facets: r.facetDistribution }));
const logOf = (name: string) => readFileSync(resolve(ROOT, '.data', 'test-logs', `${name}-${BASE}.log`), 'utf8');
const snapshotRow = (indexId: string) =>
  withDb(dbUrl(), async (c) => (await c.query('select task_id, chunks, format from search.index_snapshots where index_id = $1', [indexId])).rows[0] as { task_id: string; chunks: number; format: number } | undefined);

async function waitForSnapshot(indexId: string, newerThan = 0, tries = 300): Promise<{ task_id: string; chunks: number }> {
  for (let i = 0; i < tries; i++) {
    const row = await snapshotRow(indexId);
    if (row && Number(row.task_id) > newerThan) return row;
    await sleep(100);
  }
  throw new Error('no snapshot written');
}

beforeAll(() => processes.setUp(), 30_000);
// A test that fails leaves no process behind to take the next test's tasks.
afterEach(() => processes.stopAll(), 60_000);
afterAll(() => processes.tearDown(), 120_000);

test('a snapshot in many chunks restores; a damaged chunk means a rebuild from rows, logged once, then a new snapshot', async () => {
  const a = await processes.start('search-snap-a', BASE + 1440, ENV);
  const indexId = (await subgraphGql(a.url, ctx, CREATE)).data.createIndex.id;
  await subgraphGql(a.url, ctx, SEARCH, { q: 'x', f: null }); // loads the engine, so batches reach it
  for (let i = 0; i < docs.length; i += 500) expect((await subgraphGql(a.url, ctx, ADD, { docs: docs.slice(i, i + 500) })).errors).toBeUndefined();
  const first = await waitForSnapshot(indexId);
  const expected = await answers(a.url);
  expect(expected[0].estimatedTotalHits).toBe(500);
  await stop(a.child);

  // every chunk is stored, bounded, and carries its checksum
  const chunks = await withDb(dbUrl(), async (c) => (await c.query('select seq, length(data) as n from search.index_snapshot_chunks where index_id = $1 and task_id = $2 order by seq', [indexId, first.task_id])).rows);
  expect(first.chunks).toBeGreaterThan(10);
  expect(chunks.map((r) => r.seq)).toEqual(Array.from({ length: first.chunks }, (_, i) => i));

  // writing the same task again (an engine unloaded while its snapshot was being written) leaves the
  // snapshot in force and its chunks alone
  const pool = new TestPool({ connectionString: dbUrl() });
  const again = await writeChunks(pool, { indexId, taskId: Number(first.task_id), documents: 1, pieces: [Buffer.from('other')], chunkBytes: 8192 });
  await pool.end();
  expect(again.written).toBe(false);
  const after = await withDb(dbUrl(), async (c) => (await c.query('select count(*)::int as n from search.index_snapshot_chunks where index_id = $1', [indexId])).rows[0].n);
  expect(after).toBe(first.chunks);

  // B restores from the chunks: the same answers
  const b = await processes.start('search-snap-b', BASE + 1441, ENV);
  expect(await answers(b.url)).toEqual(expected);
  await stop(b.child);
  expect(logOf('search-snap-b')).toMatch(/"msg":"engine loaded".*"fromSnapshot":true/);

  // one byte of a middle chunk flipped on disk
  await withDb(dbUrl(), (c) =>
    c.query('update search.index_snapshot_chunks set data = set_byte(data, 20, get_byte(data, 20) # 255) where index_id = $1 and task_id = $2 and seq = $3', [
      indexId,
      first.task_id,
      Math.floor(first.chunks / 2),
    ]),
  );
  const c = await processes.start('search-snap-c', BASE + 1442, ENV);
  const rebuilt = await answers(c.url);
  expect(counts(rebuilt)).toEqual(counts(expected));
  expect(await answers(c.url)).toEqual(rebuilt);
  // the engine was rebuilt from rows; the damage was reported once and the snapshot discarded
  let log = logOf('search-snap-c');
  expect(log).toMatch(/"msg":"engine loaded".*"fromSnapshot":false/);
  expect(log.match(/engine snapshot unusable/g)).toHaveLength(1);
  expect(log).toMatch(/fails its checksum/);
  // the process writes a new snapshot of the engine it rebuilt, and stays up
  const second = await waitForSnapshot(indexId, -1);
  expect(Number(second.task_id)).toBe(Number(first.task_id));
  expect(await answers(c.url)).toEqual(rebuilt);
  expect(c.child.exitCode).toBeNull();
  await stop(c.child);
  log = logOf('search-snap-c');
  expect(log.match(/engine snapshot unusable/g)).toHaveLength(1);
  expect(log).toMatch(/"msg":"engine snapshot written"/);

  // and D restores from that one
  const d = await processes.start('search-snap-d', BASE + 1443, ENV);
  expect(await answers(d.url)).toEqual(rebuilt);
  await stop(d.child);
  expect(logOf('search-snap-d')).toMatch(/"msg":"engine loaded".*"fromSnapshot":true/);
}, 360_000);

test('a search waits a bounded time for its engine to load, then answers 503 with a retry delay; the load goes on', async () => {
  const e = await processes.start('search-snap-e', BASE + 1444, { ...ENV, SEARCH_ENGINE_LOAD_WAIT_MS: '1' });
  const r = await subgraphGql(e.url, ctx, SEARCH, { q: 'lamp', f: null });
  expect(r.data?.searchIndex ?? null).toBeNull();
  expect(r.errors![0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, meta: { retryAfterMs: 2000 } });
  expect(r.errors![0].message).toMatch(/loading; retry in 2 s/);
  // the load was not abandoned: the engine arrives and later searches answer
  let answered;
  for (let i = 0; i < 100 && !answered; i++) {
    const again = await subgraphGql(e.url, ctx, SEARCH, { q: 'lamp', f: null });
    if (!again.errors) answered = again.data.searchIndex;
    else await sleep(100);
  }
  expect(answered?.estimatedTotalHits).toBe(500);
  await stop(e.child);
}, 120_000);

test('snapshots are incremental: a segment the snapshot in force holds is not written again, and what no snapshot points at is removed', async () => {
  const uid = 'incr';
  const add = `mutation($docs: [JSON]) { addIndexDocuments(indexUid: "${uid}", documents: $docs) { id } }`;
  const search = `query { searchIndex(indexUid: "${uid}", input: { query: "chunked", limit: 0 }) { estimatedTotalHits } }`;
  const a = await processes.start('search-snap-incr-a', BASE + 1500, ENV);
  const indexId = (await subgraphGql(a.url, ctx, `mutation { createIndex(input: { uid: "${uid}", primaryKey: "id" }) { id } }`)).data.createIndex.id;
  await subgraphGql(a.url, ctx, search); // loads the engine, so batches reach it
  // one batch of 1,500: one segment
  expect((await subgraphGql(a.url, ctx, add, { docs })).errors).toBeUndefined();
  const first = await waitForSnapshot(indexId, 0, 1200);
  // 200 more: a second segment; the first one's chunks are reused by the next snapshot
  const more = docs.slice(0, 200).map((d) => ({ ...d, id: `m${d.id}` }));
  expect((await subgraphGql(a.url, ctx, add, { docs: more })).errors).toBeUndefined();
  const second = await waitForSnapshot(indexId, Number(first.task_id), 1200);
  await stop(a.child);
  expect(logOf('search-snap-incr-a')).toMatch(/"msg":"engine snapshot written".*"reusedSegments":1,"segments":2/);
  const rows = await withDb(dbUrl(), async (c) => (await c.query('select task_id from search.index_snapshot_chunks where index_id = $1', [indexId])).rows as { task_id: string }[]);
  // every stored chunk is one the snapshot in force reads (its own and the first one's segment chunks)
  expect(rows).toHaveLength(second.chunks);
  expect(rows.filter((r) => r.task_id === first.task_id).length).toBeGreaterThan(0);
  expect(rows.filter((r) => r.task_id === second.task_id).length).toBeLessThan(second.chunks);
  // another process restores from it: every document PostgreSQL holds
  const b = await processes.start('search-snap-incr-b', BASE + 1501, ENV);
  const r = await subgraphGql(b.url, ctx, search);
  await stop(b.child);
  expect(r.data.searchIndex.estimatedTotalHits).toBe(1700);
  expect(logOf('search-snap-incr-b')).toMatch(/"msg":"engine loaded".*"fromSnapshot":true/);
}, 300_000);

test('a compacted layout replaces the snapshot at the same task (a restart loads it, no merge again); the same layout is not written twice', async () => {
  const a = await processes.start('search-snap-repl', BASE + 1502, ENV);
  const indexId = (await subgraphGql(a.url, ctx, `mutation { createIndex(input: { uid: "repl", primaryKey: "id" }) { id } }`)).data.createIndex.id;
  await stop(a.child);
  const pool = new TestPool({ connectionString: dbUrl() });
  try {
    const bytes = (text: string) => [Buffer.from(text.repeat(3000))];
    const write = (base: string, keys: string[]) =>
      writeChunks(pool, { indexId, taskId: 7, documents: 3, pieces: bytes(base), segments: keys.map((key) => ({ key, pieces: bytes(`segment ${key} `) })), chunkBytes: 8192 });
    expect((await write('three segments ', ['s1', 's2', 's3'])).written).toBe(true);
    const before = (await storedSnapshot(pool, indexId))!;
    // s1 and s2 merged into m: the same task, fewer segments, s3 reused
    const replaced = await write('compacted ', ['m', 's3']);
    expect(replaced).toMatchObject({ written: true, reused: 1 });
    const now = (await storedSnapshot(pool, indexId))!;
    expect(now.taskId).toBe(7);
    expect(now.createdAt).not.toBe(before.createdAt);
    const read: Record<string, string> = {};
    for await (const section of readSections(pool, indexId, now)) {
      const parts: Buffer[] = [];
      for await (const chunk of section.chunks) parts.push(chunk);
      read[section.key ?? 'base'] = Buffer.concat(parts).toString('utf8');
    }
    // the segments first, the base last (its external ids decoded once the large arrays are in)
    expect(Object.keys(read)).toEqual(['m', 's3', 'base']);
    expect(read.base).toBe('compacted '.repeat(3000));
    expect(read.s3).toBe('segment s3 '.repeat(3000));
    // only the chunks the snapshot in force reads are left (s1's, s2's and the old base's are gone)
    const stored = await withDb(dbUrl(), async (c) => (await c.query('select count(*)::int as n from search.index_snapshot_chunks where index_id = $1', [indexId])).rows[0].n);
    expect(stored).toBe(now.chunks);
    // the same layout again, or a layout with no fewer segments: nothing written
    expect((await write('again ', ['m', 's3'])).written).toBe(false);
    expect((await write('other ', ['x', 'y', 'z'])).written).toBe(false);
    expect((await storedSnapshot(pool, indexId))!.createdAt).toBe(now.createdAt);
  } finally {
    await pool.end();
  }
}, 60_000);
