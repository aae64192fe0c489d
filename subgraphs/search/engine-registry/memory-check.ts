// The memory a search node's engines really cost, kept within the budget (docs/search.md, "What the
// memory budget counts"). The registry's LRU steers by the engines' estimate (memory.ts), which is
// right about what the engines hold; the process holds more under churn: engines unloaded but not yet
// collected (V8 collects the old generation only once it has grown by a factor of what is live; their
// array buffers are freed only then), and the engine thread's garbage from building engines from rows.
// So, once unloads have freed a share of the budget, both isolates are collected (throttled), and
// after that the process's RSS over its RSS at rest is compared with the estimate: what remains
// over it (slack: heap headroom, what the allocator keeps) is taken off the budget the LRU steers by,
// so RSS over rest stays within the budget. The slack is measured again at each collection, so it
// shrinks when the process gives memory back.
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
/** The slack never takes more than this share of the budget (the engines keep at least the rest). */
const MAX_SLACK_SHARE = 0.5;

export class MemoryCheck {
  private rest: number | undefined;
  private freed = 0;
  private last = -Infinity;
  private running: Promise<void> | undefined;
  /** bytes over rest beyond the estimate at the last collection */
  private slack = 0;
  collections = 0;

  constructor(private o: MemoryCheckOptions) {}

  private rss(): number {
    return (this.o.rss ?? memoryUsage.rss)();
  }

  /** The process at rest: before its first engine (the registry calls this at its first load). */
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
    this.running = this.o
      .collect()
      .then(() => {
        this.collections++;
        const over = this.rss() - this.rest!;
        this.slack = Math.min(this.o.budgetBytes * MAX_SLACK_SHARE, Math.max(0, over - estimate()));
      })
      .catch((e: unknown) => this.o.log.warn('engine memory check failed', { err: e }))
      .finally(() => (this.running = undefined));
    return this.running.then(() => this.slack > before);
  }
}
