// The in-memory engines of this process, one per index, as DERIVED data: PostgreSQL holds the
// documents and settings; an engine is built (engine-builder.ts: in the engine thread) from the
// latest snapshot plus the rows written after it, and catches up whenever the index row says a newer
// task has committed (another process's worker, or a restart). Every engine carries the version
// (task id) it reflects; all mutations of one engine run under its own lock.
//
// Memory budget: each engine's size is estimated (lib/search-engine/memory.ts); while the loaded
// engines together exceed `budgetBytes`, the least recently used ones are unloaded (never one in use).
// The next search of an unloaded index builds it again; concurrent searches share that one build.
// An engine larger than the whole budget is SERVED ALONE: it stays loaded while it was used within
// `oversizedIdleMs` (reloading it would take seconds), and every other engine is unloaded around it
// but the one just used (a small index is loaded for its searches, then makes room again).
// A deleted index's engine is dropped by every process: the deletion's NOTIFY (engine-drops.ts),
// and a periodic check of the loaded ids for notifications missed while disconnected.
//
// A worker's document batch may be applied later (applyLater): it waits, in commit order, until
// the worker's next batch has sent its rows to PostgreSQL (flushPending), so this event loop indexes
// while PostgreSQL writes, or until LATER_MS pass. Anything that reads or changes the engine of that
// index (get, another apply, a snapshot, a drop) applies what is pending first, so no search sees
// the engine without a task whose commit its index row shows.
import type pg from 'pg';
import { DomainError } from '../../../lib/errors.js';
import type { Logger } from '../../../lib/logger.js';
import type { Engine } from '../../../lib/search-engine/types.js';
import type { IndexSettingsData } from '../indexes/index-settings.rules.js';
import { rows as query } from '../db.js';
import { T } from '../sql.js';
import type { EngineBuilder } from './engine-builder.js';
import type { CapturedSnapshot, EngineLoader, LoadedEngine } from './engine-loader.js';
import { KEEP_ARRAYS } from '../../../lib/search-engine/snapshot-binary.js';
import { rebuildNeeded, settingsKey, toEngineSettings } from '../indexes/engine-settings.js';
import { LoadQueue, type LoadPriority, type LoadQueueStats } from './load-queue.js';
import type { MemoryCheck } from './memory-check.js';
import { nextTurn, runStepsByTurn } from '../../../lib/generator-steps.js';

/** What the registry needs to know about an index (a row read by the caller). */
export interface IndexState {
  id: string;
  settings: IndexSettingsData;
  appliedTaskId: number;
  purgedThroughTaskId: number;
}

interface Holder extends LoadedEngine {
  lock: Promise<unknown>;
  /** operations holding or waiting for the lock (an engine in use is never unloaded) */
  busy: number;
  /** estimated bytes (engine/memory.ts) */
  bytes: number;
  /** segments when the engine was last built (built engines are compacted) */
  builtSegments: number;
  /** performance.now() of its last get() */
  usedAt: number;
  /** compactInPlace is running on it */
  compacting?: boolean;
  /** rebuildGraph attempts since its engine was last loaded or rebuilt (at most GRAPH_REBUILD_ATTEMPTS; one at a time) */
  graphRebuilds?: number;
  rebuildingGraph?: boolean;
  /** its graph was built again in the background: the next snapshot replaces one at the same task */
  replaceSnapshot?: boolean;
}

export interface EngineRegistryOptions {
  pool: pg.Pool;
  /** catch-ups on this event loop (small ones only: heavy ones become loads) */
  loader: EngineLoader;
  builder: EngineBuilder;
  log: Logger;
  /** the loaded engines' estimated bytes are kept under this (least recently used unloaded first) */
  budgetBytes: number;
  /** an unloaded engine with this many changes since its snapshot gets a snapshot first */
  snapshotEveryDocs: number;
  /**
   * how long a search waits for its index's engine to load before it is answered 503 with
   * Retry-After (the load goes on; a later search finds the engine)
   */
  loadWaitMs?: number;
  /** an engine larger than the budget stays loaded while used within this (OVERSIZED_IDLE_MS) */
  oversizedIdleMs?: number;
  /** engine loads at once; the others queue by demand (load-queue.ts; DEFAULT_CONCURRENT_LOADS) */
  concurrentLoads?: number;
  /** the budget bounds the engines' measured cost too (memory-check.ts); absent: the estimate only */
  memoryCheck?: MemoryCheck;
}

