// Messages between the search process and its engine thread (engine-thread.worker.ts).
import type { SnapshotData } from '../engine/snapshot.js';
import type { Document } from '../engine/types.js';
import type { IndexSettingsData } from '../indexes/index-settings.rules.js';
import type { SnapshotWritten } from './engine-loader.js';

export type ThreadRequest =
  | { id: number; op: 'load'; indexId: string }
  /** write the index's snapshot; `handBack`: and send the engine built for it, as `load` does */
  | { id: number; op: 'snapshot'; indexId: string; handBack: boolean }
  /** documents [from, from + size) of the engine built by request `of` */
  | { id: number; op: 'chunk'; of: number; from: number; size: number }
  | { id: number; op: 'release'; of: number };

/** A built engine: its snapshot structure without documents (typed arrays transferred). */
export interface BuiltEngine {
  found: true;
  snapshot: SnapshotData;
  /** documents to pull with `chunk` */
  total: number;
  version: number;
  settings: IndexSettingsData;
  changedSinceSnapshot: number;
  fromSnapshot: boolean;
  /** for `snapshot`: what was written */
  written?: SnapshotWritten;
}

export type ThreadResult = BuiltEngine | { found: false; written?: SnapshotWritten } | { docs: Document[]; extIds: string[] } | null | undefined;

export type ThreadReply = { id: number; ok: true; result: ThreadResult } | { id: number; ok: false; error: string; code?: string };
