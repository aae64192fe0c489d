// Worker-thread entry of the engine thread (engine-builder.ts): builds engines with its own small pg
// pool, so reading snapshots, re-indexing and compaction never run on the event loop that answers
// searches. A built engine goes back as its snapshot structure with the
// typed arrays transferred (moved, not copied: segments, columns and the deflated bodies); its
// external ids stay here until the main thread has pulled them in chunks, or released them.
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../../../lib/logger.js';
import { createPool } from '../db.js';
import { engineFactory } from '../../../lib/search-engine/index.js';
import { transferCodec, type SnapshotData } from '../../../lib/search-engine/snapshot.js';
import { EngineLoader, type LoadedEngine } from './engine-loader.js';
import type { ThreadReply, ThreadRequest, ThreadResult } from './engine-thread.protocol.js';

const port = parentPort!;
const { dbUrl } = workerData as { dbUrl: string };
const log = createLogger({ component: 'search-engine-thread' });
const pool = createPool(dbUrl, log, 2);
const loader = new EngineLoader(pool, engineFactory, log);
/** external ids of built engines, until the main thread has taken them */
const held = new Map<number, string[]>();

/** Answer request `id` with a built engine: typed arrays transferred, external ids held for `chunk`. */
function send(id: number, h: LoadedEngine): void {
  // the engine is dropped once sent: its arrays move to the main thread without a copy
  const codec = transferCodec({ move: true });
  const snapshot = h.engine.toSnapshot(codec) as SnapshotData;
  held.set(id, snapshot.extIds);
  const total = snapshot.extIds.length;
  snapshot.extIds = [];
  const result = { found: true as const, snapshot, total, version: h.version, settings: h.settings, changedSinceSnapshot: h.changedSinceSnapshot, fromSnapshot: h.fromSnapshot };
  port.postMessage({ id, ok: true, result } satisfies ThreadReply, codec.transfer);
}

async function handle(m: ThreadRequest): Promise<ThreadResult> {
  switch (m.op) {
    case 'load': {
      const h = await loader.load(m.indexId);
      if (!h) return { found: false };
      send(m.id, h);
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
  }
}

port.on('message', (m: ThreadRequest) => {
  handle(m).then(
    (result) => {
      if (result !== undefined) port.postMessage({ id: m.id, ok: true, result } satisfies ThreadReply);
    },
    (e: Error) => port.postMessage({ id: m.id, ok: false, error: e.message, code: (e as { code?: string }).code } satisfies ThreadReply),
  );
});
