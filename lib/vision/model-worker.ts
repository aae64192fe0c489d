// One model in its own worker thread (the pattern of subgraphs/ai/models/text-model-pool.ts: load
// once, post `ready`, then id-matched calls), with what images need on top: pixel buffers are
// transferred, not copied; a worker starts on first use unless started early; and when the process
// runs TypeScript through a loader that the worker would not inherit (jest), the worker gets the
// repository's swc loader itself (lib/worker-script.ts).
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../worker-script.js';
import { VisionError } from './errors.js';
import type { VisionModelName } from './models.js';

export type ModelState = 'idle' | 'loading' | 'ready' | 'failed';

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

export class ModelWorker {
  state: ModelState = 'idle';
  error?: string;
  loadMs?: number;
  private worker?: Worker;
  private readyPromise?: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(readonly model: VisionModelName) {}

  /** Start the worker (idempotent); resolves when the model has loaded or failed to. */
  start(): Promise<void> {
    this.readyPromise ??= new Promise((resolve) => {
      this.state = 'loading';
      const w = startWorker(import.meta.url, 'vision.worker', { workerData: { model: this.model } });
      this.worker = w;
      w.on('message', (m: any) => {
        if ('ready' in m) {
          this.state = m.ready ? 'ready' : 'failed';
          this.error = m.error;
          this.loadMs = m.loadMs;
          resolve();
          return;
        }
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.result);
        else p.reject(new VisionError('model_unavailable', `${this.model} failed: ${m.error}`));
      });
      w.on('error', (e) => this.fail(e.message, resolve));
      w.on('exit', (code) => this.fail(`the ${this.model} worker exited with code ${code}`, resolve));
    });
    return this.readyPromise;
  }

  private fail(message: string, resolve: () => void): void {
    if (this.state !== 'failed') this.error = message;
    this.state = 'failed';
    for (const p of this.pending.values()) p.reject(new VisionError('model_unavailable', `${this.model}: ${message}`));
    this.pending.clear();
    resolve();
  }

  /** Run the model on RGB bytes of its input size (`options`: the model's, per call); the buffer is handed to the worker. */
  async run<R>(pixels: Buffer, options?: Record<string, unknown>): Promise<R> {
    await this.start();
    if (this.state !== 'ready') throw new VisionError('model_unavailable', `the ${this.model} model is unavailable: ${this.error ?? 'unknown error'}`);
    // a private copy that can be transferred (sharp's buffers may share a pooled ArrayBuffer)
    const own = new Uint8Array(pixels);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker!.postMessage({ id, pixels: own, options }, [own.buffer]);
    });
  }

  health(): Record<string, unknown> {
    return { status: this.state, load_ms: this.loadMs ?? null, ...(this.error ? { error: this.error } : {}) };
  }

  /** Stop the worker: calls waiting on it, and any made after, fail with model_unavailable. */
  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.readyPromise = Promise.resolve();
    this.fail('the worker was stopped', () => undefined);
    if (w) {
      w.removeAllListeners('exit');
      await w.terminate();
    }
  }
}
