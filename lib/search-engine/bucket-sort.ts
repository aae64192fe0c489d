// Bucket sort, lazily (as Meilisearch): the first rule splits the candidates into buckets of equal score,
// the next rule only orders inside a bucket, and a bucket is only refined when the page still needs
// documents from it. So an expensive rule (proximity) runs on the documents that can reach the page,
// not on every candidate. Within the last bucket, documents keep internal-id (insertion) order.
// A costly rule that knows the best score a bucket can reach (proximity: every pair of words adjacent)
// is scored lazily (lazyStep): in the order the next rule ranks the bucket, only until enough documents
// at that best score settle the page. A common pair ("for the": ~200,000 documents at 300k) is then
// scored on a few hundred documents instead of all of them, with the same hits.
// Scores and buckets are scratch arrays (sort-scratch.ts), given back when their bucket is done.
import { IncrementalOrder } from './incremental-order.js';
import { idArray, mark, release, scoreArray } from './sort-scratch.js';

/** A ranking step: one score per document, lower is better; null means "ties everything" for this query. */
export type Step = StepFn | null;

export interface StepFn {
  (docs: Int32Array): Float64Array;
  /** set on a costly step: the lowest score any of `docs` can get (bucketSort then scores them lazily) */
  floor?: (docs: Int32Array) => number;
  /** cheap enough to score a whole bucket just to order a costly step's lazy pass */
  cheap?: boolean;
}

export class Collector {
  readonly ids: number[] = [];
  private readonly seen = new Set<number>();
  constructor(
    readonly need: number,
    /** distinct key of a document (undefined: never a duplicate) */
    private readonly distinctKey?: (doc: number) => number | undefined,
  ) {}

  full(): boolean {
    return this.ids.length >= this.need;
  }

  push(doc: number): void {
    if (this.distinctKey) {
      const k = this.distinctKey(doc);
      if (k !== undefined) {
        if (this.seen.has(k)) return;
        this.seen.add(k);
      }
    }
    this.ids.push(doc);
  }
}

export function bucketSort(docs: Int32Array, steps: readonly Step[], out: Collector, from = 0): void {
  if (out.full() || docs.length === 0) return;
  const m = mark();
  try {
    sortBucket(docs, steps, out, from);
  } finally {
    release(m);
  }
}

function sortBucket(docs: Int32Array, steps: readonly Step[], out: Collector, from: number): void {
  let i = from;
  while (i < steps.length && steps[i] === null) i++;
  if (i >= steps.length || docs.length === 1) {
    for (let k = 0; k < docs.length && !out.full(); k++) out.push(docs[k]);
    return;
  }
  const step = steps[i]!;
  if (step.floor && docs.length > LAZY_MIN && lazyStep(docs, steps, i, out)) return;
  const keys = step(docs);
  const { min, max, integral } = keyRange(keys);
  if (min === max) return bucketSort(docs, steps, out, i + 1);

  // only the best `remaining` documents (and their ties) can reach the page: select them in O(n)
  const remaining = out.need - out.ids.length;
  const select = docs.length > 4 * remaining + 64;
  const { groups, threshold } =
    integral && max - min < MAX_COUNTING_SPAN
      ? countingGroups(docs, keys, min, max, select ? remaining : 0)
      : mapGroups(docs, keys, select ? kthSmallest(keys, remaining) : Infinity);
  for (const group of groups) {
    if (out.full()) return;
    bucketSort(group, steps, out, i + 1);
  }
  // distinct may have dropped documents: continue with the ones beyond the threshold (collected only
  // then: with hundreds of thousands of candidates, almost all of them are beyond it)
  if (!out.full() && threshold < max) {
    const rest = docs.filter((_, k) => keys[k] > threshold);
    if (rest.length) bucketSort(rest, steps, out, i);
  }
}

/** Buckets smaller than this are scored whole (the lazy pass's selections cost more than they save). */
const LAZY_MIN = 2048;

/**
 * Step i scored in the order the next step ranks `docs` (then id order), a growing chunk at a time,
 * until the documents at the step's floor settle the page: with `remaining` of them found, the last at
 * next-score a*, every document at the floor with next-score <= a* has been scored, and none other can
 * come before them. They go on to step i + 1; the rest (if distinct dropped some) is ranked after
 * them from step i. Returns false, having pushed nothing, when the next step is not cheap or a
 * quarter of the bucket held too few documents at the floor (the whole bucket is scored then).
 */
