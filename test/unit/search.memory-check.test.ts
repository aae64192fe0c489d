// The search node's memory check (engine-registry/memory-check.ts): when RSS over the process at rest
// is over the budget, both isolates are collected and what RSS still holds beyond the engines'
// estimate is taken off the budget the registry's LRU steers by (with an eighth kept for garbage);
// and the registry unloads more engines when it is. Pure: RSS and the collection are given, real
// engines, no database.
import { createLogger } from '../../lib/logger.js';
import { engineFactory } from '../../lib/search-engine/index.js';
import type { EngineBuilder } from '../../subgraphs/search/engine-registry/engine-builder.js';
import type { EngineLoader } from '../../subgraphs/search/engine-registry/engine-loader.js';
import { EngineRegistry } from '../../subgraphs/search/engine-registry/engine-registry.js';
import { MemoryCheck } from '../../subgraphs/search/engine-registry/memory-check.js';
import { settingsKey, toEngineSettings } from '../../subgraphs/search/indexes/engine-settings.js';
import { defaultSettings } from '../../subgraphs/search/indexes/index-settings.rules.js';

/** builders of engines without a vector graph due */
const noGraphBuild = () => Promise.reject(new Error('no graph build expected'));

const MiB = 2 ** 20;
const log = createLogger({}, 'error');

/** A check watching a fixed estimate, no sampler: changed() is the only trigger; no spacing unless given. */
function watched(o: { budget: number; rss: () => number; collect: () => Promise<void>; minIntervalMs?: number; maxPauseShare?: number }, estimate: () => number) {
  const check = new MemoryCheck({ budgetBytes: o.budget, collect: o.collect, log, rss: o.rss, minIntervalMs: o.minIntervalMs ?? 0, maxPauseShare: o.maxPauseShare ?? Infinity, sampleMs: 0 });
  let enforced = 0;
  check.watch({ estimate, enforce: () => void enforced++ });
  return { check, enforced: () => enforced };
}

test('the budget the LRU steers by leaves an eighth for garbage; nothing is collected while RSS over rest is within the budget', async () => {
  let rss = 200 * MiB;
  let collections = 0;
  const { check } = watched({ budget: 64 * MiB, rss: () => rss, collect: async () => void collections++ }, () => 40 * MiB);
  check.atRest();
  expect(check.budget()).toBe(56 * MiB);
  rss = 264 * MiB; // exactly the budget over rest
  expect(await check.changed()).toBe(false);
  expect(collections).toBe(0);
});

test('over the budget: both isolates collected; what RSS still holds beyond the estimate after it is the slack, off the budget', async () => {
  let rss = 200 * MiB;
  // the collection gives the garbage back: 90 MiB over rest before, 50 after
  const { check, enforced } = watched({ budget: 64 * MiB, rss: () => rss, collect: async () => void (rss -= 40 * MiB) }, () => 40 * MiB);
  check.atRest();
  rss = 290 * MiB;
  expect(await check.changed()).toBe(true);
  expect(enforced()).toBe(1);
  // 10 MiB kept beyond the engines: 64 - 8 of headroom - 10
  expect(check.figures()).toMatchObject({ overRestBytes: 50 * MiB, slackBytes: 10 * MiB, collections: 1 });
  expect(check.budget()).toBe(46 * MiB);
});

test('the slack is at most three quarters of the budget, and the highest of the last four measurements', async () => {
  let rss = 200 * MiB;
  let after = 0;
  const { check } = watched({ budget: 64 * MiB, rss: () => rss, collect: async () => void (rss = 200 * MiB + after) }, () => 10 * MiB);
  check.atRest();
  const measure = async (overRestAfter: number) => {
    after = overRestAfter;
    rss = 300 * MiB; // over the budget before each collection
    await check.changed();
  };
  await measure(200 * MiB);
  expect(check.figures().slackBytes).toBe(48 * MiB);
  // the process gave memory back: 20 MiB kept; the slack shrinks once the higher measurements are past
  for (let i = 0; i < 3; i++) await measure(30 * MiB);
  expect(check.figures().slackBytes).toBe(48 * MiB);
  await measure(30 * MiB);
  expect(check.figures().slackBytes).toBe(20 * MiB);
  expect(check.collections).toBe(5);
});

