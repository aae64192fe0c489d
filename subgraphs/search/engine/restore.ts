// An engine from a snapshot (snapshot.ts); re-indexes the snapshot's documents when it was made for other
// searchable/filterable attributes than `settings`, and embeds them again when its vectors were made
// from other embedding attributes (or it has none).
import { has } from './bitset.js';
import { SegmentedEngine } from './engine.js';
import { decodeAlive, decodeIds, decodeSegment, decodeVectors, isSnapshot } from './snapshot.js';
import { EngineError, type EngineSettings } from './types.js';

export function restoreEngine(snapshot: unknown, settings: EngineSettings): SegmentedEngine {
  if (!isSnapshot(snapshot)) throw new EngineError('invalid_settings', 'Not a search engine snapshot (or an older format)', 'snapshot');
  const e = new SegmentedEngine(settings);
  const ids = decodeIds(snapshot);
  e.nextId = snapshot.nextId;
  e.alive = decodeAlive(snapshot);
  e.ensureCapacity(e.nextId);
  ids.forEach((id, i) => {
    e.docs[id] = snapshot.docs[i];
    e.extIds[id] = snapshot.extIds[i];
    e.idMap.set(snapshot.extIds[i], id);
  });
  e.live = ids.length;
  const vectors = decodeVectors(snapshot, e.settings.embeddingAttributes);
  if (vectors) e.vectors = vectors;
  else e.embedAll();
  if (snapshot.shape !== e.shape()) {
    e.rebuild();
    return e;
  }
  snapshot.fieldOrder.forEach((f, i) => e.fieldOrder.set(f, i));
  e.segments = snapshot.segments.map(decodeSegment);
  e.segLive = e.segments.map((s) => s.docIds.reduce((n, id) => n + (has(e.alive, id) ? 1 : 0), 0));
  return e;
}
