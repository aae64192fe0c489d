// The in-memory engines of this process, one per index, as DERIVED data: PostgreSQL holds the
// documents and settings; an engine is (re)built from the latest snapshot plus the rows written
// after it, or from the rows alone, and catches up whenever the index row says a newer task has
// committed (another process's worker, or a restart). Every engine carries the version (task id)
// it reflects; all mutations of one engine run under its own lock.
import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type pg from 'pg';
import type { Logger } from '../../../lib/logger.js';
import type { Document, Engine, EngineFactory } from '../engine/types.js';
import type { IndexSettingsData } from '../indexes/index-settings.rules.js';
import { toEngineSettings, settingsKey } from './engine-settings.js';
import { one, rows as query, run, withTx } from '../db.js';
import { T } from '../sql.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

const INDEX_COLUMNS = 'id, settings, primary_key, applied_task_id, purged_through_task_id';
interface IndexRow {
  id: string;
  settings: IndexSettingsData;
  primary_key: string | null;
  applied_task_id: string;
  purged_through_task_id: string;
}
function toState(r: IndexRow): IndexState {
  return { id: r.id, settings: r.settings, appliedTaskId: Number(r.applied_task_id), purgedThroughTaskId: Number(r.purged_through_task_id) };
}
/** rows fetched per round trip when (re)building an engine */
const LOAD_PAGE = 5000;

/** What the registry needs to know about an index (a row read by the caller). */
export interface IndexState {
  id: string;
  settings: IndexSettingsData;
  appliedTaskId: number;
  purgedThroughTaskId: number;
}

interface Holder {
  engine: Engine;
  version: number;
  settingsKey: string;
  /** documents changed since the last snapshot (decides when to write the next one) */
  changedSinceSnapshot: number;
  lock: Promise<unknown>;
}

export class EngineRegistry {
  private holders = new Map<string, Holder>();
  private loading = new Map<string, Promise<Holder>>();

  constructor(
    private pool: pg.Pool,
    private factory: EngineFactory,
    private log: Logger,
  ) {}

  /** The engine of `index`, loaded and caught up to `index.appliedTaskId` and its settings. */
  async get(index: IndexState): Promise<Engine> {
    let h = this.holders.get(index.id);
    if (!h) h = await this.load(index);
    // A caller's row may be older than the engine (read before a task committed): only a newer
    // version, or different settings at the same version, sends the engine back to PostgreSQL.
    if (h.version < index.appliedTaskId || (h.version === index.appliedTaskId && h.settingsKey !== settingsKey(index.settings))) {
      await this.withLock(h, () => this.catchUp(h!, index.id));
    }
    return h.engine;
  }

  /** Loaded engines (for tests, metrics and snapshots). */
  loaded(indexId: string): { engine: Engine; version: number } | undefined {
    const h = this.holders.get(indexId);
    return h && { engine: h.engine, version: h.version };
  }

  /**
   * After a task committed: apply its effect to the loaded engine when that engine was exactly at
   * the previous version (the common case: this process's own worker). Otherwise leave it: the next
   * get() catches up from PostgreSQL, which already holds the result.
   */
  async applyCommitted(indexId: string, previous: number, taskId: number, apply: (e: Engine) => number | void): Promise<void> {
    const h = this.holders.get(indexId);
    if (!h) return;
    await this.withLock(h, async () => {
      if (h.version !== previous) return;
      try {
        const changed = apply(h.engine);
        h.version = taskId;
        h.changedSinceSnapshot += typeof changed === 'number' ? changed : 0;
      } catch (e) {
        // The database is right and the engine is not: rebuild it on next use.
        this.log.error('engine apply failed; the engine will be rebuilt', { indexId, taskId, err: e });
        this.holders.delete(indexId);
      }
    });
  }

  /** Settings committed by a task: the loaded engine takes them (or is rebuilt on next use). */
  async applySettings(indexId: string, previous: number, taskId: number, settings: IndexSettingsData): Promise<void> {
    await this.applyCommitted(indexId, previous, taskId, (e) => {
      e.updateSettings(toEngineSettings(settings));
      const h = this.holders.get(indexId);
      if (h) h.settingsKey = settingsKey(settings);
    });
  }

  drop(indexId: string): void {
    this.holders.delete(indexId);
  }

  /** Indexes whose engine changed enough since its last snapshot. */
  snapshotCandidates(threshold: number): string[] {
    return [...this.holders].filter(([, h]) => h.changedSinceSnapshot >= threshold).map(([id]) => id);
  }