/** Default for `concurrentLoads`: one load builds in the engine thread while another is assembled here. */
export const DEFAULT_CONCURRENT_LOADS = 2;

/** Default for `oversizedIdleMs`: an oversized engine not searched for 10 minutes may go. */
export const OVERSIZED_IDLE_MS = 10 * 60_000;

/**
 * After a snapshot, an engine with this many segments more than when it was built (or last compacted)
 * has them merged in place, a step at a time (compactInPlace).
 */
const COMPACT_AFTER_SEGMENTS = 8;

/** Background builds of a due vector graph tried per loaded engine (a build that lost to changes meanwhile is tried again). */
const GRAPH_REBUILD_ATTEMPTS = 3;
/**
 * A graph built in the background is placed with at most this many vectors added meanwhile inserted
 * under the engine's lock (a few seconds of batches waiting); more, and it is built again.
 */
const GRAPH_MAX_INSERTS = 10_000;

/** Retry-After of a search refused while its engine loads. */
export const LOADING_RETRY_AFTER_MS = 2000;


/** The longest a batch's engine update waits for the worker's next batch (an idle worker). */
const LATER_MS = 50;

interface PendingApply {
  previous: number;
  taskId: number;
  apply: (e: Engine) => number | void;
  done: () => void;
}

export interface EngineStats {
  loads: number;
  /** loads that started from the index's snapshot (the others read every row) */
  snapshotLoads: number;
  unloads: number;
  drops: number;
  /** vector graphs built again in the background (rebuildGraph) and placed in their engine */
  graphRebuilds: number;
  bytes: number;
  loaded: number;
  /** the load queue: loads running, waiting for a slot, and how many ever waited */
  queue: LoadQueueStats;
  /** the measured check (memory-check.ts), when on: RSS at rest and over it, the slack taken off the budget */
  memory?: ReturnType<MemoryCheck['figures']>;
}

export class EngineRegistry {
  /** in least-recently-used order: get() moves an index to the end */
  private holders = new Map<string, Holder>();
  private loading = new Map<string, Promise<Holder | undefined>>();
  /** drops per index, so a build that started before a drop does not bring the engine back */
  private dropped = new Map<string, number>();
  /** unloaded engines whose changes still want a snapshot: their state, captured as they went */
  private snapshotDue = new Map<string, CapturedSnapshot>();
  private counts = { loads: 0, snapshotLoads: 0, unloads: 0, drops: 0, graphRebuilds: 0 };
  /** committed batches not applied yet, per index, in commit order (applyLater) */
  private pending = new Map<string, PendingApply[]>();
  private pendingTimer: NodeJS.Timeout | undefined;
  private queue: LoadQueue;

  constructor(private o: EngineRegistryOptions) {
    this.queue = new LoadQueue(o.concurrentLoads ?? DEFAULT_CONCURRENT_LOADS);
    o.memoryCheck?.watch({ estimate: () => this.loadedBytes(), enforce: () => this.enforceBudget() });
  }

