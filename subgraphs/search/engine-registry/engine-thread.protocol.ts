// Messages between the search process and its engine thread (engine-thread.worker.ts).
import type { SnapshotData } from '../../../lib/search-engine/snapshot.js';
import type { GraphInput, HnswSnapshot } from '../../../lib/search-engine/index.js';
import type { IndexSettingsData } from '../indexes/index-settings.rules.js';

export type ThreadRequest =
  | { id: number; op: 'load'; indexId: string }
  /** a vector graph built from a loaded engine's vectors (graph-build.ts; the rows transferred) */
  | { id: number; op: 'graph'; input: GraphInput }
  /** external ids [from, from + size) of the engine built by request `of` */
  | { id: number; op: 'chunk'; of: number; from: number; size: number }
  | { id: number; op: 'release'; of: number }
  /** the thread's own heap (the registry's memory check) */
  | { id: number; op: 'memory' }
  /** a full garbage collection of the thread's isolate; answers its heap after it */
  | { id: number; op: 'gc' };

/** The engine thread's isolate: its V8 heap (committed and used) and the external memory it accounts. */
export interface ThreadMemory {
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** A built engine: its snapshot structure without external ids (typed arrays transferred). */
export interface BuiltEngine {
  found: true;
  snapshot: SnapshotData;
  /** external ids to pull with `chunk` */
  total: number;
  version: number;
  settings: IndexSettingsData;
  changedSinceSnapshot: number;
  fromSnapshot: boolean;
}

/** A built vector graph, in the engine's ids (its arrays transferred). */
export interface BuiltGraph {
  graph: HnswSnapshot;
}

export type ThreadResult = BuiltEngine | { found: false } | { extIds: string[] } | BuiltGraph | ThreadMemory | null | undefined;

export type ThreadReply = { id: number; ok: true; result: ThreadResult } | { id: number; ok: false; error: string; code?: string };