test('collections are throttled and never overlap', async () => {
  let collections = 0;
  let release!: () => void;
  let rss = 0;
  const { check } = watched({ budget: 8 * MiB, rss: () => rss, collect: () => (collections++, new Promise<void>((r) => (release = r))), minIntervalMs: 60_000 }, () => 0);
  check.atRest();
  rss = 100 * MiB; // over the budget from now on
  const first = check.changed();
  await check.changed(); // one is running
  release();
  await first;
  await check.changed(); // within the interval
  expect(collections).toBe(1);
});

test('collections take at most a twentieth of the time: the next waits for twenty times the last pause', async () => {
  let collections = 0;
  let rss = 0;
  // this isolate's collection is synchronous: 10 ms of pause, so the next waits at least 200 ms
  const pause = () => {
    const until = performance.now() + 10;
    while (performance.now() < until);
  };
  const { check } = watched({ budget: 8 * MiB, rss: () => rss, collect: async () => void (collections++, pause()), maxPauseShare: 1 / 20 }, () => 0);
  check.atRest();
  rss = 100 * MiB; // over the budget from now on
  await check.changed();
  const paused = check.figures().pausedMs; // 10 ms, more on a busy machine
  expect(paused).toBeGreaterThanOrEqual(10);
  await new Promise((r) => setTimeout(r, paused * 10)); // half of the wait: still too early
  await check.changed();
  expect(collections).toBe(1);
  await new Promise((r) => setTimeout(r, paused * 10 + 30));
  await check.changed();
  expect(collections).toBe(2);
});

test('the sampler reads RSS between loads and unloads, and stops', async () => {
  let rss = 100 * MiB;
  let collections = 0;
  const check = new MemoryCheck({ budgetBytes: 8 * MiB, collect: async () => void (collections++, (rss = 100 * MiB)), log, rss: () => rss, minIntervalMs: 0, sampleMs: 5 });
  check.atRest();
  check.watch({ estimate: () => 0, enforce: () => undefined });
  rss = 120 * MiB; // garbage of a snapshot write, say: no load or unload follows
  await new Promise((r) => setTimeout(r, 50));
  expect(collections).toBe(1);
  check.stop();
  rss = 120 * MiB;
  await new Promise((r) => setTimeout(r, 30));
  expect(collections).toBe(1);
});

test('the registry keeps the estimate under the budget less the measured slack and the headroom', async () => {
  const settings = defaultSettings();
  const build = (n: number) => {
    const engine = engineFactory.create(toEngineSettings(settings));
    engine.addDocuments(
      Array.from({ length: 200 }, (_, k) => ({ id: k, t: `document ${n} word${k} more words of text ${k * 7}` })),
      'id',
    );
    return engine;
  };
  const size = build(0).memoryBytes();
  let rss = 100 * MiB;
  const builder: EngineBuilder = {
    mode: 'inline',
    buildGraph: noGraphBuild,
    load: async (id) => ({ engine: build(Number(id.slice(1))), version: 0, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: false }),
    stop: async () => undefined,
  };
  // 8 engines fit under 7/8 of it
  const budget = size * 9.5;
  const check = new MemoryCheck({ budgetBytes: budget, collect: async () => undefined, log, rss: () => rss, minIntervalMs: 0, sampleMs: 0 });
  const reg = new EngineRegistry({ pool: undefined as never, loader: {} as EngineLoader, builder, log, budgetBytes: budget, snapshotEveryDocs: 1e9, memoryCheck: check });
  const get = (i: number) => reg.get({ id: `i${i}`, settings, appliedTaskId: 0, purgedThroughTaskId: 0 }, true);
  for (let i = 0; i < 8; i++) await get(i);
  expect(reg.stats().loaded).toBe(8);
  // the process holds 4 engines' worth more than the estimate says
  rss = 100 * MiB + size * 12;
  for (let i = 8; i < 12; i++) await get(i);
  await new Promise((r) => setImmediate(r));
  expect(reg.limitBytes()).toBeLessThan(budget);
  expect(reg.stats().bytes).toBeLessThanOrEqual(reg.limitBytes());
  expect(reg.stats().memory).toMatchObject({ restBytes: 100 * MiB });
  expect(reg.stats().loaded).toBeLessThan(8);
});
