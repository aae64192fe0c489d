// The memory a search node's engines really cost, kept within the budget (docs/search.md, "What the
// memory budget counts"). The registry's LRU steers by the engines' estimate (memory.ts), which is
// right about what the engines hold; the process holds more: engines unloaded but not yet collected
// (V8 collects the old generation only once it has grown by a factor of what is live; their array
// buffers are freed only then), the engine thread's garbage from building engines, and what V8 and
// the allocator keep committed after a collection.
//
// So RSS over the process at rest is read every SAMPLE_MS and after each load and unload. Only when it
// is over the budget (at most every MIN_INTERVAL_MS) are both isolates collected (full-gc.ts: the freed
// pages go back to the system); right after that collection, what RSS over rest still holds beyond the
// estimate is the **slack**: what the process keeps beyond its engines once the garbage is gone. The
// LRU steers the estimate under the budget less the slack and less a fixed HEADROOM_SHARE for the
// garbage that gathers between two collections. The slack is the highest of the last few measurements,
// so it shrinks a few collections after the process gives memory back.
//
// A collection pauses the event loop (V8's low-memory collection: ~300 ms measured at a full 512 MiB budget), and
// a node serving searches makes garbage all along, so RSS over rest keeps returning over the budget:
// collections are spaced so that they take at most MAX_PAUSE_SHARE of the node's time (the next waits
// for twenty times the last pause, and at least MIN_INTERVAL_MS). Every 2 s, as before this rule, they
// cut a full node's steady searches a second by about a third (docs/search.md, "The collections' pause bounded").
//
// Until 2026-11-30 (stop 43) the check collected whenever unloads had freed an eighth of the budget and measured
// the slack before collecting (the interval's garbage included): under churn that slack took 180-340 MiB
// of a 512 MiB budget, so the engines held a third to two thirds of it, more searches missed, more
// engines were built, more garbage was measured: a loop that cut a node's searches a second 4-5 times.
import { memoryUsage } from 'node:process';
import type { Logger } from '../../../lib/logger.js';

export interface MemoryCheckOptions {
  budgetBytes: number;
  /** both isolates collected (this one and the engine thread's) */
  collect: () => Promise<void>;
  log: Logger;
  /** the process's resident bytes (default: process.memoryUsage.rss) */
  rss?: () => number;
  /** the fewest ms between two collections (MIN_INTERVAL_MS) */
  minIntervalMs?: number;
  /** ms between two readings of RSS while watching (SAMPLE_MS); 0: only on loads and unloads */
  sampleMs?: number;
  /** the share of the event loop's time collections may take (MAX_PAUSE_SHARE); Infinity: no spacing by the pause */
  maxPauseShare?: number;
}

/** What the check reads and acts on: the loaded engines' estimate, and the registry unloading down to budget(). */
export interface Watched {
  estimate: () => number;
  enforce: () => void;
}

/** At most one collection per this (a full GC pauses the event loop for tens to hundreds of ms). */
export const MIN_INTERVAL_MS = 2000;
/** Collections take at most this share of the event loop's time: the next waits for the last pause / this. */
const MAX_PAUSE_SHARE = 1 / 20;
/** RSS read this often between loads and unloads (snapshot writes and compactions make garbage too). */
const SAMPLE_MS = 250;
/** The share of the budget left for the garbage that gathers between two collections. */
const HEADROOM_SHARE = 1 / 8;
/**
 * The slack never takes more than this share of the budget: the engines keep at least the rest, so a
 * budget smaller than what the process holds beyond its engines (50-75 MiB under churn, docs/search.md) still
 * serves some engines, and RSS over rest then exceeds it.
 */
const MAX_SLACK_SHARE = 0.75;
/** The slack is the highest of this many last measurements (what the process keeps varies with what it built). */
const KEPT_MEASUREMENTS = 4;

export class MemoryCheck {
  private rest: number | undefined;
  private last = -Infinity;
  /** ms from the last collection before the next may run: MIN_INTERVAL_MS, or more after a long pause */
  private interval: number;
  private running: Promise<boolean> | undefined;
  /** the last measurements of RSS over rest beyond the estimate, right after a collection */
  private measured: number[] = [];
  private slack = 0;
  private watched: Watched | undefined;
  private timer: NodeJS.Timeout | undefined;
  collections = 0;
  /** ms the event loop paused for this isolate's collections, in all */
  pausedMs = 0;

  constructor(private o: MemoryCheckOptions) {
    this.interval = o.minIntervalMs ?? MIN_INTERVAL_MS;
  }

  private rss(): number {
    return (this.o.rss ?? memoryUsage.rss)();
  }

  /** The process at rest, before any engine: the first call counts (the runtime calls it once started, the registry at each load). */
  atRest(): void {
    this.rest ??= this.rss();
  }

  /** Watch the registry's engines: RSS read every sampleMs (timer unref'd) and on changed(). */
  watch(w: Watched): void {
    this.watched = w;
    const every = this.o.sampleMs ?? SAMPLE_MS;
    if (every > 0 && !this.timer) {
      this.timer = setInterval(() => void this.changed(), every);
      this.timer.unref();
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The budget the LRU steers the estimate by: the budget less the measured slack and the headroom for garbage. */
  budget(): number {
    return this.o.budgetBytes * (1 - HEADROOM_SHARE) - this.slack;
  }

  figures(): {
    restBytes: number;
    overRestBytes: number;
    slackBytes: number;
    collections: number;
    pausedMs: number;
  } {
    const rest = this.rest ?? this.rss();
    return {
      restBytes: rest,
      overRestBytes: Math.max(0, this.rss() - rest),
      slackBytes: this.slack,
      collections: this.collections,
      pausedMs: Math.round(this.pausedMs),
    };
  }

  /**
   * Engines were loaded or unloaded, or the sampler ticked: when RSS over rest is over the budget and no
   * collection ran lately, collect, measure the slack, and have the registry unload down to the smaller
   * budget when it grew. Resolves true when a collection ran and the slack grew.
   */
  changed(): Promise<boolean> {
    const w = this.watched;
    if (!w || this.rest === undefined || this.running) return Promise.resolve(false);
    if (this.rss() - this.rest <= this.o.budgetBytes) return Promise.resolve(false);
    if (performance.now() - this.last < this.interval) return Promise.resolve(false);
    const before = this.slack;
    const started = performance.now();
    // this isolate's collection runs synchronously in collect() before its first await: the pause
    const collecting = this.o.collect();
    const paused = performance.now() - started;
    this.pausedMs += paused;
    this.last = performance.now();
    this.interval = Math.max(this.o.minIntervalMs ?? MIN_INTERVAL_MS, paused / (this.o.maxPauseShare ?? MAX_PAUSE_SHARE));
    this.running = collecting
      .then(() => {
        this.collections++;
        this.keep(Math.min(this.o.budgetBytes * MAX_SLACK_SHARE, Math.max(0, this.rss() - this.rest! - w.estimate())));
        const grew = this.slack > before;
        if (grew) w.enforce();
        return grew;
      })
      .catch((e: unknown) => {
        this.o.log.warn('engine memory check failed', { err: e });
        return false;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** A measurement kept: the slack becomes the highest of the last ones. */
  private keep(m: number): void {
    this.measured.push(m);
    if (this.measured.length > KEPT_MEASUREMENTS) this.measured.shift();
    this.slack = Math.max(...this.measured);
  }
}
