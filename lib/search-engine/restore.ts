// An engine from a snapshot (snapshot.ts); re-indexes the snapshot's documents when it was made for other
// searchable/filterable attributes than `settings`, and embeds them again when its vectors were made
// from other embedding attributes (or it has none). `restoreSteps` does the same work in steps (per
// 5,000 documents, per segment), so a caller on a shared event loop can let other work run between them;
// each step yields the phase it just worked on (bench/search-restore.bench.ts times them).
import { has } from './bitset.js';
import { SegmentedEngine } from './engine.js';
import { decodeAlive, decodeColumns, decodeIdTable, decodeIds, decodeSegment, decodeStore, decodeVectors, isSnapshot } from './snapshot.js';
import { Columns, columnSpec } from './columns.js';
import { EngineError, type EngineSettings } from './types.js';
import { runSteps } from '../generator-steps.js';

const DOCS_PER_STEP = 5000;

/** what a step of restoreSteps worked on */
export type RestorePhase = 'ids' | 'store' | 'columns' | 'vectors' | 'segments' | 'dictionary' | 'rebuild';

export function* restoreSteps(snapshot: unknown, settings: EngineSettings): Generator<RestorePhase, SegmentedEngine> {
  if (!isSnapshot(snapshot)) throw new EngineError('invalid_settings', 'Not a search engine snapshot (or an older format)', 'snapshot');
  const e = new SegmentedEngine(settings);
  const ids = decodeIds(snapshot);
  e.nextId = snapshot.nextId;
  e.alive = decodeAlive(snapshot);
  e.ensureCapacity(e.nextId);
  e.store = decodeStore(snapshot);
  yield 'store';
  // external ids by internal id, packed (no holes: the ids without a document hold undefined)
  const ext = snapshot.extIds;
  if (ext.length !== ids.length) throw new EngineError('invalid_settings', 'Snapshot ids and external ids differ in number', 'snapshot');
  if (ids.length === e.nextId) e.extIds = ext.slice();
  else {
    const out: (string | undefined)[] = [];
    for (let id = 0, i = 0; id < e.nextId; id++) out.push(ids[i] === id ? ext[i++] : undefined);
    e.extIds = out;
  }
  e.live = ids.length;
  // the id table as the snapshot holds it, else hashed again (older snapshots)
  if (!e.idMap.adopt(decodeIdTable(snapshot), ids.length)) {
    e.idMap.reserve(ids.length);
    for (let i = 0; i < ids.length; i++) {
      e.idMap.set(ext[i], ids[i]);
      if (i % DOCS_PER_STEP === DOCS_PER_STEP - 1) yield 'ids';
    }
  }
  yield 'ids';
  const columns = Columns.fromData(decodeColumns(snapshot), columnSpec(e.settings));
  if (columns) e.columns = columns;
  else e.rebuildColumns();
  yield 'columns';
  const vectors = decodeVectors(snapshot, e.settings.embeddingAttributes);
  if (vectors) e.vectors = vectors;
  else e.embedAll();
  yield 'vectors';
  if (snapshot.shape !== e.shape()) {
    e.rebuild();
    yield 'rebuild';
    return e;
  }
  snapshot.fieldOrder.forEach((f, i) => e.fieldOrder.set(f, i));
  for (const s of snapshot.segments) {
    const seg = decodeSegment(s);
    e.segments.push(seg);
    e.segLive.push(seg.docIds.reduce((n, id) => n + (has(e.alive, id) ? 1 : 0), 0));
    yield 'segments';
  }
  // the union as the snapshot holds it (older snapshots: merged from the segments here)
  e.dictionary.adopt(snapshot.dictionary, e.segments);
  e.segmentsChanged();
  yield 'dictionary';
  return e;
}

export function restoreEngine(snapshot: unknown, settings: EngineSettings): SegmentedEngine {
  return runSteps(restoreSteps(snapshot, settings));
}
