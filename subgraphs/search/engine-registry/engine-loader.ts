// Building an index's engine from PostgreSQL (reading a snapshot, re-indexing every document,
// compaction): runs in the engine thread (engine-thread.worker.ts) or, with SEARCH_ENGINE_THREAD=0,
// on the process's own event loop (engine-builder.ts); the registry only receives finished engines.
// Writing a snapshot of an engine the registry has loaded (writeSnapshot) streams it from that
// engine, on the registry's event loop, chunk by chunk.
//
// An engine is built from the index's latest snapshot (binary chunks, snapshot-store.ts) plus the
// rows written after it, or from all rows when there is no usable snapshot (none, an older format, a
// chunk failing its checksum: that snapshot is discarded, so it is reported once and never read
// again, and the next one replaces it), then caught up to the index's applied task:
// one statement reads the index row and the rows with a newer task id (additions, replacements,
// tombstones), so the version, the purge horizon and the rows come from one consistent snapshot.
import type pg from 'pg';
import type { Logger } from '../../../lib/logger.js';
import { one, rows as query, run } from '../db.js';
import type { Document, Engine, EngineFactory } from '../../../lib/search-engine/types.js';
import type { IndexSettingsData } from '../indexes/index-settings.rules.js';
import { T } from '../sql.js';
import { encodeSnapshot, SnapshotDecoder } from '../../../lib/search-engine/snapshot-binary.js';
import { rebuildNeeded, settingsKey, toEngineSettings } from '../indexes/engine-settings.js';
import { discardSnapshot, readSections, type StoredSnapshot, SNAPSHOT_STORE_FORMAT, SnapshotCorruptError, storedSnapshot, writeChunks } from './snapshot-store.js';

/** rows fetched per round trip when (re)building an engine */
const LOAD_PAGE = 5000;
const INDEX_COLUMNS = 'id, settings, primary_key, applied_task_id, purged_through_task_id';

interface IndexRow {
  id: string;
  settings: IndexSettingsData;
  primary_key: string | null;
  applied_task_id: string;
  purged_through_task_id: string;
}

/** An engine with what it reflects: the task it is current to, and the settings it was built with. */
export interface LoadedEngine {
  engine: Engine;
  version: number;
  settings: IndexSettingsData;
  settingsKey: string;
  /** documents changed since the last snapshot (decides when to write the next one) */
  changedSinceSnapshot: number;
  fromSnapshot: boolean;
}

/** What a catch-up did: the engine is current, the index is gone, or it must be built again. */
export type CatchUp = 'current' | 'gone' | 'reload';

export interface SnapshotWritten {
  version: number;
  documents: number;
  /** stored bytes (gzip'd chunks) */
  bytes: number;
  chunks: number;
  ms: number;
}

/** A loaded engine's state, taken at one moment (Engine.toSnapshot with KEEP_ARRAYS), to be written. */
export interface CapturedSnapshot {
  data: unknown;
  version: number;
  documents: number;
  /** replaces a snapshot at the same task (the engine's vector graph was built again since) */
  replace?: boolean;
}

/** default chunk size: 16 MiB before compression */
export const DEFAULT_CHUNK_BYTES = 16 * 1024 * 1024;

export class EngineLoader {
  constructor(
    private pool: pg.Pool,
    private factory: EngineFactory,
    private log: Logger,
    private chunkBytes = DEFAULT_CHUNK_BYTES,
  ) {}

