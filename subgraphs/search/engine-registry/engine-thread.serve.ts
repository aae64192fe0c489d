// The engine thread's side of its protocol (engine-thread.protocol.ts), whatever builds the engines:
// the search service's thread (engine-thread.worker.ts: from PostgreSQL) or a bench's. A built engine
// goes back as its snapshot structure with the typed arrays transferred (moved, not copied); its
// external ids stay here until the main thread has pulled them in chunks, or released them.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { handOver } from '../../../lib/search-engine/hand-over.js';
import { buildGraphSteps } from '../../../lib/search-engine/index.js';
import { fullGc } from '../../../lib/full-gc.js';
import type { LoadedEngine } from './engine-loader.js';
import type { ThreadMemory, ThreadReply, ThreadRequest, ThreadResult } from './engine-thread.protocol.js';
import { runSteps } from '../../../lib/generator-steps.js';

/**
 * The thread collects itself (full-gc.ts) once the engines it built since its last collection add up to
 * this: building leaves garbage (parsed rows, arrays outgrown while indexing) that V8 would keep until
 * its heap or external memory grows much further, and the small arrays among it would fragment the
 * allocator's arena of this thread (docs/search.md, "What the memory budget counts"). Only this
 * thread pauses, not the event loop.
 */
const COLLECT_EVERY_BYTES = 32 * 2 ** 20;

/** This isolate's heap, as the registry's memory check counts it (engine-thread.protocol.ts). */
export function threadMemory(): ThreadMemory {
  const h = getHeapStatistics();
  return {
    heapTotal: h.total_heap_size,
    heapUsed: h.used_heap_size,
    external: h.external_memory,
  };
}

/** Answer the main thread's requests on `parentPort`, building engines with `load`. */
export function serveEngineThread(load: (indexId: string) => Promise<LoadedEngine | undefined>): void {
  const port = parentPort!;
  /** external ids of built engines, until the main thread has taken them */
  const held = new Map<number, string[]>();

  /** engines' bytes built since this thread's last collection */
  let built = 0;

  /** Answer request `id` with a built engine, which is dropped here once sent. */
  function send(id: number, h: LoadedEngine): void {
    built += h.engine.memoryBytes();
    const { snapshot, transfer } = handOver(h.engine);
    held.set(id, snapshot.extIds);
    const total = snapshot.extIds.length;
    snapshot.extIds = [];
    const result = {
      found: true as const,
      snapshot,
      total,
      version: h.version,
      settings: h.settings,
      changedSinceSnapshot: h.changedSinceSnapshot,
      fromSnapshot: h.fromSnapshot,
    };
    port.postMessage({ id, ok: true, result } satisfies ThreadReply, transfer);
    if (built >= COLLECT_EVERY_BYTES) collect();
  }

  function collect(): void {
    built = 0;
    fullGc();
  }

  async function handle(m: ThreadRequest): Promise<ThreadResult> {
    switch (m.op) {
      case 'load': {
        const h = await load(m.indexId);
        if (!h) return { found: false };
        send(m.id, h);
        return undefined;
      }
      case 'graph': {
        const graph = runSteps(buildGraphSteps(m.input));
        built += m.input.rows.byteLength;
        port.postMessage({ id: m.id, ok: true, result: { graph } } satisfies ThreadReply, [graph.nodes.buffer as ArrayBuffer, graph.links.buffer as ArrayBuffer]);
        if (built >= COLLECT_EVERY_BYTES) collect();
        return undefined;
      }
      case 'chunk': {
        const d = held.get(m.of);
        if (!d) throw new Error(`no built engine ${m.of}`);
        const end = Math.min(d.length, m.from + m.size);
        const chunk = { extIds: d.slice(m.from, end) };
        if (end >= d.length) held.delete(m.of);
        return chunk;
      }
      case 'release':
        held.delete(m.of);
        return null;
      case 'memory':
        return threadMemory();
      case 'gc':
        collect();
        return threadMemory();
    }
  }

  port.on('message', (m: ThreadRequest) => {
    handle(m).then(
      (result) => {
        if (result !== undefined)
          port.postMessage({
            id: m.id,
            ok: true,
            result,
          } satisfies ThreadReply);
      },
      (e: Error) =>
        port.postMessage({
          id: m.id,
          ok: false,
          error: e.message,
          code: (e as { code?: string }).code,
        } satisfies ThreadReply),
    );
  });
}
