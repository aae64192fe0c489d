// The engine registry's deferred batches (applyLater): applied in commit order, before anything
// reads or changes the engine, after the worker's next batch has been sent, or on their own after a
// short wait; compaction in place (and that the snapshot before it is not held meanwhile); the load
// queue; the served-alone rule. Pure: a real engine, a builder that hands it over, no database.
import { fullGc } from '../../lib/full-gc.js';
import { createLogger } from '../../lib/logger.js';
import { engineFactory } from '../../lib/search-engine/index.js';
import type { SegmentedEngine } from '../../lib/search-engine/engine.js';
import type { Engine } from '../../lib/search-engine/types.js';
import type { GraphInput, HnswSnapshot, ReadyGraph } from '../../lib/search-engine/index.js';
import type { EngineBuilder } from '../../subgraphs/search/engine-registry/engine-builder.js';
import type { EngineLoader } from '../../subgraphs/search/engine-registry/engine-loader.js';
import { EngineRegistry } from '../../subgraphs/search/engine-registry/engine-registry.js';
import { settingsKey, toEngineSettings } from '../../subgraphs/search/indexes/engine-settings.js';
import { defaultSettings } from '../../subgraphs/search/indexes/index-settings.rules.js';

/** builders of engines without a vector graph due */
const noGraphBuild = () => Promise.reject(new Error('no graph build expected'));

const settings = defaultSettings();
const index = (appliedTaskId: number) => ({ id: 'idx_1', settings, appliedTaskId, purgedThroughTaskId: 0 });

function registry(): { reg: EngineRegistry; engine: Engine } {
  const engine = engineFactory.create(toEngineSettings(settings));
  const builder: EngineBuilder = {
    mode: 'inline',
    buildGraph: noGraphBuild,
    load: async () => ({ engine, version: 1, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: false }),
    stop: async () => undefined,
  };
  // a catch-up from PostgreSQL would mean a pending batch was skipped
  const loader = { catchUp: () => Promise.reject(new Error('no catch-up expected')) } as unknown as EngineLoader;
  const reg = new EngineRegistry({ pool: undefined as never, loader, builder, log: createLogger({}, 'error'), budgetBytes: 1e12, snapshotEveryDocs: 1e9 });
  return { reg, engine };
}

const batch = (from: number) => (e: Engine) => e.addDocuments([{ id: from, t: `doc ${from}` }, { id: from + 1, t: `doc ${from + 1}` }], 'id');
const total = (e: Engine) => e.search({ query: '', limit: 0 }).estimatedTotalHits;

test('batches wait until flushed, then apply in commit order', async () => {
  const { reg, engine } = registry();
  await reg.get(index(1));
  const a = reg.applyLater('idx_1', 1, 2, batch(0));
  const b = reg.applyLater('idx_1', 2, 3, batch(10));
  expect(total(engine)).toBe(0);
  await reg.flushPending('idx_1');
  await Promise.all([a, b]);
  expect(total(engine)).toBe(4);
  expect(reg.loaded('idx_1')?.version).toBe(3);
});

test('a search of an index whose row shows a pending batch gets the engine with it', async () => {
  const { reg } = registry();
  await reg.get(index(1));
  void reg.applyLater('idx_1', 1, 2, batch(0));
  const e = await reg.get(index(2));
  expect(total(e)).toBe(2);
  expect(reg.loaded('idx_1')?.version).toBe(2);
});

test('an immediate apply runs after the pending ones', async () => {
  const { reg, engine } = registry();
  await reg.get(index(1));
  void reg.applyLater('idx_1', 1, 2, batch(0));
  await reg.applyCommitted('idx_1', 2, 3, (e) => e.deleteDocuments(['0']));
  expect(total(engine)).toBe(1);
  expect(reg.loaded('idx_1')?.version).toBe(3);
});

test('a pending batch applies on its own when nothing flushes it', async () => {
  const { reg, engine } = registry();
  await reg.get(index(1));
  await reg.applyLater('idx_1', 1, 2, batch(0));
  expect(total(engine)).toBe(2);
});

