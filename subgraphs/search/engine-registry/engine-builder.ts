// Where engines are built (engine-loader.ts does the work): in the engine thread
// (SEARCH_ENGINE_THREAD=1, the default) or on this event loop (0). Snapshots are written by the
// registry from the engines it holds, not here.
//
// In the thread, a built engine comes back as its snapshot structure: the typed arrays (segments,
// field indexes, columns, the deflated bodies, vectors) are transferred, so receiving them costs
// nothing; the external ids are pulled in chunks of CHUNK (all asked for at once), each a separate
// message, so searches of other indexes run between them; then the engine is assembled from the arrays
// in steps (no re-indexing: the thread built it with these settings; the id table comes with the arrays).
import type { Worker } from 'node:worker_threads';
import type { Logger } from '../../../lib/logger.js';
import { startWorker } from '../../../lib/worker-script.js';
import { fullGc } from '../../../lib/full-gc.js';
import { withSharedWordVectors } from '../../../lib/word-vectors.js';
import type { SnapshotData } from '../../../lib/search-engine/snapshot.js';
import { buildGraphSteps, restoreSteps, type GraphInput, type HnswSnapshot } from '../../../lib/search-engine/index.js';
import type { Engine } from '../../../lib/search-engine/types.js';
import type { EngineLoader, LoadedEngine } from './engine-loader.js';
import { settingsKey, toEngineSettings } from '../indexes/engine-settings.js';
import type { BuiltEngine, BuiltGraph, ThreadMemory, ThreadReply, ThreadRequest, ThreadResult } from './engine-thread.protocol.js';
import { runStepsByTurn } from '../../../lib/generator-steps.js';

/** external ids per message from the engine thread (a few ms to receive) */
const CHUNK = 20_000;

export interface EngineBuilder {
  readonly mode: 'thread' | 'inline';
  /** the index's engine, built from its snapshot and rows and caught up; undefined when the index is gone */
  load(indexId: string): Promise<LoadedEngine | undefined>;
  /** a vector graph of a loaded engine's vectors (graph-build.ts), in the engine's ids */
  buildGraph(input: GraphInput): Promise<HnswSnapshot>;
  /** a full garbage collection of every isolate that builds or holds engines (memory-check.ts) */
  collect?(): Promise<void>;
  stop(): Promise<void>;
}

export class InlineEngineBuilder implements EngineBuilder {
  readonly mode = 'inline';
  constructor(private loader: EngineLoader) {}
  load(indexId: string) {
    return this.loader.load(indexId);
  }
  /** on this event loop, a step per few hundred nodes (searches and batches run between them) */
  async buildGraph(input: GraphInput): Promise<HnswSnapshot> {
    return (await runStepsByTurn(buildGraphSteps(input)))!;
  }
  async collect() {
    fullGc();
  }
  async stop() {}
}


export class ThreadEngineBuilder implements EngineBuilder {
  readonly mode = 'thread';
  private worker: Worker | undefined;
  private pending = new Map<number, { resolve(v: ThreadResult): void; reject(e: Error): void }>();
  private nextId = 1;

  /**
   * `startThread`: the thread to run (a bench's own, speaking engine-thread.serve.ts); default:
   * engine-thread.worker.ts on `dbUrl`, with this process's word vectors shared (hybrid indexes embed documents)
   */
  constructor(
    dbUrl: string,
    private log: Logger,
    private startThread: () => Worker = () => startWorker(import.meta.url, 'engine-thread.worker', { workerData: withSharedWordVectors({ dbUrl }) }),
  ) {}

  /** This isolate collected, then the engine thread's (its garbage from building engines from rows). */
  async collect(): Promise<void> {
    fullGc();
    if (this.worker) await this.call({ id: this.nextId++, op: 'gc' });
  }

  /** The engine thread's heap (its isolate's, not the process's); undefined while it is not running. */
  async threadMemory(): Promise<ThreadMemory | undefined> {
    if (!this.worker) return undefined;
    return (await this.call({ id: this.nextId++, op: 'memory' })) as ThreadMemory;
  }

  async load(indexId: string): Promise<LoadedEngine | undefined> {
    const id = this.nextId++;
    const r = (await this.call({ id, op: 'load', indexId })) as BuiltEngine | { found: false };
    return r.found ? this.receive(id, r) : undefined;
  }

  /** Built in the thread; the rows are moved there (transferred), the graph's arrays moved back. */
  async buildGraph(input: GraphInput): Promise<HnswSnapshot> {
    const r = (await this.call({ id: this.nextId++, op: 'graph', input }, [input.ids.buffer as ArrayBuffer, input.rows.buffer as ArrayBuffer])) as BuiltGraph;
    return r.graph;
  }

  /** The engine built by request `id`: its external ids pulled in chunks, then assembled here. */
  private async receive(id: number, r: BuiltEngine): Promise<LoadedEngine> {
    const snapshot: SnapshotData = r.snapshot;
    try {
      // every chunk asked for at once (the thread answers them in order, each a message of its own):
      // no round trip waits for the one before
      const calls: Promise<ThreadResult>[] = [];
      for (let from = 0; from < r.total; from += CHUNK) calls.push(this.call({ id: this.nextId++, op: 'chunk', of: id, from, size: CHUNK }));
      const extIds: string[] = [];
      for (const c of (await Promise.all(calls)) as { extIds: string[] }[]) for (const x of c.extIds) extIds.push(x);
      snapshot.extIds = extIds;
    } catch (e) {
      this.post({ id: this.nextId++, op: 'release', of: id });
      throw e;
    }
    // assembled in steps (per 5,000 documents, per segment), other work running between them
    const engine: Engine = (await runStepsByTurn(restoreSteps(snapshot, toEngineSettings(r.settings))))!;
    return { engine, version: r.version, settings: r.settings, settingsKey: settingsKey(r.settings), changedSinceSnapshot: r.changedSinceSnapshot, fromSnapshot: r.fromSnapshot };
  }

  /** Start the thread now (loading its modules takes a second), not on the first search. */
  start(): void {
    this.thread();
  }

  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('engine thread stopped: the process is stopping'));
    this.pending.clear();
    await w?.terminate();
  }

  private call(m: ThreadRequest, transfer: ArrayBuffer[] = []): Promise<ThreadResult> {
    return new Promise((resolve, reject) => {
      this.pending.set(m.id, { resolve, reject });
      this.post(m, transfer);
    });
  }

  private post(m: ThreadRequest, transfer: ArrayBuffer[] = []): void {
    this.thread().postMessage(m, transfer);
  }

  /** The engine thread, started on first use and again after it died. */
  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = this.startThread();
    w.unref();
    w.on('message', (m: ThreadReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(Object.assign(new Error(`engine thread: ${m.error}`), m.code ? { code: m.code } : {}));
    });
    const gone = (why: string) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.log.error('engine thread stopped; the next build starts a new one', { reason: why });
      for (const p of this.pending.values()) p.reject(new Error(`engine thread stopped: ${why}`));
      this.pending.clear();
    };
    w.on('error', (e) => gone(e.message));
    w.on('exit', (code) => gone(`exit code ${code}`));
    this.worker = w;
    return w;
  }
}
