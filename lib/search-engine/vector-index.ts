// The vectors of an index with `embeddingAttributes`: one L2-normalised embedding per document (the
// AI service's default model glove-sif-100d, lib/word-vectors.ts, one copy for both services) of the
// text of those attributes, stored flat by internal id, and the nearest-neighbour search over them:
//  - an exact cosine scan while at most EXACT_MAX documents can be results (the index is small, or
//    the filter leaves few): every allowed vector is compared, recall is 1;
//  - HNSW (hnsw.ts) above that: the graph is built once the index holds EXACT_MAX vectors and then
//    grows with every batch; a filter is applied during the walk (rejected nodes are passed through).
// Vectors are derived data like the inverted index: computed when the engine indexes a document (in
// the task that adds it), kept in snapshots, and recomputed when the embedding attributes change or
// the snapshot names another model (an index embedded with hashed-ngrams-384 before issue 31 is
// embedded again on load).
import { sifEmbedding, WORD_VECTOR_DIMENSIONS, WORD_VECTORS_MODEL } from '../word-vectors.js';
import { and, bitset, count, has, set, toIds, type Bitset } from './bitset.js';
import { valueAt, visitText } from './fields.js';
import { Heap } from './heap.js';
import { Hnsw, HNSW_BUILDER, nonZeroDims, simTo, type HnswSnapshot, type Probe } from './hnsw.js';
import type { GraphInput } from './graph-build.js';
import type { Document } from './types.js';

/** Up to this many candidate vectors a search scans them all (exact); above it uses the HNSW graph. */
export const EXACT_MAX = 10_000;
/** Width of the HNSW search at level 0 (at least the number of results asked for). */
export const EF_SEARCH = 200;
/** Rows copied per step of graphInputSteps (2 MB at 100 dimensions). */
const ROWS_PER_STEP = 5_000;
/** Graph insertions per step of readyGraphSteps and placeGraphSteps (tens of ms). */
const INSERTS_PER_STEP = 100;
/** A graph with more dead nodes than this share is rebuilt by compact(). */
const MAX_DEAD_SHARE = 0.3;
export const EMBEDDING_MODEL = WORD_VECTORS_MODEL;
export const EMBEDDING_DIMENSIONS = WORD_VECTOR_DIMENSIONS;

/** The model's vector of a text, as float32; null for a text without words. */
export function embed(text: string): Float32Array | null {
  const { vector, tokens } = sifEmbedding(text);
  return tokens ? Float32Array.from(vector) : null;
}

/** The text embedded for a document: its embedding attributes' strings in listed order. */
export function embeddingText(doc: Document, attributes: readonly string[]): string {
  const parts: string[] = [];
  for (const a of attributes) visitText(valueAt(doc, a), (t) => parts.push(t));
  return parts.join('\n');
}

export interface Neighbours {
  ids: number[];
  /** cosine similarity of each, best first */
  sims: number[];
}

/** Vectors stored sparsely (kept from the hashed model, whose short texts were mostly zeros): per id its count of
 *  non-zero dimensions, then those dimensions and their values, concatenated in id order. */
export interface VectorSnapshot {
  model: string;
  attributes: string[];
  ids: Int32Array;
  counts: Uint16Array;
  dims: Uint16Array;
  values: Float32Array;
  hnsw: HnswSnapshot | null;
}

export class VectorIndex {
  static readonly model = EMBEDDING_MODEL;
  readonly dims = EMBEDDING_DIMENSIONS;
  /** vectors by internal id (`dims` floats each); ids without a vector are zeros */
  data = new Float32Array(0);
  /** ids that have a vector */
  present: Bitset = bitset(0);
  /** non-zero dimensions of sparse vectors by id (hnsw.ts, Probe) */
  nonZero: (Uint16Array | undefined)[] = [];
  graph: Hnsw | null = null;

  constructor(readonly attributes: readonly string[]) {}

  /** Embed and store the documents (new internal ids); the graph takes them once it exists or is due. */
  add(entries: readonly { id: number; doc: Document }[], alive: Bitset): void {
    for (const { id, doc } of entries) {
      const v = embed(embeddingText(doc, this.attributes));
      if (v) this.put(id, v);
    }
    this.index(entries.map((e) => e.id), alive);
  }

  put(id: number, v: Float32Array): void {
    this.reserve(id + 1);
    this.data.set(v, id * this.dims);
    this.nonZero[id] = nonZeroDims(this.data, id * this.dims, this.dims);
    set(this.present, id);
  }