test('a dropped engine takes no pending batch', async () => {
  const { reg, engine } = registry();
  await reg.get(index(1));
  const a = reg.applyLater('idx_1', 1, 2, batch(0));
  reg.drop('idx_1');
  await a;
  expect(total(engine)).toBe(0);
  expect(reg.loaded('idx_1')).toBeUndefined();
});

test('a snapshot is written from the loaded engine; one with 8+ new segments then has them merged in place', async () => {
  const live = engineFactory.create(toEngineSettings(settings));
  let loads = 0;
  const builder: EngineBuilder = {
    mode: 'inline',
    buildGraph: noGraphBuild,
    load: async () => {
      loads++;
      return { engine: live, version: 1, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: true };
    },
    stop: async () => undefined,
  };
  const written: { version: number; documents: number }[] = [];
  const loader = {
    writeSnapshot: async (_id: string, c: { version: number; documents: number; data: unknown }) => {
      written.push({ version: c.version, documents: c.documents });
      return { version: c.version, documents: c.documents, bytes: 1, chunks: 1, ms: 1 };
    },
  } as unknown as EngineLoader;
  const reg = new EngineRegistry({ pool: undefined as never, loader, builder, log: createLogger({}, 'error'), budgetBytes: 1e12, snapshotEveryDocs: 5 });
  await reg.get(index(1));
  // 9 batches of 5,000 documents: level-2 segments, which addDocuments never merges itself
  for (let b = 0; b < 9; b++) live.addDocuments(Array.from({ length: 5000 }, (_, i) => ({ id: b * 5000 + i, t: 'w' })), 'id');
  expect(live.segmentCount).toBeGreaterThanOrEqual(8);
  // searches run between the merge steps: the engine answers all along
  let searches = 0;
  const searching = (async () => {
    while (live.segmentCount > 6) {
      expect(total(live)).toBe(45_000);
      searches++;
      await new Promise((r) => setImmediate(r));
    }
  })();
  expect(await reg.snapshot('idx_1')).toBe(true);
  await searching;
  expect(written).toEqual([{ version: 1, documents: 45_000 }]);
  // the same engine, merged where it is (no second engine was loaded), and its own snapshot is due
  expect(loads).toBe(1);
  expect(reg.loaded('idx_1')?.engine).toBe(live);
  expect(live.segmentCount).toBeLessThanOrEqual(6);
  expect(searches).toBeGreaterThan(1);
  expect(total(live)).toBe(45_000);
  expect(reg.snapshotCandidates(5)).toEqual(['idx_1']);
});

test("a merge's inputs are garbage once it is in place: held neither by the snapshot taken before the compaction nor by the merge", async () => {
  const live = engineFactory.create(toEngineSettings(settings)) as Engine & SegmentedEngine;
  const builder: EngineBuilder = {
    mode: 'inline',
    buildGraph: noGraphBuild,
    load: async () => ({ engine: live, version: 1, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: true }),
    stop: async () => undefined,
  };
  const loader = { writeSnapshot: async (_id: string, c: { version: number; documents: number }) => ({ version: c.version, documents: c.documents, bytes: 1, chunks: 1, ms: 1 }) } as unknown as EngineLoader;
  const reg = new EngineRegistry({ pool: undefined as never, loader, builder, log: createLogger({}, 'error'), budgetBytes: 1e12, snapshotEveryDocs: 5 });
  await reg.get(index(1));
  // 20 words a document: a merge of four segments takes several steps
  const text = (i: number) => Array.from({ length: 20 }, (_, k) => `w${(i * 7 + k) % 997}`).join(' ');
  for (let b = 0; b < 9; b++) live.addDocuments(Array.from({ length: 5000 }, (_, i) => ({ id: b * 5000 + i, t: text(i) })), 'id');
  // postings of the segments the first merge takes (a snapshot references a segment's arrays): once
  // the merged segment is in place, nothing may keep them through the rest of the compaction
  const first = live.segments.slice(0, 4).map((s) => new WeakRef(s.positions));
  const count = live.segmentCount;
  const turn = () => new Promise((r) => setImmediate(r));
  let held: boolean | undefined;
  let segmentsThen = 0;
  const watching = (async () => {
    while (live.segmentCount === count) await turn();
    fullGc();
    await turn();
    held = first.some((w) => w.deref() !== undefined);
    segmentsThen = live.segmentCount;
  })();
  expect(await reg.snapshot('idx_1')).toBe(true);
  await watching;
  expect(held).toBe(false);
  // it was looked at while the compaction was still merging
  expect(live.segmentCount).toBeLessThan(segmentsThen);
});

