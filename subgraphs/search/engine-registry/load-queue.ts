// The engine loads of one search process, at most `concurrency` at a time. A load reads its snapshot
// and rows and builds the engine (in the engine thread), then assembles it on this event loop: when a
// node dies its peers take over its share at once, and fifty loads started together would each hold a
// half-built engine and share the thread and the event loop, so searches of every index slow down
// while none of the new ones is ready sooner. Queued, each load runs at full speed in turn:
//  - by demand: the load the most callers wait for goes first (a hot index before a cold one), then
//    searches' loads before background ones (warming what this node now holds), then the oldest;
//  - a caller that stops waiting (its search answered 503 after the load-wait bound) leaves its demand
//    counted: the next search of that index finds the load further ahead, or done.
export type LoadPriority = 'demand' | 'background';

interface Queued {
  key: string;
  demand: number;
  background: boolean;
  at: number;
  start: () => void;
}

export interface LoadQueueStats {
  running: number;
  queued: number;
  /** loads that waited for a slot */
  waited: number;
}

export class LoadQueue {
  private running = 0;
  private queued = new Map<string, Queued>();
  private seq = 0;
  private waited = 0;

  constructor(private concurrency: number) {}

  /** Run `fn` (the load of `key`) when a slot is free; the caller dedupes loads of one key. */
  run<T>(key: string, priority: LoadPriority, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        fn()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.pump();
          });
      };
      if (this.running < this.concurrency && !this.queued.size) return start();
      this.waited++;
      this.queued.set(key, { key, demand: priority === 'demand' ? 1 : 0, background: priority === 'background', at: this.seq++, start });
    });
  }

  /** One more caller waits for `key`'s load (a search: it is no longer background work). */
  bump(key: string, priority: LoadPriority): void {
    const q = this.queued.get(key);
    if (!q) return;
    if (priority === 'demand') {
      q.demand++;
      q.background = false;
    }
  }

  stats(): LoadQueueStats {
    return { running: this.running, queued: this.queued.size, waited: this.waited };
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queued.size) {
      let best: Queued | undefined;
      for (const q of this.queued.values()) if (!best || before(q, best)) best = q;
      this.queued.delete(best!.key);
      best!.start();
    }
  }
}

function before(a: Queued, b: Queued): boolean {
  if (a.background !== b.background) return !a.background;
  if (a.demand !== b.demand) return a.demand > b.demand;
  return a.at < b.at;
}
