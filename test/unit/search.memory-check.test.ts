// The search node's memory check (engine-registry/memory-check.ts): RSS over the process at rest
// beyond the engines' estimate, when unloads make a collection due, is taken off the budget the
// registry's LRU steers by; and the registry unloads more engines when it is. Pure: RSS
// and the collection are given, real engines, no database.
import { createLogger } from '../../lib/logger.js';
import { engineFactory } from '../../lib/search-engine/index.js';
import type { EngineBuilder } from '../../subgraphs/search/engine-registry/engine-builder.js';
import type { EngineLoader } from '../../subgraphs/search/engine-registry/engine-loader.js';
import { EngineRegistry } from '../../subgraphs/search/engine-registry/engine-registry.js';
import { MemoryCheck } from '../../subgraphs/search/engine-registry/memory-check.js';
import { settingsKey, toEngineSettings } from '../../subgraphs/search/indexes/engine-settings.js';
import { defaultSettings } from '../../subgraphs/search/indexes/index-settings.rules.js';

const MiB = 2 ** 20;
const log = createLogger({}, 'error');

test('a collection is due once unloads freed an eighth of the budget; what RSS holds beyond the estimate comes off the budget', async () => {
  let rss = 200 * MiB;
  let collections = 0;
  const check = new MemoryCheck({ budgetBytes: 64 * MiB, collect: async () => void collections++, log, rss: () => rss, minIntervalMs: 0 });
  check.atRest();
  expect(check.budget()).toBe(64 * MiB);
  // engines estimated at 40 MiB, the process 70 MiB over rest: 30 MiB of slack
  rss = 270 * MiB;
  expect(await check.unloaded(4 * MiB, () => 40 * MiB)).toBe(false); // 4 of 8 MiB: not due
  expect(collections).toBe(0);
  expect(await check.unloaded(4 * MiB, () => 40 * MiB)).toBe(true);
  expect(collections).toBe(1);
  expect(check.budget()).toBe(34 * MiB);
  // never more than three quarters of the budget
  rss = 400 * MiB;
  await check.unloaded(8 * MiB, () => 40 * MiB);
  expect(check.budget()).toBe(16 * MiB);
  // the process gave memory back: the slack shrinks with it once the higher measurements are past
  // (it is the highest of the last four)
  rss = 230 * MiB;
  expect(await check.unloaded(8 * MiB, () => 30 * MiB)).toBe(false);
  expect(check.budget()).toBe(16 * MiB);
  for (let i = 0; i < 3; i++) await check.unloaded(8 * MiB, () => 30 * MiB);
  expect(check.budget()).toBe(64 * MiB);
  expect(check.figures()).toMatchObject({ restBytes: 200 * MiB, overRestBytes: 30 * MiB, slackBytes: 0, collections: 6 });
});

test('the slack is measured before the collection: what the process holds at its highest, garbage of the interval included', async () => {
  let rss = 200 * MiB;
  // the collection gives 20 MiB back; the next interval's garbage takes it again
  const check = new MemoryCheck({ budgetBytes: 64 * MiB, collect: async () => void (rss -= 20 * MiB), log, rss: () => rss, minIntervalMs: 0 });
  check.atRest();
  rss = 270 * MiB;
  expect(await check.unloaded(8 * MiB, () => 40 * MiB)).toBe(true);
  expect(check.budget()).toBe(34 * MiB);
  expect(check.figures()).toMatchObject({ overRestBytes: 50 * MiB, slackBytes: 30 * MiB });
});

test('while the budget first fills (no unload yet), loads measure the slack: it only grows there', () => {
  let rss = 200 * MiB;
  const check = new MemoryCheck({ budgetBytes: 64 * MiB, collect: async () => undefined, log, rss: () => rss, minIntervalMs: 0 });
  check.atRest();
  rss = 250 * MiB;
  expect(check.loaded(4 * MiB, 30 * MiB)).toBe(false); // 4 of 8 MiB loaded: not measured yet
  expect(check.loaded(4 * MiB, 30 * MiB)).toBe(true);
  expect(check.budget()).toBe(44 * MiB);
  rss = 210 * MiB;
  expect(check.loaded(8 * MiB, 30 * MiB)).toBe(false);
  expect(check.budget()).toBe(44 * MiB);
});

test('collections are throttled and never overlap', async () => {
  let collections = 0;
  let release!: () => void;
  const check = new MemoryCheck({ budgetBytes: 8 * MiB, collect: () => (collections++, new Promise<void>((r) => (release = r))), log, rss: () => 0, minIntervalMs: 60_000 });
  check.atRest();
  const first = check.unloaded(8 * MiB, () => 0);
  await check.unloaded(8 * MiB, () => 0); // one is running
  release();
  await first;
  await check.unloaded(8 * MiB, () => 0); // within the interval
  expect(collections).toBe(1);
});

test('the registry keeps the estimate under the budget less the measured slack', async () => {
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
    load: async (id) => ({ engine: build(Number(id.slice(1))), version: 0, settings, settingsKey: settingsKey(settings), changedSinceSnapshot: 0, fromSnapshot: false }),
    stop: async () => undefined,
  };
  const budget = size * 8.5;
  const check = new MemoryCheck({ budgetBytes: budget, collect: async () => undefined, log, rss: () => rss, minIntervalMs: 0 });
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