  /** Insert `ids` into the graph; build the graph from every live vector once there are EXACT_MAX of them. */
  private index(ids: number[], alive: Bitset): void {
    if (this.graph) {
      for (const id of ids) if (has(this.present, id) && has(alive, id)) this.graph.insert(id);
      return;
    }
    if (count(this.candidates(alive)) > EXACT_MAX) this.buildGraph(alive);
  }

  buildGraph(alive: Bitset): void {
    const graph = new Hnsw(this);
    for (const id of toIds(and(this.present, this.sized(alive)))) graph.insert(id);
    this.graph = graph;
  }

  private reserve(n: number): void {
    if (this.data.length >= n * this.dims) return;
    const cap = Math.max(n, Math.ceil((this.data.length / this.dims) * 1.5), 1024);
    const data = new Float32Array(cap * this.dims);
    data.set(this.data);
    this.data = data;
    const present = bitset(cap);
    present.set(this.present);
    this.present = present;
  }

  /** `b` resized to the store's capacity (bitsets of the engine may be shorter or longer). */
  private sized(b: Bitset): Bitset {
    if (b.length === this.present.length) return b;
    const out = bitset(this.present.length * 32);
    out.set(b.length > out.length ? b.subarray(0, out.length) : b);
    return out;
  }

  vector(id: number): Float32Array | undefined {
    return has(this.present, id) ? this.data.subarray(id * this.dims, (id + 1) * this.dims) : undefined;
  }

  /** Cosine similarity of the unit query vector with document `id`, or undefined without a vector. */
  similarity(q: Float32Array, id: number): number | undefined {
    return has(this.present, id) ? simTo({ vec: q, off: 0, nz: undefined }, this.data, id * this.dims, this.dims) : undefined;
  }

  /** The allowed documents that have a vector (the pure vector search's candidates). */
  candidates(allowed: Bitset): Bitset {
    return and(this.sized(allowed), this.present);
  }

  /** The k allowed documents most similar to the unit vector `q`, best first. */
  nearest(q: Float32Array, allowed: Bitset, k: number): Neighbours {
    const cands = this.candidates(allowed);
    const n = count(cands);
    if (!this.graph || n <= EXACT_MAX) return this.exact(q, toIds(cands), k);
    // a filter that rejects most nodes needs a wider walk to find k accepted ones
    const share = n / Math.max(1, this.graph.size);
    const ef = Math.min(4 * EXACT_MAX, Math.ceil(Math.max(EF_SEARCH, k) / Math.min(1, share)));
    const r = this.graph.search(q, k, ef, (id) => has(cands, id));
    // the graph only holds documents indexed after it was built and before: anything missing (none
    // in practice) would be found by the exact scan, so a short answer falls back to it
    return r.ids.length < Math.min(k, n) ? this.exact(q, toIds(cands), k) : r;
  }

