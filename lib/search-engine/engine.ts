// One in-memory index: a liveness bitset, a list of immutable segments (one per addDocuments batch,
// merged by compact()), the columns ranking reads (columns.ts) and the bodies, compact (doc-store.ts). Internal ids only grow, so the segments' id
// ranges are ascending and disjoint and a document's segment is found by binary search.
import { bitset, clear, has, set, type Bitset } from './bitset.js';
import { compileFilter, evaluate } from './filter/evaluate.js';
import { valueAt } from './fields.js';
import { MatchScratch } from './match.js';
import { TermUnion } from './dictionary.js';
import { buildSynonyms, type SynonymIndex } from './query.js';
import { parseRankingRules, type Rule } from './ranking.js';
import { runSearch } from './search.js';
import { buildSegment, mergeSegments, mergeSegmentSteps, type BuildSpec, type Segment } from './segment.js';
import { documentId } from './document-id.js';
import { checkSettings, shapeOf, vectorShapeOf } from './settings.js';
import { VectorIndex } from './vector-index.js';
import { runSteps } from '../generator-steps.js';
import type { GraphInput, ReadyGraph } from './graph-build.js';
import type { HnswSnapshot } from './hnsw.js';
import { DocStore } from './doc-store.js';
import { IdTable } from './id-table.js';
import { Columns, columnShapeOf, columnSpec } from './columns.js';
import { snapshotOf, type Codec } from './snapshot.js';
import { engineBytes } from './memory.js';
import { analyzerFor, type Analyzer } from './analyzer.js';
import type { EngineState } from './state.js';
import { EngineError, type Document, type Engine, type EngineSettings, type SearchRequest, type SearchResult } from './types.js';

/** Segments below BASE live documents are level 0; each level is MERGE_FACTOR times larger. */
const BASE = 1000;
const MERGE_FACTOR = 4;
/** A segment with more dead documents than this share is rewritten by compact(). */
const MAX_DEAD_SHARE = 0.3;
const REBUILD_CHUNK = 8192;
/**
 * compact() makes no segment of more live documents than this: a merge holds its inputs and its output
 * at once, so this bounds compaction's extra memory (~150-250 MB of postings at the Debian corpus's
 * ~500 B per document) whatever the index size; an index of 1,000,000 documents keeps ~4 segments.
 */
export const MAX_MERGED_DOCS = 400_000;
/**
 * addDocuments itself merges the newest segments while they are small (levels 0 and 1: under 4,000 live
 * documents each), so a batch never costs more than indexing it plus merging four small segments
 * (≤ 16,000 documents, tens of ms), whatever the index size; larger merges wait for compact().
 */
const AUTO_MAX_LEVEL = 1;

/** Size level of a segment: 0 below BASE, then one level per MERGE_FACTOR times more documents. */
function level(live: number): number {
  return live < BASE ? 0 : Math.floor(Math.log(live / BASE) / Math.log(MERGE_FACTOR)) + 1;
}

function countLive(ids: Int32Array, alive: Bitset): number {
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (has(alive, ids[i])) n++;
  return n;
}

export class SegmentedEngine implements Engine, EngineState {
  settings!: EngineSettings;
  rules!: Rule[];
  stopWords!: Set<string>;
  noTypoWords!: Set<string>;
  synonyms!: SynonymIndex;
  analyzer!: Analyzer;
  segments: Segment[] = [];
  /** live documents per segment (same order as `segments`) */
  segLive: number[] = [];
  alive: Bitset = bitset(1024);
  nextId = 0;
  /** the bodies, deflated in blocks: only a page's hits are read back */
  store = new DocStore();
  columns!: Columns;
  extIds: (string | undefined)[] = [];
  /** external id → internal id, reading the keys from extIds (id-table.ts: no second copy, no Map entry) */
  idMap = new IdTable((id) => this.extIds[id]);
  scratch = new MatchScratch();
  dictionary = new TermUnion();
  /** attribute rank of each top-level field when searchable is ['*']: order of first appearance */
  fieldOrder = new Map<string, number>();
  live = 0;
  vectors: VectorIndex | null = null;
  /** the vectors the last graphInputSteps copied (a graph built from them is placed in these only) */
  private graphFrom: VectorIndex | null = null;

  constructor(settings: EngineSettings) {
    this.applySettings(checkSettings(settings));
    this.columns = new Columns(columnSpec(this.settings));
    this.embedAll();
  }