  /**
   * The engine of `index`, loaded and caught up to `index.appliedTaskId` and its settings. A load is
   * waited for at most `loadWaitMs` (requests); `unbounded` waits for it however long (tasks). A load
   * waits its turn in the load queue: `background` (warming) after every load a caller waits for.
   */
  async get(index: IndexState, unbounded = false, priority: LoadPriority = 'demand'): Promise<Engine> {
    void this.flushPending(index.id);
    let h = this.holders.get(index.id);
    if (h) {
      this.holders.delete(index.id);
      this.holders.set(index.id, h);
      h.usedAt = performance.now();
    } else {
      h = await (unbounded ? this.load(index.id, priority) : this.waitForLoad(index.id));
      // deleted between the caller's read of its row and this build
      if (!h) throw new DomainError('index_not_found', 'Index not found.', { parameter: 'indexUid' });
    }
    // A caller's row may be older than the engine (read before a task committed): only a newer
    // version, or different settings at the same version, sends the engine back to PostgreSQL.
    if (this.behind(h, index)) {
      const held = h;
      await this.withLock(held, async () => {
        if (!this.behind(held, index)) return;
        const r = await this.o.loader.catchUp(held, index.id, false);
        if (r === 'reload') await this.reloadInto(held, index.id);
        else if (r === 'gone') this.drop(index.id);
        else held.bytes = held.engine.memoryBytes();
      });
    }
    return h.engine;
  }

  /** Loaded engines (for tests, metrics and snapshots). */
  loaded(indexId: string): { engine: Engine; version: number; bytes: number } | undefined {
    const h = this.holders.get(indexId);
    return h && { engine: h.engine, version: h.version, bytes: h.bytes };
  }

  /** The ids of the loaded engines, least recently used first. */
  loadedIds(): string[] {
    return [...this.holders.keys()];
  }

  /**
   * Unload the index's engine (placement: another node holds the index now), as the memory budget
   * would: not while it is in use (false then); its unsaved changes still get their snapshot.
   */
  unload(indexId: string, reason: string): boolean {
    const h = this.holders.get(indexId);
    if (!h || h.busy > 0 || this.pending.has(indexId)) return false;
    this.holders.delete(indexId);
    this.counts.unloads++;
    if (h.changedSinceSnapshot >= this.o.snapshotEveryDocs) this.snapshotDue.set(indexId, this.capture(h));
    this.o.log.info(`engine unloaded: ${reason}`, { indexId, bytes: h.bytes });
    this.afterUnload();
    return true;
  }

  /** What the loaded engines' estimate is kept under: the budget, less the measured slack when the memory check is on. */
  limitBytes(): number {
    return this.o.memoryCheck?.budget() ?? this.o.budgetBytes;
  }

  stats(): EngineStats {
    const bytes = this.loadedBytes();
    const memory = this.o.memoryCheck?.figures();
    return { ...this.counts, bytes, loaded: this.holders.size, queue: this.queue.stats(), ...(memory ? { memory } : {}) };
  }
  /** The loaded engines' estimated bytes: what the budget bounds. */
  private loadedBytes(): number {
    let bytes = 0;
    for (const h of this.holders.values()) bytes += h.bytes;
    return bytes;
  }


  /**
   * After a task committed: apply its effect to the loaded engine when that engine was exactly at
   * the previous version (the common case: this process's own worker). Otherwise leave it: the next
   * get() catches up from PostgreSQL, which already holds the result.
   */
  async applyCommitted(indexId: string, previous: number, taskId: number, apply: (e: Engine) => number | void): Promise<void> {
    void this.flushPending(indexId);
    await this.applyNow(indexId, previous, taskId, apply);
  }

  /**
   * applyCommitted, run later: when flushPending is next called (the worker's next batch, once its
   * rows are on their way to PostgreSQL), when the engine is next read or changed, or after LATER_MS.
   * Resolves once applied.
   */
  applyLater(indexId: string, previous: number, taskId: number, apply: (e: Engine) => number | void): Promise<void> {
    if (!this.holders.has(indexId)) return Promise.resolve();
    return new Promise((done) => {
      const list = this.pending.get(indexId);
      if (list) list.push({ previous, taskId, apply, done });
      else this.pending.set(indexId, [{ previous, taskId, apply, done }]);
      if (!this.pendingTimer) {
        this.pendingTimer = setTimeout(() => void this.flushPending(), LATER_MS);
        this.pendingTimer.unref();
      }
    });
  }