describe('engine loads', () => {
  /** a builder whose loads finish when the test says, in any order */
  function gated(concurrentLoads: number) {
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const builder: EngineBuilder = {
      mode: 'inline',
      buildGraph: noGraphBuild,
      load: (id) => {
        started.push(id);
        return new Promise((resolve) =>
          finish.set(id, () => resolve({ engine: engineFactory.create(toEngineSettings(settings)), version: 1, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: false })),
        );
      },
      stop: async () => undefined,
    };
    const loader = { catchUp: () => Promise.reject(new Error('no catch-up expected')) } as unknown as EngineLoader;
    const reg = new EngineRegistry({ pool: undefined as never, loader, builder, log: createLogger({}, 'error'), budgetBytes: 1e12, snapshotEveryDocs: 1e9, loadWaitMs: 30, concurrentLoads });
    const at = (id: string) => ({ id, settings, appliedTaskId: 1, purgedThroughTaskId: 0 });
    const done = async (id: string) => {
      finish.get(id)!();
      await new Promise((r) => setImmediate(r));
    };
    return { reg, at, started, done };
  }
  const settle = () => new Promise((r) => setImmediate(r));

  test('run at most concurrentLoads at once; the queue goes by demand, then searches before warming, then age', async () => {
    const { reg, at, started, done } = gated(2);
    const got = ['a', 'b', 'warm', 'c', 'd'].map((id) => reg.get(at(id), true, id === 'warm' ? 'background' : 'demand'));
    const more = [reg.get(at('d'), true), reg.get(at('d'), true), reg.get(at('c'), true)];
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(reg.stats().queue).toMatchObject({ running: 2, queued: 3 });
    await done('a');
    expect(started).toEqual(['a', 'b', 'd']); // three callers wait for d, two for c
    await done('b');
    expect(started.at(-1)).toBe('c');
    await done('d');
    expect(started.at(-1)).toBe('warm'); // background work last
    await done('c');
    await done('warm');
    await Promise.all([...got, ...more]);
    expect(reg.loadedIds().sort()).toEqual(['a', 'b', 'c', 'd', 'warm']);
    expect(reg.stats().loads).toBe(5);
  });

  test('a search whose load waits in the queue past loadWaitMs answers 503 with Retry-After; the load goes on', async () => {
    const { reg, at, started, done } = gated(1);
    const first = reg.get(at('a'), true);
    const err = await reg.get(at('b')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', opts: { meta: { retryAfterMs: 2000 } } });
    expect(started).toEqual(['a']);
    await done('a');
    await first;
    expect(started).toEqual(['a', 'b']);
    await done('b');
    expect(reg.loaded('b')).toBeDefined();
    await expect(reg.get(at('b'))).resolves.toBeDefined();
  });
});

describe('an engine larger than the memory budget', () => {
  const filled = (n: number) => {
    const e = engineFactory.create(toEngineSettings(settings));
    e.addDocuments(Array.from({ length: n }, (_, i) => ({ id: i, t: `document number ${i} of the test` })), 'id');
    return e;
  };
  function budgeted(oversizedIdleMs?: number) {
    const engines: Record<string, Engine> = { big: filled(3000), a: filled(5), b: filled(5) };
    const builder: EngineBuilder = {
      mode: 'inline',
      buildGraph: noGraphBuild,
      load: async (id) => ({ engine: engines[id], version: 1, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: false }),
      stop: async () => undefined,
    };
    const loader = { catchUp: () => Promise.reject(new Error('no catch-up expected')) } as unknown as EngineLoader;
    const budgetBytes = engines.big.memoryBytes() - 1;
    const reg = new EngineRegistry({ pool: undefined as never, loader, builder, log: createLogger({}, 'error'), budgetBytes, snapshotEveryDocs: 1e9, oversizedIdleMs });
    const at = (id: string) => ({ id, settings, appliedTaskId: 1, purgedThroughTaskId: 0 });
    return { reg, at };
  }

  test('is served alone: it stays loaded, the other engines are unloaded around it but the one in hand', async () => {
    const { reg, at } = budgeted();
    await reg.get(at('big'));
    await reg.get(at('a'));
    expect(reg.loaded('big')).toBeDefined();
    expect(reg.loaded('a')).toBeDefined();
    await reg.get(at('b'));
    expect(reg.loaded('big')).toBeDefined();
    expect(reg.loaded('a')).toBeUndefined();
    expect(reg.loaded('b')).toBeDefined();
    expect(reg.stats().unloads).toBe(1);
  });

  test('once idle past oversizedIdleMs it is unloaded like any other', async () => {
    const { reg, at } = budgeted(0);
    await reg.get(at('big'));
    await reg.get(at('a'));
    expect(reg.loaded('big')).toBeUndefined();
    expect(reg.loaded('a')).toBeDefined();
  });
});

/**
 * An engine whose vector graph is due (graphDue) until a graph is placed in it, and a builder whose graph
 * builds finish when the test says. `missing()`: how many vectors added meanwhile a built graph lacks
 * (placing it is refused above the registry's bound).
 */
function withDueGraph(missing: () => number = () => 0, opts: { due?: boolean; snapshotEveryDocs?: number } = {}) {
  const builds: (() => void)[] = [];
  const placed: HnswSnapshot[] = [];
  /** the engines a graph was placed in, in order */
  const placedIn: Engine[] = [];
  let loads = 0;
  let readying = 0;
  const state = { due: opts.due ?? true, holdReady: false };
  const built: HnswSnapshot = { m: 16, efConstruction: 100, entry: -1, maxLevel: -1, nodes: new Int32Array(0), links: new Int32Array(0) };
  // each load builds an engine of its own; `state.due` says whether a graph is due until one is placed in it
  const dueEngine = (): Engine => {
    let own: boolean | undefined;
    const engine: Engine = Object.assign(engineFactory.create(toEngineSettings(settings)), {
      graphDue: () => own ?? state.due,
      *graphInputSteps(): Generator<void, GraphInput> {
        yield;
        return { dims: 1, ids: new Int32Array(0), rows: new Float32Array(0) };
      },
      // made ready in steps until the test lets it end (state.holdReady)
      *readyGraphSteps(graph: HnswSnapshot): Generator<void, ReadyGraph | false> {
        readying++;
        do yield;
        while (state.holdReady);
        readying--;
        return { graph: graph as never, of: engine, inserted: 0 };
      },
      *placeGraphSteps(ready: ReadyGraph, maxInserts: number): Generator<void, number | false> {
        yield;
        const n = missing();
        if (n > maxInserts) return false;
        own = false;
        placed.push(ready.graph as never);
        placedIn.push(engine);
        return n;
      },
    });
    return engine;
  };
  const builder: EngineBuilder = {
    mode: 'inline',
    load: async () => {
      loads++;
      return { engine: dueEngine(), version: 1, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: true };
    },
    buildGraph: () => new Promise((resolve) => builds.push(() => resolve(built))),
    stop: async () => undefined,
  };
  const loader = {
    writeSnapshot: async (_id: string, c: { version: number; documents: number }) => ({ version: c.version, documents: c.documents, bytes: 1, chunks: 1, ms: 1 }),
    catchUp: () => Promise.reject(new Error('no catch-up expected')),
  } as unknown as EngineLoader;
  const reg = new EngineRegistry({ pool: undefined as never, loader, builder, log: createLogger({}, 'error'), budgetBytes: 1e12, snapshotEveryDocs: opts.snapshotEveryDocs ?? 1000 });
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  };
  const finish = async () => {
    await settle();
    builds.shift()!();
    await settle();
  };
  return { reg, state, builds, placed, placedIn, built, loads: () => loads, readying: () => readying, settle, finish };
}