function lazyStep(docs: Int32Array, steps: readonly Step[], i: number, out: Collector): boolean {
  let j = i + 1;
  while (j < steps.length && steps[j] === null) j++;
  if (j < steps.length && !steps[j]!.cheap) return false;
  const step = steps[i]!;
  const floor = step.floor!(docs);
  const next = j < steps.length ? steps[j]!(docs) : null;
  const remaining = out.need - out.ids.length;
  const budget = docs.length >>> 2;
  let chunk = 4 * remaining + 64;
  let scanned = 0;
  // positions in (next-score, position) order; without a next step, id order (positions < scanned)
  const byNext = next ? new IncrementalOrder(next) : null;
  const atFloor: number[] = []; // positions in docs, in (next-score, position) order
  while (scanned < budget) {
    const order: number[] = [];
    chunk = Math.max(1, Math.min(chunk, budget - scanned));
    if (byNext) {
      // a chunk, then the rest of its last next-score: every next-score up to it is then scored
      for (let c = 0; c < chunk && !byNext.empty; c++) order.push(byNext.take());
      const last = next![order[order.length - 1]];
      while (!byNext.empty && next![byNext.peek()] === last) order.push(byNext.take());
    } else {
      for (let k = scanned; k < Math.min(docs.length, scanned + chunk); k++) order.push(k);
    }
    scanned += order.length;
    const m = mark();
    const keys = step(Int32Array.from(order, (k) => docs[k]));
    for (let k = 0; k < order.length; k++) if (keys[k] === floor) atFloor.push(order[k]);
    release(m);
    if (atFloor.length >= remaining) {
      const last = next ? next[atFloor[remaining - 1]] : Infinity;
      const settled = (next ? atFloor.filter((k) => next[k] <= last) : atFloor.slice(0, remaining)).sort((a, b) => a - b);
      bucketSort(Int32Array.from(settled, (k) => docs[k]), steps, out, i + 1);
      if (!out.full()) {
        const taken = new Uint8Array(docs.length);
        for (const k of settled) taken[k] = 1;
        bucketSort(docs.filter((_, k) => !taken[k]), steps, out, i);
      }
      return true;
    }
    if (byNext ? byNext.empty : scanned >= docs.length) break;
    chunk *= 4;
  }
  return false;
}

/** Rule scores spanning fewer values than this (small integers: words, typos, proximity…) take a counting sort. */
const MAX_COUNTING_SPAN = 4096;

function keyRange(keys: Float64Array): { min: number; max: number; integral: boolean } {
  let min = Infinity;
  let max = -Infinity;
  let integral = true;
  for (let k = 0; k < keys.length; k++) {
    const v = keys[k];
    if (v < min) min = v;
    if (v > max) max = v;
    if (integral && !Number.isInteger(v)) integral = false;
  }
  return { min, max, integral };
}

interface Groups {
  /** docs with key <= threshold grouped by key, groups in ascending key order, docs keeping their order */
  groups: Int32Array[];
  threshold: number;
}

/**
 * Integer keys in [min, max]: one histogram gives both the threshold (the smallest key with at least
 * `k` documents at or below it; `max` when k is 0) and the group sizes, without copying the keys.
 */
function countingGroups(docs: Int32Array, keys: Float64Array, min: number, max: number, k: number): Groups {
  const span = max - min + 1;
  const counts = new Int32Array(span);
  for (let j = 0; j < keys.length; j++) counts[keys[j] - min]++;
  let top = span - 1;
  if (k > 0) {
    let seen = 0;
    for (top = 0; top < span - 1; top++) if ((seen += counts[top]) >= k) break;
  }
  const threshold = min + top;
  const slots: (Int32Array | null)[] = new Array(top + 1);
  for (let g = 0; g <= top; g++) slots[g] = counts[g] ? idArray(counts[g]) : null;
  const fill = new Int32Array(top + 1);
  for (let j = 0; j < keys.length; j++) {
    const g = keys[j] - min;
    if (g > top) continue;
    slots[g]![fill[g]++] = docs[j];
  }
  const groups: Int32Array[] = [];
  for (const g of slots) if (g) groups.push(g);
  return { groups, threshold };
}

/** Any other keys (fractions, Infinity for missing values, wide ranges): a Map per key. */
function mapGroups(docs: Int32Array, keys: Float64Array, threshold: number): Groups {
  const map = new Map<number, number[]>();
  for (let k = 0; k < docs.length; k++) {
    if (keys[k] > threshold) continue;
    let g = map.get(keys[k]);
    if (!g) map.set(keys[k], (g = []));
    g.push(docs[k]);
  }
  const groups: Int32Array[] = [];
  for (const key of [...map.keys()].sort((a, b) => a - b)) groups.push(Int32Array.from(map.get(key)!));
  return { groups, threshold };
}

/** The k-th smallest value (1-based, clamped) of `keys`, by quickselect on a copy. */
function kthSmallest(keys: Float64Array, k: number): number {
  const m = mark();
  const a = scoreArray(keys.length);
  a.set(keys);
  const kth = quickselect(a, k);
  release(m);
  return kth;
}

/** The k-th smallest value (1-based, clamped) of `a`, reordering it. */
function quickselect(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  const target = Math.min(Math.max(k, 1), a.length) - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return a[target];
  }
  return a[target];
}