  /** Exact scan: every candidate compared, the k best kept in a bounded heap. */
  exact(q: Float32Array, ids: ArrayLike<number>, k: number): Neighbours {
    const heap = new Heap(Math.max(16, k + 1));
    const probe: Probe = { vec: q, off: 0, nz: nonZeroDims(q, 0, this.dims) };
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const s = simTo(probe, this.data, id * this.dims, this.dims);
      if (heap.size < k) heap.push(id, s);
      else if (k > 0 && s > heap.topKey()) {
        heap.pop();
        heap.push(id, s);
      }
    }
    const out: Neighbours = { ids: new Array(heap.size), sims: new Array(heap.size) };
    for (let i = heap.size - 1; i >= 0; i--) {
      out.sims[i] = heap.topKey();
      out.ids[i] = heap.pop();
    }
    return out;
  }

  /**
   * What compact() does to the graph: 'build' when it is missing and due, of an older builder, or
   * has more than MAX_DEAD_SHARE of dead nodes; 'drop' at EXACT_MAX live vectors or fewer.
   */
  private graphChange(alive: Bitset): 'build' | 'drop' | undefined {
    const live = count(this.candidates(alive));
    if (!this.graph) return live > EXACT_MAX ? 'build' : undefined;
    if (live <= EXACT_MAX) return 'drop';
    const dead = (this.graph.size - live) / this.graph.size;
    return this.graph.builder !== HNSW_BUILDER || dead > MAX_DEAD_SHARE ? 'build' : undefined;
  }

  /** The graph answers but wants building again (an older builder's, or many dead nodes): compact(alive, false) leaves it. */
  graphDue(alive: Bitset): boolean {
    return this.graph !== null && this.graphChange(alive) === 'build';
  }

  /**
   * Build the graph when it is missing and due, drop it below EXACT_MAX, and, with `rebuild`, build
   * it again when graphDue (seconds per 10,000 vectors: the search service builds that one from the
   * loaded engine's vectors in its engine thread instead, graph-build.ts, so a search never waits for
   * it). Returns whether the graph changed (a snapshot is then due).
   */
  compact(alive: Bitset, rebuild = true): boolean {
    const change = this.graphChange(alive);
    if (change === 'drop') this.graph = null;
    else if (change === 'build' && (rebuild || !this.graph)) this.buildGraph(alive);
    else return false;
    return true;
  }

  /**
   * The live vectors a graph built elsewhere is made of (graph-build.ts), packed, copied a step per
   * ROWS_PER_STEP rows: rows never change once written, and `data` is read again at each step (it is
   * replaced when it grows), so the engine may take batches between the steps.
   */
  *graphInputSteps(alive: Bitset): Generator<void, GraphInput> {
    const ids = Int32Array.from(toIds(this.candidates(alive)));
    const dims = this.dims;
    const rows = new Float32Array(ids.length * dims);
    for (let i = 0; i < ids.length; i++) {
      rows.set(this.data.subarray(ids[i] * dims, (ids[i] + 1) * dims), i * dims);
      if ((i + 1) % ROWS_PER_STEP === 0) yield;
    }
    return { dims, ids, rows };
  }

  /**
   * A graph built elsewhere from graphInputSteps' rows, made ready to take this graph's place: restored
   * (20,000 nodes a step), then given the live vectors it lacks (added since the copy), INSERTS_PER_STEP
   * a step. It changes nothing of this index, and rows never change once written, so the engine
   * answers and takes batches between the steps with no lock; `alive` is read when the steps need it.
   * False when more than `maxInserts` are missing (the build is out of date).
   */
  *readyGraphSteps(s: HnswSnapshot, alive: () => Bitset, maxInserts: number): Generator<void, { graph: Hnsw; inserted: number } | false> {
    const graph = yield* Hnsw.restoreSteps(this, s);
    const inserted = yield* this.insertMissingSteps(graph, alive(), maxInserts);
    return inserted !== false && { graph, inserted };
  }

  /**
   * Put a graph from readyGraphSteps in place of this one, inserting the live vectors that came in
   * since, in steps (the caller keeps the vectors unchanged between them: the search service holds
   * the engine's lock); the graph is replaced at the last. The count inserted, or false when more than
   * `maxInserts` are missing or this index has no graph any more.
   */
  *placeGraphSteps(graph: Hnsw, alive: Bitset, maxInserts: number): Generator<void, number | false> {
    if (!this.graph) return false;
    const inserted = yield* this.insertMissingSteps(graph, alive, maxInserts);
    if (inserted !== false) this.graph = graph;
    return inserted;
  }

  /** Insert into `graph` the live vectors it lacks, INSERTS_PER_STEP a step; false (nothing inserted) over `maxInserts`. */
  private *insertMissingSteps(graph: Hnsw, alive: Bitset, maxInserts: number): Generator<void, number | false> {
    const missing = toIds(this.candidates(alive)).filter((id) => !graph.has(id));
    if (missing.length > maxInserts) return false;
    for (let i = 0; i < missing.length; i++) {
      if (i % INSERTS_PER_STEP === 0) yield;
      graph.insert(missing[i]);
    }
    return missing.length;
  }

  /** The live documents' vectors, and the dead ones the graph still walks through. */
  toSnapshot(alive: Bitset): VectorSnapshot {
    const keep = this.sized(alive).slice();
    if (this.graph) for (const id of this.graph.nodes) set(keep, id);
    const ids = toIds(and(keep, this.present));
    const counts = new Uint16Array(ids.length);
    const dims: number[] = [];
    const values: number[] = [];
    ids.forEach((id, i) => {
      const base = id * this.dims;
      for (let d = 0; d < this.dims; d++) {
        const x = this.data[base + d];
        if (x === 0) continue;
        dims.push(d);
        values.push(x);
        counts[i]++;
      }
    });
    return { model: EMBEDDING_MODEL, attributes: [...this.attributes], ids, counts, dims: Uint16Array.from(dims), values: Float32Array.from(values), hnsw: this.graph?.toSnapshot() ?? null };
  }

  static fromSnapshot(s: VectorSnapshot): VectorIndex {
    const v = new VectorIndex(s.attributes);
    const vec = new Float32Array(v.dims);
    let p = 0;
    s.ids.forEach((id, i) => {
      vec.fill(0);
      for (const end = p + s.counts[i]; p < end; p++) vec[s.dims[p]] = s.values[p];
      v.put(id, vec);
    });
    // an older builder's graph answers until compact() builds it again (graphDue)
    if (s.hnsw) v.graph = Hnsw.fromSnapshot(v, s.hnsw);
    return v;
  }
}
