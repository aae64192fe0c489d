// A small HNSW graph (Malkov & Yashunin 2016, "Efficient and robust approximate nearest neighbor
// search using Hierarchical Navigable Small World graphs") over the vector store's L2-normalised
// vectors; similarity is the dot product (= cosine), distance 1 − dot.
//  - a node's level is drawn from a hash of its id (reproducible builds): P(level ≥ l) = M^−l;
//  - insertion: greedy descent through the upper levels, then an efConstruction-wide search per
//    level down to 0; the new node's neighbours are chosen by the paper's heuristic (a candidate is
//    kept when it is closer to the node than to every neighbour already kept), an overfull
//    neighbour list keeps its closest entries;
//  - search: the same descent, then an ef-wide search at level 0; `accept` (filter and liveness)
//    decides which nodes may be results — rejected nodes are still walked through, so a filter never
//    disconnects the graph. Deleted documents stay as such pass-through nodes until a rebuild.
// Written here rather than taken from npm: the pure-JS package (`hnsw`) has no filtered search and
// no typed-array serialisation for the engine's snapshots; hnswlib-node/-wasm are native/WASM.
import { Heap } from './heap.js';
import { runSteps } from '../generator-steps.js';

export interface VectorSource {
  /** vectors by internal id, `dims` floats each */
  data: Float32Array;
  dims: number;
  /** the non-zero dimensions of a sparse vector (see Probe); undefined for dense ones */
  nonZero: (Uint16Array | undefined)[];
}

/**
 * A vector to compare others with. A sparse vector (the hashed model's: a package's name and summary
 * touch ~50 of 384 dimensions) is compared over its non-zero dimensions only: the same dot product,
 * several times fewer multiplications; a dense one (glove-sif-100d, the default) over all of them.
 */
export interface Probe {
  vec: Float32Array;
  off: number;
  nz: Uint16Array | undefined;
}

/** Non-zero dimensions of a vector when under half of them are, else undefined (dense). */
export function nonZeroDims(vec: Float32Array, off: number, dims: number): Uint16Array | undefined {
  let n = 0;
  for (let i = 0; i < dims; i++) if (vec[off + i] !== 0) n++;
  if (n * 2 >= dims) return undefined;
  const nz = new Uint16Array(n);
  for (let i = 0, k = 0; i < dims; i++) if (vec[off + i] !== 0) nz[k++] = i;
  return nz;
}

/** probe · (vector at `bo` of `data`) */
export function simTo(p: Probe, data: Float32Array, bo: number, dims: number): number {
  const nz = p.nz;
  if (!nz) return dot(p.vec, p.off, data, bo, dims);
  const v = p.vec;
  const o = p.off;
  let s = 0;
  for (let k = 0; k < nz.length; k++) {
    const i = nz[k];
    s += v[o + i] * data[bo + i];
  }
  return s;
}

export interface HnswParams {
  /** links per node on the upper levels (2·m on level 0) */
  m: number;
  efConstruction: number;
}

export const DEFAULT_HNSW: HnswParams = { m: 16, efConstruction: 100 };
/** Two unit vectors this similar are copies (float32 rounding of one text's embedding). */
const SAME_VECTOR = 1 - 1e-5;

export function dot(a: Float32Array, ao: number, b: Float32Array, bo: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[ao + i] * b[bo + i];
    s1 += a[ao + i + 1] * b[bo + i + 1];
    s2 += a[ao + i + 2] * b[bo + i + 2];
    s3 += a[ao + i + 3] * b[bo + i + 3];
  }
  for (; i < n; i++) s0 += a[ao + i] * b[bo + i];
  return s0 + s1 + s2 + s3;
}