  /**
   * Start the pending applies (of one index, or all) in commit order, under the engine's lock;
   * resolves when they are done. Each was queued on the lock before this returns.
   */
  flushPending(indexId?: string): Promise<void> {
    if (!this.pending.size) return Promise.resolve();
    const started: Promise<void>[] = [];
    for (const [id, list] of this.takePending(indexId)) {
      for (const p of list) started.push(this.applyNow(id, p.previous, p.taskId, p.apply).then(p.done));
    }
    return Promise.all(started).then(() => undefined);
  }

  private takePending(indexId?: string): [string, PendingApply[]][] {
    const ids = indexId === undefined ? [...this.pending.keys()] : this.pending.has(indexId) ? [indexId] : [];
    const out = ids.map((id): [string, PendingApply[]] => [id, this.pending.get(id)!]);
    for (const id of ids) this.pending.delete(id);
    if (!this.pending.size && this.pendingTimer) {
      clearTimeout(this.pendingTimer);
      this.pendingTimer = undefined;
    }
    return out;
  }

  private async applyNow(indexId: string, previous: number, taskId: number, apply: (e: Engine) => number | void): Promise<void> {
    const h = this.holders.get(indexId);
    if (!h) return;
    await this.withLock(h, async () => {
      if (h.version !== previous) return;
      try {
        const changed = apply(h.engine);
        h.version = taskId;
        h.changedSinceSnapshot += typeof changed === 'number' ? changed : 0;
        h.bytes = h.engine.memoryBytes();
      } catch (e) {
        // The database is right and the engine is not: rebuild it on next use.
        this.o.log.error('engine apply failed; the engine will be rebuilt', { indexId, taskId, err: e });
        this.holders.delete(indexId);
      }
    });
    this.enforceBudget();
  }

  /**
   * Settings committed by a task: the loaded engine takes them; when they re-index every document
   * (searchable, filterable, languages, embeddings) it is built anew by the builder (off this event
   * loop) and replaces the old one, which answers nothing meanwhile (its version is behind).
   */
  async applySettings(indexId: string, previous: number, taskId: number, settings: IndexSettingsData): Promise<void> {
    void this.flushPending(indexId);
    const h = this.holders.get(indexId);
    if (!h) return;
    if (!rebuildNeeded(h.settings, settings)) {
      await this.applyCommitted(indexId, previous, taskId, (e) => {
        e.updateSettings(toEngineSettings(settings));
        h.settings = settings;
        h.settingsKey = settingsKey(settings);
      });
      return;
    }
    await this.withLock(h, async () => {
      if (h.version !== previous) return;
      await this.reloadInto(h, indexId);
    });
    this.enforceBudget();
  }

  /** Forget the index's engine (its index was deleted, here or by another process). */
  drop(indexId: string): void {
    // the batches waiting for this engine are moot: it goes
    for (const [, list] of this.takePending(indexId)) for (const p of list) p.done();
    this.dropped.set(indexId, (this.dropped.get(indexId) ?? 0) + 1);
    this.snapshotDue.delete(indexId);
    if (this.holders.delete(indexId)) {
      this.counts.drops++;
      this.o.log.info('engine dropped: index deleted', { indexId });
    }
  }

  /** Drop the engines whose index no longer exists (notifications missed while disconnected). */
  async dropDeleted(): Promise<void> {
    const ids = [...this.holders.keys()];
    if (!ids.length) return;
    const present = new Set((await query<{ id: string }>(this.o.pool, `select id from ${T.indexes} where id = any($1::text[])`, [ids])).map((r) => r.id));
    for (const id of ids) if (!present.has(id)) this.drop(id);
  }

  /** Indexes whose engine changed enough since its last snapshot (and unloaded ones that had). */
  snapshotCandidates(threshold: number): string[] {
    const loaded = [...this.holders].filter(([, h]) => h.changedSinceSnapshot >= threshold).map(([id]) => id);
    return [...new Set([...loaded, ...this.snapshotDue.keys()])];
  }