  /**
   * The index's engine, built and caught up; undefined when the index no longer exists. A vector graph
   * that answers but is due again (an older builder's, or many dead nodes: Engine.graphDue) is left as
   * it is, so a search's load never waits for it: the registry has it built again in the background.
   */
  async load(indexId: string): Promise<LoadedEngine | undefined> {
    const started = performance.now();
    const index = await one<IndexRow>(this.pool, `select ${INDEX_COLUMNS} from ${T.indexes} where id = $1`, [indexId]);
    if (!index) return undefined;
    const settings = toEngineSettings(index.settings);
    let h: LoadedEngine | undefined;
    const snap = await storedSnapshot(this.pool, indexId);
    if (snap) {
      try {
        if (snap.format !== SNAPSHOT_STORE_FORMAT) throw new SnapshotCorruptError(`snapshot format ${snap.format}, this version reads ${SNAPSHOT_STORE_FORMAT}`);
        const data = await readSnapshot(this.pool, indexId, snap);
        const engine = this.factory.fromSnapshot(data, settings);
        h = { engine, version: snap.taskId, settings: index.settings, settingsKey: settingsKey(index.settings), changedSinceSnapshot: 0, fromSnapshot: true };
      } catch (e) {
        // replaced while we read it (a newer task, or the same task compacted): read that one
        const now = await storedSnapshot(this.pool, indexId);
        if (now && (now.taskId !== snap.taskId || now.createdAt !== snap.createdAt)) return this.load(indexId);
        this.log.warn('engine snapshot unusable; rebuilding from rows and discarding it', { indexId, taskId: snap.taskId, chunks: snap.chunks, err: e });
        await discardSnapshot(this.pool, indexId, snap.taskId);
      }
    }
    if (!h) {
      h = { engine: this.factory.create(settings), version: 0, settings: index.settings, settingsKey: settingsKey(index.settings), changedSinceSnapshot: 0, fromSnapshot: false };
      await this.fillFromRows(h, indexId);
    }
    const caught = await this.catchUp(h, indexId, true);
    if (caught === 'gone') return undefined;
    if (caught === 'reload') return this.load(indexId);
    // merged segments answer faster, and this is the one moment the engine is not shared; a layout
    // that changed (segments merged, the vector graph built or dropped) is due a snapshot (it replaces
    // the one at the same task), so the next load need not do it again
    const segments = h.engine.segmentCount;
    const graph = h.engine.compact(false);
    if (graph || h.engine.segmentCount !== segments) h.changedSinceSnapshot += h.engine.size;
    this.log.info('engine loaded', { indexId, documents: h.engine.size, version: h.version, fromSnapshot: h.fromSnapshot, ms: Math.round(performance.now() - started) });
    return h;
  }

  /**
   * Bring `h` to the index's applied task and settings. `heavy` false (the registry, on the event
   * loop every search shares) refuses work proportional to the index: a settings change that
   * re-indexes, a purge horizon past the engine (its tombstones are gone), or more than
   * `maxRows` changed rows; the answer is then 'reload' and the engine is built anew elsewhere.
   */
  async catchUp(h: LoadedEngine, indexId: string, heavy: boolean, maxRows = LOAD_PAGE): Promise<CatchUp> {
    if (!heavy) {
      const n = await one<{ n: string }>(
        this.pool,
        `select count(*) as n from (select 1 from ${T.documents} where index_id = $1 and task_id > $2 limit $3) x`,
        [indexId, h.version, maxRows + 1],
      );
      if (Number(n?.n ?? 0) > maxRows) return 'reload';
    }
    const got = await query<IndexRow & { doc_id: string | null; body: Document | null; deleted: boolean | null }>(
      this.pool,
      `select i.${INDEX_COLUMNS.split(', ').join(', i.')}, d.doc_id, d.body, d.deleted
         from ${T.indexes} i left join ${T.documents} d on d.index_id = i.id and d.task_id > $2
        where i.id = $1`,
      [indexId, h.version],
    );
    if (!got.length) return 'gone';
    const row = got[0];
    const appliedTaskId = Number(row.applied_task_id);
    const key = settingsKey(row.settings);
    if (h.version < appliedTaskId && h.version < Number(row.purged_through_task_id)) return 'reload';
    if (h.settingsKey !== key) {
      if (!heavy && rebuildNeeded(h.settings, row.settings)) return 'reload';
      h.engine.updateSettings(toEngineSettings(row.settings));
      h.settings = row.settings;
      h.settingsKey = key;
    }
    if (h.version >= appliedTaskId) return 'current';
    const changed = got.filter((r) => r.doc_id !== null);
    const gone = changed.filter((r) => r.deleted).map((r) => r.doc_id!);
    const live = changed.filter((r) => !r.deleted && r.body).map((r) => r.body!);
    if (gone.length) h.engine.deleteDocuments(gone);
    if (live.length && row.primary_key) h.engine.addDocuments(live, row.primary_key);
    h.version = appliedTaskId;
    h.changedSinceSnapshot += changed.length;
    return 'current';
  }

