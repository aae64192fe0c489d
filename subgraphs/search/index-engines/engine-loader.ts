// Building an index's engine from PostgreSQL, and writing its snapshot: the heavy work on engines
// (JSON.parse of a snapshot, re-indexing every document, compaction, serialising). Runs in the
// engine thread (engine-thread.worker.ts) or, with SEARCH_ENGINE_THREAD=0, on the process's own
// event loop (engine-builder.ts); the registry only receives finished engines.
//
// An engine is built from the index's latest snapshot (gzip'd JSON) plus the rows written after it,
// or from all rows when there is no usable snapshot, then caught up to the index's applied task:
// one statement reads the index row and the rows with a newer task id (additions, replacements,
// tombstones), so the version, the purge horizon and the rows come from one consistent snapshot.
import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type pg from 'pg';
import type { Logger } from '../../../lib/logger.js';
import { one, rows as query, run, withTx } from '../db.js';
import type { Document, Engine, EngineFactory } from '../engine/types.js';
import type { IndexSettingsData } from '../indexes/index-settings.rules.js';
import { T } from '../sql.js';
import { rebuildNeeded, settingsKey, toEngineSettings } from './engine-settings.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

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
  bytes: number;
}

export class EngineLoader {
  constructor(
    private pool: pg.Pool,
    private factory: EngineFactory,
    private log: Logger,
  ) {}

  /** The index's engine, built and caught up; undefined when the index no longer exists. */
  async load(indexId: string): Promise<LoadedEngine | undefined> {
    const started = performance.now();
    const index = await one<IndexRow>(this.pool, `select ${INDEX_COLUMNS} from ${T.indexes} where id = $1`, [indexId]);
    if (!index) return undefined;
    const settings = toEngineSettings(index.settings);
    let h: LoadedEngine | undefined;
    const snap = await one<{ task_id: string; data: Buffer }>(this.pool, `select task_id, data from ${T.snapshots} where index_id = $1`, [indexId]);
    if (snap) {
      try {
        const json = (await gunzipAsync(snap.data)).toString('utf8');
        const engine = this.factory.fromSnapshot(JSON.parse(json), settings);
        h = { engine, version: Number(snap.task_id), settings: index.settings, settingsKey: settingsKey(index.settings), changedSinceSnapshot: 0, fromSnapshot: true };
      } catch (e) {
        this.log.warn('engine snapshot unusable; rebuilding from rows', { indexId, err: e });
      }
    }
    if (!h) {
      h = { engine: this.factory.create(settings), version: 0, settings: index.settings, settingsKey: settingsKey(index.settings), changedSinceSnapshot: 0, fromSnapshot: false };
      await this.fillFromRows(h, indexId);
    }
    const caught = await this.catchUp(h, indexId, true);
    if (caught === 'gone') return undefined;
    if (caught === 'reload') return this.load(indexId);
    // merged segments answer faster, and this is the one moment the engine is not shared
    h.engine.compact();
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
   * Build the index's engine (from its last snapshot and the rows after it), compact it, serialise
   * it and store it gzip'd as the index's snapshot, then purge the deletion tombstones the snapshot
   * makes unnecessary. Skipped when a newer snapshot exists or the index is gone. Returns the engine
   * it built too (compacted, current to `written.version`), for the registry to take.
   */
  async writeSnapshot(indexId: string): Promise<{ written?: SnapshotWritten; loaded?: LoadedEngine }> {
    const h = await this.load(indexId);
    if (!h) return {};
    const json = JSON.stringify(h.engine.toSnapshot());
    const data = await gzipAsync(Buffer.from(json), { level: 1 });
    const written = await run(
      this.pool,
      `insert into ${T.snapshots} (index_id, task_id, data, documents, created_at)
       select $1::text, $2::bigint, $3::bytea, $4::int, now() where exists (select 1 from ${T.indexes} where id = $1::text)
       on conflict (index_id) do update set task_id = excluded.task_id, data = excluded.data,
              documents = excluded.documents, created_at = excluded.created_at
        where index_snapshots.task_id < excluded.task_id`,
      [indexId, h.version, data, h.engine.size],
    );
    if (!written) return { loaded: h };
    // Tombstones up to the snapshot are no longer needed to rebuild; engines older than that reload fully.
    // In one transaction, so a reader sees either both the horizon and the purge or neither.
    await withTx(this.pool, async (c) => {
      await run(c, `update ${T.indexes} set purged_through_task_id = greatest(purged_through_task_id, $1) where id = $2`, [h.version, indexId]);
      await run(c, `delete from ${T.documents} where index_id = $1 and deleted and task_id <= $2`, [indexId, h.version]);
    });
    this.log.info('engine snapshot written', { indexId, taskId: h.version, documents: h.engine.size, bytes: data.length });
    h.changedSinceSnapshot = 0;
    return { written: { version: h.version, documents: h.engine.size, bytes: data.length }, loaded: h };
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