  /**
   * Write the index's snapshot from its loaded engine (or, for an unloaded one, from the state
   * captured when it was unloaded), then merge the engine's segments in place when it has many more
   * than when it was built (compactInPlace), and rebuild its vector graph when due (graphCheck).
   */
  async snapshot(indexId: string): Promise<boolean> {
    await this.flushPending(indexId);
    const h = this.holders.get(indexId);
    const written = await this.writeSnapshot(indexId, h);
    if (written && h && this.holders.get(indexId) === h && h.engine.segmentCount - h.builtSegments >= COMPACT_AFTER_SEGMENTS) await this.compactInPlace(indexId, h);
    // an engine that stays loaded while its documents are replaced or deleted gets its graph of dead nodes rebuilt too
    if (h && this.holders.get(indexId) === h) this.graphCheck(indexId, h);
    return written;
  }

  /**
   * The write of snapshot(). The state is taken at one moment, synchronously: segments are immutable,
   * the liveness bitset is copied and the documents are referenced, so the engine keeps answering and
   * changing while the snapshot streams to PostgreSQL. A function of its own, so the captured state
   * (it references every segment the engine had) is garbage once written: a local of snapshot() would
   * stay reachable through the compaction that follows and keep the whole uncompacted index beside
   * the merged segments (~450 MiB at 1,000,000 documents).
   */
  private async writeSnapshot(indexId: string, h: Holder | undefined): Promise<boolean> {
    const captured = h ? this.capture(h) : this.snapshotDue.get(indexId);
    this.snapshotDue.delete(indexId);
    if (!captured) return false;
    const before = h?.changedSinceSnapshot ?? 0;
    try {
      const written = !!(await this.o.loader.writeSnapshot(indexId, captured));
      if (written && h && captured.replace) h.replaceSnapshot = false;
      return written;
    } finally {
      // a failed write is not retried until as many changes again (it was logged)
      if (h) h.changedSinceSnapshot = Math.max(0, h.changedSinceSnapshot - before);
    }
  }

  /**
   * Merge the engine's segments where it is (Engine.compactSteps), a step per turn of this event loop
   * so searches and batches run between them: memory grows by one merged segment at most, never by a
   * second engine. Stops when the engine is replaced, unloaded or dropped meanwhile.
   */
  private async compactInPlace(indexId: string, h: Holder): Promise<void> {
    if (h.compacting) return;
    h.compacting = true;
    const engine = h.engine;
    const segments = engine.segmentCount;
    const started = performance.now();
    const steps = engine.compactSteps();
    let merges = 0;
    try {
      for (;;) {
        await nextTurn();
        if (this.holders.get(indexId) !== h || h.engine !== engine) return;
        const r = steps.next();
        if (r.done) {
          merges = r.value;
          break;
        }
      }
    } finally {
      h.compacting = false;
    }
    Object.assign(h, { bytes: engine.memoryBytes(), builtSegments: engine.segmentCount });
    // the compacted engine's own snapshot is due too, so a restart loads it without merging again
    if (merges) h.changedSinceSnapshot = Math.max(h.changedSinceSnapshot, this.o.snapshotEveryDocs);
    this.o.log.info('engine compacted in place', { indexId, segments, now: engine.segmentCount, merges, ms: Math.round(performance.now() - started) });
  }

  private capture(h: Holder): CapturedSnapshot {
    return { data: h.engine.toSnapshot(KEEP_ARRAYS), version: h.version, documents: h.engine.size, replace: h.replaceSnapshot };
  }