  /**
   * Compact the engine, serialise it and store it (gzip'd) as the index's snapshot, then purge the
   * deletion tombstones the snapshot makes unnecessary. Skipped when a newer snapshot exists.
   */
  async snapshot(indexId: string): Promise<boolean> {
    const h = this.holders.get(indexId);
    if (!h) return false;
    let state: { json: string; version: number; size: number } | undefined;
    await this.withLock(h, async () => {
      h.engine.compact();
      state = { json: JSON.stringify(h.engine.toSnapshot()), version: h.version, size: h.engine.size };
      h.changedSinceSnapshot = 0;
    });
    if (!state) return false;
    const data = await gzipAsync(Buffer.from(state.json), { level: 1 });
    const written = await run(
      this.pool,
      `insert into ${T.snapshots} (index_id, task_id, data, documents, created_at)
       select $1::text, $2::bigint, $3::bytea, $4::int, now() where exists (select 1 from ${T.indexes} where id = $1::text)
       on conflict (index_id) do update set task_id = excluded.task_id, data = excluded.data,
              documents = excluded.documents, created_at = excluded.created_at
        where index_snapshots.task_id < excluded.task_id`,
      [indexId, state.version, data, state.size],
    );
    if (!written) return false;
    // Tombstones up to the snapshot are no longer needed to rebuild; engines older than that reload fully.
    // In one transaction, so a reader sees either both the horizon and the purge or neither.
    await withTx(this.pool, async (c) => {
      await run(c, `update ${T.indexes} set purged_through_task_id = greatest(purged_through_task_id, $1) where id = $2`, [state!.version, indexId]);
      await run(c, `delete from ${T.documents} where index_id = $1 and deleted and task_id <= $2`, [indexId, state!.version]);
    });
    this.log.info('engine snapshot written', { indexId, taskId: state.version, documents: state.size, bytes: data.length });
    return true;
  }

  private async load(index: IndexState): Promise<Holder> {
    let p = this.loading.get(index.id);
    if (!p) {
      p = this.build(index)
        .then((h) => {
          this.holders.set(index.id, h);
          return h;
        })
        .finally(() => this.loading.delete(index.id));
      this.loading.set(index.id, p);
    }
    return p;
  }

  private async build(index: IndexState): Promise<Holder> {
    const started = performance.now();
    const settings = toEngineSettings(index.settings);
    let h: Holder | undefined;
    const snap = await one<{ task_id: string; data: Buffer }>(this.pool, `select task_id, data from ${T.snapshots} where index_id = $1`, [index.id]);
    if (snap) {
      try {
        const json = (await gunzipAsync(snap.data)).toString('utf8');
        const engine = this.factory.fromSnapshot(JSON.parse(json), settings);
        h = { engine, version: Number(snap.task_id), settingsKey: settingsKey(index.settings), changedSinceSnapshot: 0, lock: Promise.resolve() };
      } catch (e) {
        this.log.warn('engine snapshot unusable; rebuilding from rows', { indexId: index.id, err: e });
      }
    }
    if (!h) {
      h = { engine: this.factory.create(settings), version: 0, settingsKey: settingsKey(index.settings), changedSinceSnapshot: 0, lock: Promise.resolve() };
      await this.fillFromRows(h, index.id);
    }
    await this.catchUp(h, index.id);
    this.log.info('engine loaded', { indexId: index.id, documents: h.engine.size, version: h.version, fromSnapshot: !!snap, ms: Math.round(performance.now() - started) });
    return h;
  }

  /** Every live row, in pages (keyset on the primary key). Sets the version to the index's applied task. */
  private async fillFromRows(h: Holder, indexId: string): Promise<void> {
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

  /**
   * Apply the current settings and the rows written after the engine's version (additions,
   * replacements, tombstones). One statement reads the index row and the rows, so the version,
   * the purge horizon and the rows come from one consistent snapshot.
   */
  private async catchUp(h: Holder, indexId: string): Promise<void> {
    const got = await query<IndexRow & { doc_id: string | null; body: Document | null; deleted: boolean | null }>(
      this.pool,
      `select i.${INDEX_COLUMNS.split(', ').join(', i.')}, d.doc_id, d.body, d.deleted
         from ${T.indexes} i left join ${T.documents} d on d.index_id = i.id and d.task_id > $2
        where i.id = $1`,
      [indexId, h.version],
    );
    if (!got.length) return; // deleted: the caller answers index_not_found on its next read
    const index = toState(got[0]);
    const key = settingsKey(index.settings);
    if (h.settingsKey !== key) {
      h.engine.updateSettings(toEngineSettings(index.settings));
      h.settingsKey = key;
    }
    if (h.version >= index.appliedTaskId) return;
    if (h.version < index.purgedThroughTaskId) {
      // Tombstones this engine still needs are gone: start again from the snapshot.
      const fresh = await this.build(index);
      Object.assign(h, { engine: fresh.engine, version: fresh.version, settingsKey: fresh.settingsKey, changedSinceSnapshot: fresh.changedSinceSnapshot });
      return;
    }
    const changed = got.filter((r) => r.doc_id !== null);
    const gone = changed.filter((r) => r.deleted).map((r) => r.doc_id!);
    const live = changed.filter((r) => !r.deleted && r.body).map((r) => r.body!);
    if (gone.length) h.engine.deleteDocuments(gone);
    if (live.length && got[0].primary_key) h.engine.addDocuments(live, got[0].primary_key);
    h.version = index.appliedTaskId;
    h.changedSinceSnapshot += changed.length;
  }

  private async withLock(h: Holder, fn: () => Promise<void> | void): Promise<void> {
    const run = h.lock.then(fn, fn);
    h.lock = run.catch(() => undefined);
    await run;
  }
}
