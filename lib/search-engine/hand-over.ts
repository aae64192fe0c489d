// Handing a built engine to another thread (the search service's engine thread → its event loop): the
// engine's snapshot structure with its typed arrays listed for postMessage's transfer list (moved, not
// copied). The engine is given up: its arrays now belong to the receiver.
import { transferCodec, type SnapshotData } from './snapshot.js';
import type { Engine } from './types.js';

export function handOver(engine: Engine): {
  snapshot: SnapshotData;
  transfer: ArrayBuffer[];
} {
  const codec = transferCodec({ move: true });
  const snapshot = engine.toSnapshot(codec) as SnapshotData;
  return { snapshot, transfer: codec.transfer };
}