  /** Unload least recently used engines while the loaded ones exceed the budget. */
  enforceBudget(): void {
    let total = this.loadedBytes();
    // the estimate is kept under the budget less what the process measurably holds beyond it
    const limit = this.limitBytes();
    if (total <= limit) return;
    let unloaded = false;
    const newest = [...this.holders.keys()].at(-1);
    const idle = this.o.oversizedIdleMs ?? OVERSIZED_IDLE_MS;
    const now = performance.now();
    for (const [id, h] of [...this.holders]) {
      if (total <= limit) break;
      // the engine just used stays, even alone over the budget; one in use is not taken from under it;
      // one larger than the budget, used lately, is served alone (the others go around it)
      if (id === newest || h.busy > 0) continue;
      if (h.bytes > this.o.budgetBytes && now - h.usedAt < idle) continue;
      this.holders.delete(id);
      total -= h.bytes;
      unloaded = true;
      this.counts.unloads++;
      // its state stays referenced until the worker has written it
      if (h.changedSinceSnapshot >= this.o.snapshotEveryDocs) this.snapshotDue.set(id, this.capture(h));
      this.o.log.info('engine unloaded: memory budget', { indexId: id, bytes: h.bytes, loadedBytes: total, budgetBytes: this.o.budgetBytes, limitBytes: limit });
    }
    if (unloaded) this.afterUnload();
  }

  /** Engines went: the memory check may collect (when RSS is over the budget), and enforce again when it found more slack. */
  private afterUnload(): void {
    void this.o.memoryCheck?.changed();
  }

  private behind(h: Holder, index: IndexState): boolean {
    return h.version < index.appliedTaskId || (h.version === index.appliedTaskId && h.settingsKey !== settingsKey(index.settings));
  }

