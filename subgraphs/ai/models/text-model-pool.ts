// Worker threads that host the text models (text-models.ts), so a 15 ms entity extraction for one
// tenant never holds the event loop that serves the others. The workers start on the first call
// (none at rest), and each model loads in a worker on the first operation that needs it; with
// `preload` (AI_PRELOAD=1) the workers start at construction and load every model. A call goes to
// the worker with the fewest calls in flight.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../../lib/worker-script.js';
import { withSharedWordVectors } from '../../../lib/word-vectors.js';
import type { TextModelName, TextOp, TextOps } from './text-models.js';

/** idle: no worker started yet (the first call starts them) */
export type ModelState = 'idle' | 'loading' | 'ready' | 'failed';

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

class TextWorker {
  state: ModelState = 'loading';
  error?: string;
  /** the models this worker has loaded, with their load times (ms) */
  loadMs: Partial<Record<TextModelName, number>> = {};
  inFlight = 0;
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(preload: boolean) {
    // text-models.worker.ts beside this file (.js in the compiled build), with the loader it needs and
    // this process's word vectors (shared memory: every worker reads the one copy, lib/word-vectors.ts)
    this.worker = startWorker(import.meta.url, 'text-models.worker', { workerData: withSharedWordVectors({ preload }) });
    this.ready = new Promise((resolve) => {
      this.worker.on('message', (m: any) => {
        if ('loaded' in m) return void (this.loadMs[m.loaded as TextModelName] = m.ms);
        if ('ready' in m) {
          this.state = m.ready ? 'ready' : 'failed';
          this.error = m.error;
          resolve();
          return;
        }
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        this.inFlight--;
        if (m.ok) p.resolve(m.result);
        else p.reject(new Error(m.error));
      });
      this.worker.on('error', (e) => {
        this.state = 'failed';
        this.error = e.message;
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
        resolve();
      });
    });
  }

  call(op: TextOp, args: unknown): Promise<unknown> {
    const id = this.nextId++;
    this.inFlight++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

export class TextModelPool {
  private workers: TextWorker[] = [];
  private startedAt = 0;
  /** wall time from the workers' start until every worker was up (with every model, when preloading) */
  loadMs?: number;

  constructor(
    private readonly size: number,
    private readonly preload = false,
  ) {
    if (preload) this.start();
  }

  get state(): ModelState {
    if (!this.workers.length) return 'idle';
    if (this.workers.every((w) => w.state === 'ready')) return 'ready';
    return this.workers.some((w) => w.state === 'failed') ? 'failed' : 'loading';
  }

  get error(): string | undefined {
    return this.workers.find((w) => w.error)?.error;
  }

  /** Resolves when every started worker is up (or failed); at once when none has started. */
  async ready(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.ready));
  }

  async run<O extends TextOp>(op: O, args: TextOps[O]['args']): Promise<TextOps[O]['result']> {
    if (!this.workers.length) this.start();
    const live = this.workers.filter((w) => w.state !== 'failed');
    if (!live.length) throw new Error(`the text models failed to load: ${this.error ?? 'unknown error'}`);
    const w = live.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    await w.ready;
    if (w.state !== 'ready') throw new Error(`the text models failed to load: ${w.error ?? 'unknown error'}`);
    return (await w.call(op, args)) as TextOps[O]['result'];
  }

  health(): Record<string, unknown> {
    return {
      status: this.state,
      workers: this.workers.length,
      max_workers: Math.max(1, this.size),
      preload: this.preload,
      load_ms: this.loadMs ?? null,
      // each model loads on the first call that needs it (AI_PRELOAD=1: at start)
      models_load_ms: this.workers[0]?.loadMs ?? {},
      ...(this.error ? { error: this.error } : {}),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
  }

  private start(): void {
    this.startedAt = performance.now();
    this.workers = Array.from({ length: Math.max(1, this.size) }, () => new TextWorker(this.preload));
    void Promise.all(this.workers.map((w) => w.ready)).then(() => (this.loadMs = Math.round(performance.now() - this.startedAt)));
  }
}
