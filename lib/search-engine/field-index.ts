// Per-segment index of one filterable leaf path: string values → doc ids, numbers sorted for ranges,
// and the doc ids where the path exists / is null / is empty. Immutable once built, like the segment.
// String values compare normalised (lowercase, no diacritics, trimmed); facets show the first spelling seen.
import { has, type Bitset } from './bitset.js';
import { GrowFloat64, GrowInt32 } from './growable.js';
import { normalize } from './tokenizer.js';

export interface FieldIndex {
  /** normalised string values, and how they were first written */
  strValues: string[];
  strDisplay: string[];
  /** docs of strValues[i] are strDocs[strStart[i] .. strStart[i+1]) (ascending global ids) */
  strStart: Uint32Array;
  strDocs: Int32Array;
  /** numeric values ascending, with their docs (each (value, doc) once) */
  numValues: Float64Array;
  numDocs: Int32Array;
  exists: Int32Array;
  nulls: Int32Array;
  empties: Int32Array;
  /** derived: strValues[i] → i */
  lookup: Map<string, number>;
}

export function facetKey(s: string): string {
  return normalize(s).trim();
}

export class FieldIndexBuilder {
  private readonly strings = new Map<string, { display: string; docs: number[] }>();
  private readonly numV = new GrowFloat64();
  private readonly numD = new GrowInt32(256);
  private readonly exists: number[] = [];
  private readonly nulls: number[] = [];
  private readonly empties: number[] = [];

  addLeaf(doc: number, leaf: string | number | boolean | null): void {
    if (leaf === null) return;
    if (typeof leaf === 'number') {
      if (Number.isFinite(leaf)) {
        this.numV.push(leaf);
        this.numD.push(doc);
      }
      return;
    }
    const display = String(leaf);
    const key = facetKey(display);
    let entry = this.strings.get(key);
    if (!entry) this.strings.set(key, (entry = { display, docs: [] }));
    if (entry.docs[entry.docs.length - 1] !== doc) entry.docs.push(doc);
  }

  addPath(doc: number, empty: boolean, isNull: boolean): void {
    // docs arrive in ascending order, so "last pushed" dedupes
    if (this.exists[this.exists.length - 1] !== doc) this.exists.push(doc);
    if (isNull && this.nulls[this.nulls.length - 1] !== doc) this.nulls.push(doc);
    if (empty && this.empties[this.empties.length - 1] !== doc) this.empties.push(doc);
  }

  build(): FieldIndex {
    return assemble(this.strings, this.numV, this.numD, this.exists, this.nulls, this.empties);
  }
}

/** What a path's values were collected into (a builder's, or a merge's), as its index. */
function assemble(
  strings: Map<string, { display: string; docs: number[] }>,
  numV: GrowFloat64,
  numD: GrowInt32,
  exists: number[],
  nulls: number[],
  empties: number[],
): FieldIndex {
  const strValues = [...strings.keys()];
  const strStart = new Uint32Array(strValues.length + 1);
  const docs = new GrowInt32(256);
  const strDisplay = strValues.map((k, i) => {
    const e = strings.get(k)!;
    for (const d of e.docs) docs.push(d);
    strStart[i + 1] = docs.length;
    return e.display;
  });
  const [numValues, numDocs] = sortPairs(numV.toArray(), numD.toArray());
  return finish({
    strValues,
    strDisplay,
    strStart,
    strDocs: docs.toArray(),
    numValues,
    numDocs,
    exists: Int32Array.from(exists),
    nulls: Int32Array.from(nulls),
    empties: Int32Array.from(empties),
  });
}

export function finish(f: Omit<FieldIndex, 'lookup'>): FieldIndex {
  const lookup = new Map<string, number>();
  f.strValues.forEach((v, i) => lookup.set(v, i));
  return { ...f, lookup };
}

/** Sort (value, doc) pairs by value then doc, dropping duplicates. */
function sortPairs(values: Float64Array, docs: Int32Array): [Float64Array, Int32Array] {
  const order = Array.from(values.keys()).sort((a, b) => values[a] - values[b] || docs[a] - docs[b]);
  const v = new GrowFloat64(order.length || 1);
  const d = new GrowInt32(order.length || 1);
  for (const i of order) {
    if (v.length && v.data[v.length - 1] === values[i] && d.data[d.length - 1] === docs[i]) continue;
    v.push(values[i]);
    d.push(docs[i]);
  }
  return [v.toArray(), d.toArray()];
}

/** One field index from several segments' (adjacent, ascending ids), keeping live docs only. */
export function mergeFieldIndexes(parts: FieldIndex[], alive: Bitset): FieldIndex {
  const strings = new Map<string, { display: string; docs: number[] }>();
  const numV = new GrowFloat64();
  const numD = new GrowInt32(256);
  const exists: number[] = [];
  const nulls: number[] = [];
  const empties: number[] = [];
  for (const p of parts) {
    p.strValues.forEach((key, i) => {
      let e = strings.get(key);
      for (let j = p.strStart[i]; j < p.strStart[i + 1]; j++) {
        const doc = p.strDocs[j];
        if (!has(alive, doc)) continue;
        if (!e) strings.set(key, (e = { display: p.strDisplay[i], docs: [] }));
        e.docs.push(doc);
      }
    });
    for (let j = 0; j < p.numValues.length; j++) {
      if (!has(alive, p.numDocs[j])) continue;
      numV.push(p.numValues[j]);
      numD.push(p.numDocs[j]);
    }
    for (const [src, dst] of [[p.exists, exists], [p.nulls, nulls], [p.empties, empties]] as const) {
      for (const doc of src) if (has(alive, doc)) dst.push(doc);
    }
  }
  return assemble(strings, numV, numD, exists, nulls, empties);
}