  /** The load of an index's engine, waited for at most `loadWaitMs`; past it, SERVICE_UNAVAILABLE. */
  private waitForLoad(indexId: string): Promise<Holder | undefined> {
    const p = this.load(indexId, 'demand');
    const bound = this.o.loadWaitMs;
    if (bound === undefined) return p;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new DomainError('SERVICE_UNAVAILABLE', `The index's search engine is loading; retry in ${LOADING_RETRY_AFTER_MS / 1000} s.`, {
            meta: { retryAfterMs: LOADING_RETRY_AFTER_MS },
          }),
        );
      }, bound);
      p.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  /** Build the index's engine once, however many callers ask meanwhile (each one more demand on its queued load). */
  private load(indexId: string, priority: LoadPriority): Promise<Holder | undefined> {
    let p = this.loading.get(indexId);
    if (p) this.queue.bump(indexId, priority);
    else {
      const drops = this.dropped.get(indexId) ?? 0;
      this.o.memoryCheck?.atRest();
      p = this.queue
        .run(indexId, priority, () => this.o.builder.load(indexId))
        .then((built) => {
          if (!built || (this.dropped.get(indexId) ?? 0) !== drops) return undefined;
          const h: Holder = { ...built, lock: Promise.resolve(), busy: 0, bytes: built.engine.memoryBytes(), builtSegments: built.engine.segmentCount, usedAt: performance.now() };
          this.counts.loads++;
          if (h.bytes > this.o.budgetBytes) {
            this.o.log.warn('engine larger than the memory budget: served alone (the other engines are unloaded around it)', {
              indexId,
              bytes: h.bytes,
              budgetBytes: this.o.budgetBytes,
              documents: h.engine.size,
            });
          }
          if (built.fromSnapshot) this.counts.snapshotLoads++;
          this.holders.set(indexId, h);
          this.graphCheck(indexId, h);
          this.enforceBudget();
          void this.o.memoryCheck?.changed();
          return h;
        })
        .finally(() => this.loading.delete(indexId));
      this.loading.set(indexId, p);
    }
    return p;
  }

  /** Replace the engine of `h` with a freshly built one (under its lock). */
  private async reloadInto(h: Holder, indexId: string): Promise<void> {
    const drops = this.dropped.get(indexId) ?? 0;
    const fresh = await this.queue.run(`reload ${indexId}`, 'demand', () => this.o.builder.load(indexId));
    if (!fresh || (this.dropped.get(indexId) ?? 0) !== drops) {
      this.drop(indexId);
      return;
    }
    this.counts.loads++;
    if (fresh.fromSnapshot) this.counts.snapshotLoads++;
    Object.assign(h, fresh, { bytes: fresh.engine.memoryBytes(), builtSegments: fresh.engine.segmentCount, graphRebuilds: 0 });
    this.graphCheck(indexId, h);
  }

  /** A loaded engine whose vector graph answers but is due again (Engine.graphDue) gets it rebuilt in the background. */
  private graphCheck(indexId: string, h: Holder): void {
    if (h.rebuildingGraph || (h.graphRebuilds ?? 0) >= GRAPH_REBUILD_ATTEMPTS || !h.engine.graphDue()) return;
    void this.rebuildGraph(indexId, h);
  }

  /**
   * Build the index's vector graph again (a graph of an older builder, or one of many dead nodes:
   * seconds per 10,000 vectors) while the loaded engine keeps answering with the graph it has: a
   * search never waits for it. Only the vectors leave the engine (copied out in steps), the graph is
   * built in the engine thread (graph-build.ts), and the engine takes it under its lock, inserting the
   * vectors added meanwhile; its snapshot is then due, and replaces the one at the same task.
   */
  private async rebuildGraph(indexId: string, h: Holder): Promise<void> {
    h.rebuildingGraph = true;
    const attempt = (h.graphRebuilds = (h.graphRebuilds ?? 0) + 1);
    const started = performance.now();
    let placed: number | false = false;
    try {
      placed = await this.buildAndPlaceGraph(indexId, h);
    } catch (e) {
      this.o.log.warn('vector graph rebuild failed; the loaded graph keeps answering', { indexId, err: e });
    } finally {
      h.rebuildingGraph = false;
    }
    this.o.log.info(placed !== false ? 'vector graph rebuilt in the background' : 'vector graph rebuild not placed (the index changed or went meanwhile)', {
      indexId,
      attempt,
      inserted: placed,
      ms: Math.round(performance.now() - started),
    });
    if (placed !== false) this.enforceBudget();
    // the same engine (tried again), or one that replaced it meanwhile (its own graph may be due)
    else if (this.holders.get(indexId) === h) this.graphCheck(indexId, h);
  }

  /** rebuildGraph's work: the vectors inserted (made ready and placed) when placed, false when not placed (the engine changed or went). */
  private async buildAndPlaceGraph(indexId: string, h: Holder): Promise<number | false> {
    const engine = h.engine;
    const current = () => this.holders.get(indexId) === h && h.engine === engine;
    const copy = engine.graphInputSteps();
    const input = copy && (await runStepsByTurn(copy, current));
    if (!input) return false;
    const graph = await this.queue.run(`graph ${indexId}`, 'background', () => this.o.builder.buildGraph(input));
    // restored and caught up outside the lock (batches and searches go on), so the lock is held only
    // to insert what came in during that and to swap the graph
    const ready = await runStepsByTurn(engine.readyGraphSteps(graph, GRAPH_MAX_INSERTS), current);
    if (!ready) return false;
    let placed: number | false = false;
    await this.withLock(h, async () => {
      if (!current()) return;
      placed = (await runStepsByTurn(engine.placeGraphSteps(ready, GRAPH_MAX_INSERTS), current)) ?? false;
      if (placed === false) return;
      placed += ready.inserted;
      this.counts.graphRebuilds++;
      h.graphRebuilds = 0;
      h.replaceSnapshot = true;
      h.bytes = engine.memoryBytes();
      h.changedSinceSnapshot = Math.max(h.changedSinceSnapshot, this.o.snapshotEveryDocs);
    });
    return placed;
  }

  private async withLock(h: Holder, fn: () => Promise<void> | void): Promise<void> {
    h.busy++;
    const run = h.lock.then(fn, fn);
    h.lock = run.catch(() => undefined);
    try {
      await run;
    } finally {
      h.busy--;
    }
  }
}