/** splitmix32 of the id → (0, 1]: a node's level never depends on insertion order or a global RNG. */
function unitHash(id: number): number {
  let z = (id + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return ((z >>> 0) + 1) / 4294967296;
}

/**
 * The graph builder's version, kept in snapshots: a graph built by an older one is restored (it
 * answers, with its flaws) and built again in the background (vector-index.ts graphDue; 2: copies
 * pruned, overfull lists chosen by the heuristic, no node left without a link to it; version 1 left
 * about one node in twenty unreachable on real catalogues).
 */
export const HNSW_BUILDER = 2;

export interface HnswSnapshot {
  /** HNSW_BUILDER of the graph's builder (absent: version 1) */
  builder?: number;
  m: number;
  efConstruction: number;
  entry: number;
  maxLevel: number;
  /** node ids in insertion order */
  nodes: Int32Array;
  /** per node, per level 0..level: count, then the neighbour ids */
  links: Int32Array;
}

export class Hnsw {
  /** HNSW_BUILDER of the builder that made this graph (a restored older graph keeps its own) */
  builder = HNSW_BUILDER;
  entry = -1;
  maxLevel = -1;
  /** node ids in insertion order */
  readonly nodes: number[] = [];
  /** links[id][level] = neighbour ids (sparse by id: only graph nodes have an entry) */
  private links: number[][][] = [];
  /** level-0 links pointing at each node: a list's new choice never drops a node's last one (it would be unreachable) */
  private inbound: number[] = [];
  private visited = new Uint32Array(0);
  private stamp = 0;
  private readonly mL: number;
  private readonly candidates = new Heap();
  private readonly results = new Heap();

  constructor(
    private readonly store: VectorSource,
    readonly params: HnswParams = DEFAULT_HNSW,
  ) {
    this.mL = 1 / Math.log(params.m);
  }

  get size(): number {
    return this.nodes.length;
  }

  has(id: number): boolean {
    return this.links[id] !== undefined;
  }

  private maxLinks(level: number): number {
    return level === 0 ? 2 * this.params.m : this.params.m;
  }

  private sim(q: Probe, id: number): number {
    return simTo(q, this.store.data, id * this.store.dims, this.store.dims);
  }

  /** A stored node as a probe. */
  private probe(id: number): Probe {
    return { vec: this.store.data, off: id * this.store.dims, nz: this.store.nonZero[id] };
  }

  private newStamp(size: number): number {
    if (this.visited.length < size) {
      const next = new Uint32Array(Math.max(size, this.visited.length * 2, 1024));
      next.set(this.visited);
      this.visited = next;
    }
    if (++this.stamp === 0xffffffff) {
      this.visited.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  /** Greedy walk to the closest node on one level (ef = 1). */
  private greedy(q: Probe, from: number, level: number): number {
    let cur = from;
    let best = this.sim(q, cur);
    for (let changed = true; changed; ) {
      changed = false;
      for (const n of this.links[cur][level]) {
        const s = this.sim(q, n);
        if (s > best) {
          best = s;
          cur = n;
          changed = true;
        }
      }
    }
    return cur;
  }

  /**
   * The ef closest accepted nodes on `level`, from `entry`: returned as parallel arrays, best first.
   * Distances are 1 − similarity; `results` is a max-heap on distance (negated keys).
   */
  private searchLayer(q: Probe, entry: number, ef: number, level: number, accept?: (id: number) => boolean): { ids: number[]; sims: number[] } {
    const mark = this.newStamp(this.links.length);
    const cand = this.candidates;
    const res = this.results;
    cand.clear();
    res.clear();
    this.visited[entry] = mark;
    const d0 = 1 - this.sim(q, entry);
    cand.push(entry, d0);
    if (!accept || accept(entry)) res.push(entry, -d0);
    while (cand.size) {
      const dc = cand.topKey();
      if (res.size >= ef && dc > -res.topKey()) break;
      const c = cand.pop();
      const links = this.links[c][level];
      for (let i = 0; i < links.length; i++) {
        const n = links[i];
        if (this.visited[n] === mark) continue;
        this.visited[n] = mark;
        const d = 1 - this.sim(q, n);
        if (res.size < ef || d < -res.topKey()) {
          cand.push(n, d);
          if (!accept || accept(n)) {
            res.push(n, -d);
            if (res.size > ef) res.pop();
          }
        }
      }
    }
    const ids = new Array<number>(res.size);
    const sims = new Array<number>(res.size);
    for (let i = res.size - 1; i >= 0; i--) {
      sims[i] = 1 + res.topKey();
      ids[i] = res.pop();
    }
    return { ids, sims };
  }

  /**
   * The paper's neighbour heuristic over candidates sorted best first: a candidate is kept when it is
   * closer to the node than to every neighbour already kept, and is not a copy of one (identical
   * texts embed to one vector: of several copies one is linked, else they fill the list and cut the
   * rest of the graph off). The pruned ones are not added back (hnswlib's default): refilling the
   * list with the closest left out is what let copies and near-copies take every slot.
   */
  private select(ids: number[], sims: number[], max: number): number[] {
    const { data, dims } = this.store;
    const out: number[] = [];
    for (let i = 0; i < ids.length && out.length < max; i++) {
      const c = this.probe(ids[i]);
      let keep = true;
      for (const o of out) {
        const s = simTo(c, data, o * dims, dims);
        if (s > sims[i] || s >= SAME_VECTOR) {
          keep = false;
          break;
        }
      }
      if (keep) out.push(ids[i]);
    }
    return out;
  }

  /** Add node `id`; its level is drawn from `levelKey` (a graph built over packed rows passes the engine's id: graph-build.ts). */
  insert(id: number, levelKey = id): void {
    if (this.links[id]) return;
    const level = Math.min(16, Math.floor(-Math.log(unitHash(levelKey)) * this.mL));
    this.links[id] = Array.from({ length: level + 1 }, () => []);
    this.nodes.push(id);
    if (this.entry < 0) {
      this.entry = id;
      this.maxLevel = level;
      return;
    }
    const q = this.probe(id);
    let ep = this.entry;
    for (let l = this.maxLevel; l > level; l--) ep = this.greedy(q, ep, l);
    for (let l = Math.min(level, this.maxLevel); l >= 0; l--) {
      const found = this.searchLayer(q, ep, this.params.efConstruction, l);
      const max = this.maxLinks(l);
      const chosen = this.select(found.ids, found.sims, max);
      this.links[id][l] = chosen;
      if (l === 0) for (const n of chosen) this.inbound[n] = (this.inbound[n] ?? 0) + 1;
      for (const n of chosen) this.link(n, id, l, max);
      // every neighbour's new choice left it out: the closest keeps a link to it anyway (one over its bound)
      if (l === 0 && !this.inbound[id] && chosen.length) {
        this.links[chosen[0]!]![0]!.push(id);
        this.inbound[id] = 1;
      }
      ep = found.ids[0] ?? ep;
    }
    if (level > this.maxLevel) {
      this.maxLevel = level;
      this.entry = id;
    }
  }

  /**
   * Add `id` to n's links on `level`; an overfull list is chosen again by the heuristic (as hnswlib
   * shrinks it), except that on level 0 a node it held the last link to stays (one over the bound).
   */
  private link(n: number, id: number, level: number, max: number): void {
    const list = this.links[n][level];
    list.push(id);
    if (level === 0) this.inbound[id] = (this.inbound[id] ?? 0) + 1;
    if (list.length <= max) return;
    const { data, dims } = this.store;
    const p = this.probe(n);
    const scored = list.map((x) => ({ x, s: simTo(p, data, x * dims, dims) }));
    scored.sort((a, b) => b.s - a.s);
    const kept = this.select(
      scored.map((e) => e.x),
      scored.map((e) => e.s),
      max,
    );
    if (level === 0) {
      const chosen = new Set(kept);
      for (const x of list) {
        if (chosen.has(x)) continue;
        if (this.inbound[x] === 1) kept.push(x);
        else this.inbound[x]--;
      }
    }
    this.links[n][level] = kept;
  }

  /** How many nodes a walk of level 0 from the entry can reach (every node, in a sound graph). */
  reachable(): number {
    if (this.entry < 0) return 0;
    const mark = this.newStamp(this.links.length);
    const stack = [this.entry];
    this.visited[this.entry] = mark;
    let n = 0;
    while (stack.length) {
      const c = stack.pop()!;
      n++;
      for (const x of this.links[c][0]) {
        if (this.visited[x] !== mark) {
          this.visited[x] = mark;
          stack.push(x);
        }
      }
    }
    return n;
  }

  /** The k most similar accepted nodes to the unit vector `q`, best first. */
  search(vec: Float32Array, k: number, ef: number, accept?: (id: number) => boolean): { ids: number[]; sims: number[] } {
    if (this.entry < 0 || k <= 0) return { ids: [], sims: [] };
    const q: Probe = { vec, off: 0, nz: nonZeroDims(vec, 0, this.store.dims) };
    let ep = this.entry;
    for (let l = this.maxLevel; l > 0; l--) ep = this.greedy(q, ep, l);
    const r = this.searchLayer(q, ep, Math.max(ef, k), 0, accept);
    return { ids: r.ids.slice(0, k), sims: r.sims.slice(0, k) };
  }

  toSnapshot(): HnswSnapshot {
    const flat: number[] = [];
    for (const id of this.nodes) {
      for (const level of this.links[id]) {
        flat.push(level.length);
        for (const n of level) flat.push(n);
      }
      flat.push(-1); // end of node
    }
    return { builder: this.builder, ...this.params, entry: this.entry, maxLevel: this.maxLevel, nodes: Int32Array.from(this.nodes), links: Int32Array.from(flat) };
  }

  static fromSnapshot(store: VectorSource, s: HnswSnapshot): Hnsw {
    return runSteps(Hnsw.restoreSteps(store, s));
  }

  /** fromSnapshot in steps of `perStep` nodes (a graph placed on the event loop: graph-build.ts). */
  static *restoreSteps(store: VectorSource, s: HnswSnapshot, perStep = 20_000): Generator<void, Hnsw> {
    const g = new Hnsw(store, { m: s.m, efConstruction: s.efConstruction });
    let p = 0;
    for (let i = 0; i < s.nodes.length; i++) {
      const id = s.nodes[i];
      const levels: number[][] = [];
      while (s.links[p] !== -1) {
        const n = s.links[p++];
        levels.push(Array.from(s.links.subarray(p, p + n)));
        p += n;
      }
      p++;
      g.links[id] = levels;
      g.nodes.push(id);
      for (const n of levels[0] ?? []) g.inbound[n] = (g.inbound[n] ?? 0) + 1;
      if ((i + 1) % perStep === 0) yield;
    }
    g.entry = s.entry;
    g.maxLevel = s.maxLevel;
    g.builder = s.builder ?? 1;
    return g;
  }
}
