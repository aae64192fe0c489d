// The memory a search node's engines really cost, kept within the budget (docs/search.md, "What the
// memory budget counts"). The registry's LRU steers by the engines' estimate (memory.ts), which is
// right about what the engines hold; the process holds more under churn: engines unloaded but not yet
// collected (V8 collects the old generation only once it has grown by a factor of what is live; their
// array buffers are freed only then), the engine thread's garbage from building engines from rows,
// and what V8 and the allocator keep committed. So, once unloads have freed a share of the budget, the
// process's RSS over its RSS at rest is compared with the estimate, and both isolates are collected
// (throttled, full-gc.ts: the freed pages go back to the system). What RSS over rest holds beyond the
// estimate at that moment (slack: the garbage of one collection interval, heap headroom, what the
// allocator keeps) is taken off the budget the LRU steers by. It is measured before the collection,
// when the process holds the most, so RSS over rest stays within the budget between collections too,
// not only right after one. The slack is the highest of the last few measurements (one interval's
// garbage varies), so it shrinks a few collections after the process gives memory back.
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
}

/** At most one collection per this (a full GC pauses the event loop for tens of ms). */
export const MIN_INTERVAL_MS = 2000;
/** Unloaded bytes that make a collection due: this share of the budget. */
const DUE_SHARE = 1 / 8;
/**
 * The slack never takes more than this share of the budget: the engines keep at least the rest, so a
 * budget smaller than what the process holds beyond its engines (50-75 MiB under churn, docs/search.md) still
 * serves some engines, and RSS over rest then exceeds it.
 */
const MAX_SLACK_SHARE = 0.75;
/** The slack is the highest of this many last measurements (one interval's garbage varies with what was built). */
const KEPT_MEASUREMENTS = 4;

export class MemoryCheck {
  private rest: number | undefined;
  private freed = 0;
  /** bytes loaded since RSS was last measured on a load */
  private added = 0;
  private last = -Infinity;
  private running: Promise<void> | undefined;
  /** the last measurements of RSS over rest beyond the estimate (the slack is their highest) */
  private measured: number[] = [];
  private slack = 0;
  collections = 0;

  constructor(private o: MemoryCheckOptions) {}

  private rss(): number {
    return (this.o.rss ?? memoryUsage.rss)();
  }

  /** The process at rest, before any engine: the first call counts (the runtime calls it once started, the registry at each load). */
  atRest(): void {
    this.rest ??= this.rss();
  }

  /** The budget the LRU steers the estimate by: the budget less the measured slack. */
  budget(): number {
    return this.o.budgetBytes - this.slack;
  }

  figures(): {
    restBytes: number;
    overRestBytes: number;
    slackBytes: number;
    collections: number;
  } {
    const rest = this.rest ?? this.rss();
    return {
      restBytes: rest,
      overRestBytes: Math.max(0, this.rss() - rest),
      slackBytes: this.slack,
      collections: this.collections,
    };
  }

  /** RSS over rest beyond `estimate`, as far as the slack may take it. */
  private measure(estimate: number): number {
    return Math.min(this.o.budgetBytes * MAX_SLACK_SHARE, Math.max(0, this.rss() - this.rest! - estimate));
  }

  /** A measurement kept: the slack becomes the highest of the last ones. */
  private keep(m: number): void {
    this.measured.push(m);
    if (this.measured.length > KEPT_MEASUREMENTS) this.measured.shift();
    this.slack = Math.max(...this.measured);
  }

  /**
   * Engines of `bytes` were loaded; `estimate` is the loaded engines' estimate now. Once loads added a
   * share of the budget, RSS is measured (no collection), so the slack is known while the budget first
   * fills, before any unload makes a collection due. Kept only when above the slack (a load may follow a
   * collection closely); collections measure at the highest point of their interval. True when the
   * slack grew (the caller enforces the smaller budget).
   */
  loaded(bytes: number, estimate: number): boolean {
    if (this.rest === undefined) return false;
    this.added += bytes;
    if (this.added < this.o.budgetBytes * DUE_SHARE) return false;
    this.added = 0;
    const m = this.measure(estimate);
    if (m <= this.slack) return false;
    this.keep(m);
    return true;
  }

  /**
   * Engines of `bytes` were unloaded; `estimate()` gives the loaded engines' estimate now. Resolves
   * true when a collection ran and the slack grew (the caller then enforces the smaller budget).
   */
  unloaded(bytes: number, estimate: () => number): Promise<boolean> {
    this.freed += bytes;
    const due = this.freed >= this.o.budgetBytes * DUE_SHARE && performance.now() - this.last >= (this.o.minIntervalMs ?? MIN_INTERVAL_MS);
    if (!due || this.running || this.rest === undefined) return Promise.resolve(false);
    this.freed = 0;
    this.last = performance.now();
    const before = this.slack;
    // at its highest: the garbage of this interval still held
    const m = this.measure(estimate());
    this.running = this.o
      .collect()
      .then(() => {
        this.collections++;
        this.keep(m);
      })
      .catch((e: unknown) => this.o.log.warn('engine memory check failed', { err: e }))
      .finally(() => (this.running = undefined));
    return this.running.then(() => this.slack > before);
  }
}