  attributeMask(names: readonly string[]): Uint8Array {
    const searchable = this.settings.searchableAttributes;
    const ranks: [string, number][] = searchable[0] === '*' ? [...this.fieldOrder] : searchable.map((a, i) => [a, i]);
    const mask = new Uint8Array(Math.max(1, ranks.length));
    // a name marks its own attribute and the nested ones searched under it ("author" → "author.name")
    for (const [name, rank] of ranks) if (names.some((o) => name === o || name.startsWith(`${o}.`))) mask[rank] = 1;
    return mask;
  }

  get size(): number {
    return this.live;
  }

  get segmentCount(): number {
    return this.segments.length;
  }

  private applySettings(s: EngineSettings): void {
    this.settings = s;
    this.rules = parseRankingRules(s.rankingRules);
    this.analyzer = analyzerFor(s.languages);
    this.stopWords = new Set(s.stopWords.flatMap((w) => this.analyzer.tokenize(w).slice(0, 1)));
    this.noTypoWords = new Set((s.typoTolerance.disableOnWords ?? []).flatMap((w) => this.analyzer.tokenize(w)));
    this.synonyms = buildSynonyms(s, this.analyzer);
  }

  updateSettings(settings: EngineSettings): void {
    const next = checkSettings(settings);
    const reshape = shapeOf(next) !== shapeOf(this.settings);
    const reembed = vectorShapeOf(next) !== vectorShapeOf(this.settings);
    const recolumn = columnShapeOf(next) !== columnShapeOf(this.settings);
    this.applySettings(next);
    if (reshape) this.rebuild();
    if (reembed) this.embedAll();
    if (recolumn) this.rebuildColumns();
  }

  /** The body of internal id `id` (undefined once deleted). */
  doc(id: number): Document | undefined {
    return has(this.alive, id) ? this.store.get(id) : undefined;
  }

  /** Columns for the current settings, read from every live body (sortable, distinct or rules changed). */
  rebuildColumns(): void {
    this.columns = new Columns(columnSpec(this.settings));
    if (this.columns.empty) return;
    for (const { id, doc } of this.store.live(this.alive, this.nextId)) this.columns.add(id, doc);
  }

  /** Compute every live document's vector for the current embedding attributes (none: drop them). */
  embedAll(): void {
    const attrs = this.settings.embeddingAttributes;
    this.vectors = attrs?.length ? new VectorIndex(attrs) : null;
    if (!this.vectors) return;
    this.vectors.add([...this.store.live(this.alive, this.nextId)], this.alive);
  }

  /** Re-index every live document (searchable or filterable attributes changed). Ids are kept. */
  rebuild(): void {
    this.fieldOrder.clear();
    this.segments = [];
    this.segLive = [];
    let chunk: { id: number; doc: Document }[] = [];
    const flush = () => {
      if (!chunk.length) return;
      this.segments.push(buildSegment(chunk, this.spec(chunk)));
      this.segLive.push(chunk.length);
      chunk = [];
    };
    for (const entry of this.store.live(this.alive, this.nextId)) {
      chunk.push(entry);
      if (chunk.length === REBUILD_CHUNK) flush();
    }
    flush();
    this.segmentsChanged();
  }

  /**
   * Bring what is derived from the list of segments up to date where it changes, not in a search: the
   * merged dictionary (dictionary.ts) is extended or rebuilt here, so no search pays for it.
   */
  segmentsChanged(): void {
    this.dictionary.view(this.segments);
  }

  spec(entries: { doc: Document }[]): BuildSpec {
    const searchable = this.settings.searchableAttributes;
    const filterable = this.settings.filterableAttributes;
    const geo = filterable.includes('_geo');
    if (searchable[0] !== '*') {
      return {
        tokenize: this.analyzer.tokenize.bind(this.analyzer),
        nAttrs: searchable.length,
        filterable,
        geo,
        searchable: (doc) => {
          const out: Array<[number, unknown]> = [];
          searchable.forEach((a, i) => {
            const v = valueAt(doc, a);
            if (v !== undefined) out.push([i, v]);
          });
          return out;
        },
      };
    }
    for (const { doc } of entries) for (const k of Object.keys(doc)) if (!this.fieldOrder.has(k)) this.fieldOrder.set(k, this.fieldOrder.size);
    const order = this.fieldOrder;
    return {
      tokenize: this.analyzer.tokenize.bind(this.analyzer),
      nAttrs: order.size,
      filterable,
      geo,
      searchable: (doc) =>
        Object.keys(doc)
          .map((k) => [order.get(k)!, doc[k]] as [number, unknown])
          .sort((a, b) => a[0] - b[0]),
    };
  }