describe('a vector graph due again (an older builder, many dead nodes)', () => {
  test('a search gets the loaded engine at once; the graph is built in the background from its vectors and placed in it, with what was added meanwhile', async () => {
    const g = withDueGraph();
    const first = await g.reg.get(index(1));
    expect(first.graphDue()).toBe(true);
    expect(g.reg.snapshotCandidates(1000)).toEqual([]);
    await g.settle();
    expect(g.builds).toHaveLength(1);
    // the loaded engine answers and takes batches while the graph builds
    await g.reg.applyCommitted('idx_1', 1, 2, batch(0));
    expect(total(await g.reg.get(index(2)))).toBe(2);
    await g.finish();
    expect(g.placed).toEqual([g.built]);
    // the same engine, with its new graph: no second engine was loaded
    expect(g.reg.loaded('idx_1')!.engine).toBe(first);
    expect(g.loads()).toBe(1);
    expect(first.graphDue()).toBe(false);
    expect(total(first)).toBe(2);
    expect(g.reg.stats().graphRebuilds).toBe(1);
    // the rebuilt graph is due a snapshot
    expect(g.reg.snapshotCandidates(1000)).toEqual(['idx_1']);
  });

  test('the graph is made ready without the engine\'s lock: a batch applied meanwhile does not wait for it', async () => {
    const g = withDueGraph();
    const first = await g.reg.get(index(1));
    g.state.holdReady = true;
    await g.finish();
    expect(g.readying()).toBe(1);
    // the batch takes the engine's lock and is applied while the graph is still being made ready
    await g.reg.applyCommitted('idx_1', 1, 2, batch(0));
    expect(total(first)).toBe(2);
    expect(g.readying()).toBe(1);
    expect(g.placed).toHaveLength(0);
    g.state.holdReady = false;
    await g.settle();
    expect(g.placed).toEqual([g.built]);
    expect(g.reg.stats().graphRebuilds).toBe(1);
  });

  test('a graph that lacks too many vectors added meanwhile is built again, at most three times; the loaded graph keeps answering', async () => {
    const g = withDueGraph(() => 1e9);
    const first = await g.reg.get(index(1));
    for (let i = 0; i < 3; i++) await g.finish();
    await g.settle();
    expect(g.builds).toHaveLength(0);
    expect(g.placed).toHaveLength(0);
    expect(g.reg.loaded('idx_1')!.engine).toBe(first);
    expect(first.graphDue()).toBe(true);
    expect(g.reg.stats().graphRebuilds).toBe(0);
  });

  test('an engine replaced while its graph builds (a settings change that re-indexes) gets a graph of its own; the old build is not placed', async () => {
    const g = withDueGraph();
    const first = await g.reg.get(index(1));
    await g.settle();
    expect(g.builds).toHaveLength(1);
    await g.reg.applySettings('idx_1', 1, 2, { ...settings, searchable_attributes: ['t'] });
    const second = g.reg.loaded('idx_1')!.engine;
    expect(second).not.toBe(first);
    await g.finish();
    expect(g.placedIn).toEqual([]);
    expect(g.builds).toHaveLength(1);
    await g.finish();
    expect(g.placedIn).toEqual([second]);
    expect(g.reg.stats().graphRebuilds).toBe(1);
  });

  test('a dropped index takes no graph', async () => {
    const g = withDueGraph();
    await g.reg.get(index(1));
    await g.settle();
    g.reg.drop('idx_1');
    await g.finish();
    expect(g.placed).toHaveLength(0);
    expect(g.reg.loaded('idx_1')).toBeUndefined();
    expect(g.reg.stats().graphRebuilds).toBe(0);
  });
});

test('an engine that stays loaded gets its graph rebuilt once it is due (many documents replaced or deleted), after a snapshot', async () => {
  const g = withDueGraph(() => 0, { due: false, snapshotEveryDocs: 5 });
  await g.reg.get(index(1));
  await g.reg.snapshot('idx_1');
  await g.settle();
  expect(g.builds).toHaveLength(0);
  g.state.due = true;
  await g.reg.snapshot('idx_1');
  await g.finish();
  expect(g.placed).toEqual([g.built]);
  expect(g.loads()).toBe(1);
  expect(g.reg.stats().graphRebuilds).toBe(1);
});