  /**
   * Store a captured engine state as the index's snapshot (skipped when a snapshot at the same or a
   * newer task exists, or the index is gone), then purge the deletion tombstones it makes
   * unnecessary, in the transaction that puts it in force.
   */
  async writeSnapshot(indexId: string, captured: CapturedSnapshot): Promise<SnapshotWritten | undefined> {
    const started = performance.now();
    const { version, documents } = captured;
    const { base, segments } = sections(captured.data);
    const r = await writeChunks(this.pool, {
      indexId,
      taskId: version,
      documents,
      pieces: encodeSnapshot(base),
      segments: segments.map((seg) => ({ key: seg.key, pieces: encodeSnapshot(seg) })),
      chunkBytes: this.chunkBytes,
      replace: captured.replace,
      // Tombstones up to the snapshot are no longer needed to rebuild; engines older than that reload
      // fully. In one transaction, so a reader sees either both the horizon and the purge or neither.
      after: async (c) => {
        await run(c, `update ${T.indexes} set purged_through_task_id = greatest(purged_through_task_id, $1) where id = $2`, [version, indexId]);
        await run(c, `delete from ${T.documents} where index_id = $1 and deleted and task_id <= $2`, [indexId, version]);
      },
    });
    if (!r.written) return undefined;
    const ms = Math.round(performance.now() - started);
    this.log.info('engine snapshot written', { indexId, taskId: version, documents, bytes: r.bytes, rawBytes: r.rawBytes, chunks: r.chunks, reusedSegments: r.reused, segments: segments.length, ms });
    return { version, documents, bytes: r.bytes, chunks: r.chunks, ms };
  }

  /** Every live row, in pages (keyset on the primary key). Sets the version to the index's applied task. */
  private async fillFromRows(h: LoadedEngine, indexId: string): Promise<void> {
    const row = await one<{ applied_task_id: string; primary_key: string | null }>(this.pool, `select applied_task_id, primary_key from ${T.indexes} where id = $1`, [indexId]);
    if (!row) return;
    // Rows committed while we read carry newer task ids; the catch-up that follows re-applies them.
    const version = Number(row.applied_task_id);
    let after = '';
    let added = 0;
    for (;;) {
      const rows = await query<{ doc_id: string; body: Document }>(
        this.pool,
        `select doc_id, body from ${T.documents} where index_id = $1 and not deleted and doc_id > $2 order by doc_id limit $3`,
        [indexId, after, LOAD_PAGE],
      );
      if (!rows.length) break;
      if (row.primary_key) added += h.engine.addDocuments(rows.map((r) => r.body), row.primary_key);
      after = rows[rows.length - 1].doc_id;
      if (rows.length < LOAD_PAGE) break;
    }
    h.version = version;
    h.changedSinceSnapshot = added;
  }
}

type EncodedSegment = Record<string, unknown> & { key: string };

/** A captured snapshot cut into its base (segments left as their keys) and its segments. */
function sections(data: unknown): { base: unknown; segments: EncodedSegment[] } {
  const d = data as { segments: EncodedSegment[] };
  return { base: { ...d, segments: d.segments.map((s) => ({ key: s.key })) }, segments: d.segments };
}

/** The stored snapshot read section by section (each a stream of its own) and put back together. */
export async function readSnapshot(pool: pg.Pool, indexId: string, snap: StoredSnapshot): Promise<unknown> {
  let base: { segments: EncodedSegment[] } | undefined;
  const segments = new Map<string, EncodedSegment>();
  for await (const section of readSections(pool, indexId, snap)) {
    const decoder = new SnapshotDecoder();
    for await (const chunk of section.chunks) decoder.push(chunk);
    if (section.key === null) base = decoder.finish() as { segments: EncodedSegment[] };
    else segments.set(section.key, decoder.finish() as EncodedSegment);
  }
  if (!base || !Array.isArray(base.segments)) throw new SnapshotCorruptError('snapshot has no base section');
  base.segments = base.segments.map((s) => {
    const seg = segments.get(s.key);
    if (!seg) throw new SnapshotCorruptError(`snapshot segment ${s.key} is missing`);
    return seg;
  });
  return base;
}