  addDocuments(docs: Document[], primaryKey: string, texts?: readonly string[]): number {
    if (!Array.isArray(docs)) throw new EngineError('invalid_settings', 'documents must be an array', 'documents');
    // validate the whole batch first: a batch is applied completely or not at all; each id's last
    // document wins, in the order of the ids' last appearance
    const batch = new Map<string, number>();
    docs.forEach((doc, i) => {
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new EngineError('invalid_document_id', `Document ${i} is not an object`, 'documents');
      const ext = documentId(doc, primaryKey, i);
      batch.delete(ext);
      batch.set(ext, i);
    });
    if (!batch.size) return 0;
    const entries: { id: number; doc: Document }[] = [];
    for (const [ext, i] of batch) {
      const doc = docs[i];
      const old = this.idMap.get(ext);
      if (old !== undefined) this.kill(old);
      const id = this.nextId++;
      this.ensureCapacity(this.nextId);
      this.store.put(id, doc, texts?.[i]);
      this.columns.add(id, doc);
      this.extIds[id] = ext;
      this.idMap.set(ext, id);
      set(this.alive, id);
      this.live++;
      entries.push({ id, doc });
    }
    if (texts) this.store.ownOpenLines();
    this.segments.push(buildSegment(entries, this.spec(entries)));
    this.segLive.push(entries.length);
    this.mergeTail();
    this.segmentsChanged();
    this.vectors?.add(entries, this.alive);
    return entries.length;
  }

  /** Merge the last MERGE_FACTOR segments while they share a small level (see AUTO_MAX_LEVEL). */
  private mergeTail(): void {
    for (;;) {
      const tail = this.segments.length - MERGE_FACTOR;
      if (tail < 0) return;
      const l = level(this.segLive[tail]);
      if (l > AUTO_MAX_LEVEL) return;
      for (let i = tail + 1; i < this.segments.length; i++) if (level(this.segLive[i]) !== l) return;
      this.replace(tail, MERGE_FACTOR);
    }
  }

  deleteDocuments(ids: string[]): number {
    let n = 0;
    for (const raw of ids) {
      const id = this.idMap.get(String(raw));
      if (id === undefined) continue;
      this.kill(id);
      n++;
    }
    return n;
  }

  private kill(id: number): void {
    clear(this.alive, id);
    this.idMap.delete(this.extIds[id]!);
    this.columns.remove(id);
    this.extIds[id] = undefined;
    this.live--;
    const s = this.segmentIndexOf(id);
    if (s >= 0) this.segLive[s]--;
  }

