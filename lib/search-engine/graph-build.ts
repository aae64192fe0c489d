// A vector graph built away from the engine that answers with it (the search service builds it in its
// engine thread while the loaded engine keeps answering with the graph it has):
//  1. the engine copies out its live vectors, packed (VectorIndex.graphInputSteps): row i is ids[i];
//  2. the graph is built over those rows (buildGraphSteps) and comes back as a snapshot whose node
//     ids are the engine's (withEngineIds);
//  3. the engine makes it ready without a lock (VectorIndex.readyGraphSteps): restores it and inserts
//     the vectors it received since the copy, answering and taking batches between the steps;
//  4. it puts it in place under its lock (VectorIndex.placeGraphSteps), inserting only the vectors
//     received during step 3.
// Only the vectors travel, never a second engine: a vector row is immutable once written (a replaced
// document gets a new internal id), so a copy made in steps while the engine changes reads the rows
// as they were when the copy began.
import { Hnsw, nonZeroDims, type HnswSnapshot } from './hnsw.js';

/** A graph from step 3, for step 4: placed only in the vectors it was made ready from (`of`). */
export interface ReadyGraph {
  readonly graph: Hnsw;
  readonly of: object;
  /** the vectors added since the copy, inserted while it was made ready */
  readonly inserted: number;
}

export interface GraphInput {
  dims: number;
  /** the engine's internal id of each row */
  ids: Int32Array;
  /** `ids.length` rows of `dims` floats */
  rows: Float32Array;
}

/** Nodes inserted per step (a few ms at 100 dimensions). */
const NODES_PER_STEP = 256;

/** Build the graph of `input`'s rows, a step per NODES_PER_STEP nodes; returns its snapshot in the engine's ids. */
export function* buildGraphSteps(input: GraphInput): Generator<void, HnswSnapshot> {
  const { dims, rows, ids } = input;
  const nonZero: (Uint16Array | undefined)[] = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) nonZero[i] = nonZeroDims(rows, i * dims, dims);
  const graph = new Hnsw({ data: rows, dims, nonZero });
  for (let i = 0; i < ids.length; i++) {
    // levels drawn from the engine's ids, in the engine's id order: the graph buildGraph() would make there
    graph.insert(i, ids[i]);
    if ((i + 1) % NODES_PER_STEP === 0) yield;
  }
  return withEngineIds(graph.toSnapshot(), ids);
}

/** `s` (a graph over packed rows: node i is row i) with each node id replaced by `ids[i]`, in place. */
export function withEngineIds(s: HnswSnapshot, ids: Int32Array): HnswSnapshot {
  for (let i = 0; i < s.nodes.length; i++) s.nodes[i] = ids[s.nodes[i]];
  const links = s.links;
  // per node: per level a count and that many ids, then -1
  for (let p = 0; p < links.length; ) {
    if (links[p] === -1) {
      p++;
      continue;
    }
    const end = p + 1 + links[p];
    for (p++; p < end; p++) links[p] = ids[links[p]];
  }
  if (s.entry >= 0) s.entry = ids[s.entry];
  return s;
}