  segmentIndexOf(id: number): number {
    let lo = 0;
    let hi = this.segments.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const seg = this.segments[mid];
      if (seg.docIds.length && seg.docIds[0] <= id) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  ensureCapacity(n: number): void {
    if (n <= this.alive.length * 32) return;
    const next = new Uint32Array(Math.max(this.alive.length * 2, (n + 31) >>> 5));
    next.set(this.alive);
    this.alive = next;
  }

  idOf(id: string): number | undefined {
    const i = this.idMap.get(id);
    return i !== undefined && has(this.alive, i) ? i : undefined;
  }

  getDocument(id: string): Document | undefined {
    const i = this.idMap.get(String(id));
    return i === undefined ? undefined : this.store.get(i);
  }

  filterIds(filter: SearchRequest['filter']): string[] {
    const node = compileFilter(filter, this.settings.filterableAttributes);
    const bits = node ? evaluate(node, { segments: this.segments, universe: this.alive }) : this.alive;
    const out: string[] = [];
    for (let id = 0; id < this.nextId; id++) if (has(bits, id) && has(this.alive, id)) out.push(this.extIds[id]!);
    return out;
  }

  search(req: SearchRequest): SearchResult {
    return runSearch(this, req);
  }

  /**
   * Tiered merging: drop empty segments, rewrite segments with many dead documents, and merge runs of
   * MERGE_FACTOR adjacent segments of the same size level (none larger than MAX_MERGED_DOCS). Each
   * document is merged O(log n) times. Also drops dead bodies and rebuilds the vector graph when too
   * many of its nodes are dead (doc-store.ts, vector-index.ts): compact() runs where the engine is not
   * shared yet (the engine thread, after a load). `rebuildGraph` false leaves a vector graph that
   * answers but is due again (graphDue) as it is.
   */
  compact(rebuildGraph = true): boolean {
    const graph = this.vectors?.compact(this.alive, rebuildGraph) ?? false;
    this.store.compact(this.alive, this.live);
    runSteps(this.compactSteps());
    return graph;
  }

  graphDue(): boolean {
    return this.vectors?.graphDue(this.alive) ?? false;
  }

  graphInputSteps(): Generator<void, GraphInput> | undefined {
    this.graphFrom = this.vectors;
    return this.vectors?.graphInputSteps(this.alive);
  }

  /** Refused (false) when the vectors were embedded again (embedAll) since graphInputSteps: the graph is of other vectors. */
  *readyGraphSteps(graph: HnswSnapshot, maxInserts: number): Generator<void, ReadyGraph | false> {
    const of = this.graphFrom;
    if (!of || this.vectors !== of) return false;
    const ready = yield* of.readyGraphSteps(graph, () => this.alive, maxInserts);
    return ready && { ...ready, of };
  }

  /** Refused (false) when the vectors are not those the graph was made ready from. */
  *placeGraphSteps(ready: ReadyGraph, maxInserts: number): Generator<void, number | false> {
    if (!this.vectors || this.vectors !== ready.of) return false;
    return yield* this.vectors.placeGraphSteps(ready.graph, this.alive, maxInserts);
  }

  /**
   * The segment merges of compact(), in steps, for an engine that keeps answering and changing between
   * them (the search service runs them on its event loop). One merge at a time, against a copy of the
   * liveness bitset taken when it starts; the merged segment replaces its inputs in one synchronous
   * step, and only if they are all still there (a tail merge or a re-index meanwhile: the merge is
   * dropped and compaction stops; the next one starts again). So memory peaks at the engine plus ONE
   * merged segment, and the inputs are garbage as soon as it is in place. Returns the merges done.
   */
  *compactSteps(): Generator<void, number> {
    let merges = 0;
    for (let plan = this.nextMerge(); plan; plan = this.nextMerge()) {
      const parts = this.segments.slice(plan.at, plan.at + plan.count);
      const merged = plan.drop ? null : yield* mergeSegmentSteps(parts, this.alive.slice());
      const at = this.segments.indexOf(parts[0]);
      if (at < 0 || parts.some((p, k) => this.segments[at + k] !== p)) return merges;
      if (merged) {
        this.segments.splice(at, parts.length, merged);
        // documents deleted while it merged are in it, dead: count its live ones now
        this.segLive.splice(at, parts.length, countLive(merged.docIds, this.alive));
      } else {
        this.segments.splice(at, parts.length);
        this.segLive.splice(at, parts.length);
      }
      // the inputs are garbage from here: not held by this frame through the turn below
      parts.length = 0;
      merges++;
      yield;
      this.segmentsChanged();
    }
    return merges;
  }

  /** The next step of tiered merging: a segment to drop (no live document) or segments to merge. */
  private nextMerge(): { at: number; count: number; drop: boolean } | undefined {
    for (let i = 0; i < this.segments.length; i++) {
      const total = this.segments[i].docIds.length;
      if (this.segLive[i] === 0) return { at: i, count: 1, drop: true };
      if (total > 0 && (total - this.segLive[i]) / total > MAX_DEAD_SHARE) return { at: i, count: 1, drop: false };
    }
    for (let i = 0; i + MERGE_FACTOR <= this.segments.length; i++) {
      const l = level(this.segLive[i]);
      let sum = this.segLive[i];
      let j = i + 1;
      while (j < this.segments.length && level(this.segLive[j]) === l && j - i < MERGE_FACTOR) sum += this.segLive[j++];
      if (j - i === MERGE_FACTOR && sum <= MAX_MERGED_DOCS) return { at: i, count: MERGE_FACTOR, drop: false };
    }
    return undefined;
  }

  private replace(at: number, count: number): void {
    const merged = mergeSegments(this.segments.slice(at, at + count), this.alive);
    this.segments.splice(at, count, merged);
    this.segLive.splice(at, count, merged.docIds.length);
  }

  shape(): string {
    return shapeOf(this.settings);
  }

  toSnapshot(codec?: Codec): unknown {
    return snapshotOf(this, codec);
  }

  memoryBytes(): number {
    return engineBytes(this, this.live);
  }
}
