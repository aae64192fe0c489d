// Bucket sort, lazily (as Meilisearch): the first rule splits the candidates into buckets of equal score,
// the next rule only orders inside a bucket, and a bucket is only refined when the page still needs
// documents from it. So an expensive rule (proximity) runs on the documents that can reach the page,
// not on every candidate. Within the last bucket, documents keep internal-id (insertion) order.

/** A ranking step: one score per document, lower is better; null means "ties everything" for this query. */
export type Step = ((docs: Int32Array) => Float64Array) | null;

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
  let i = from;
  while (i < steps.length && steps[i] === null) i++;
  if (i >= steps.length || docs.length === 1) {
    for (let k = 0; k < docs.length && !out.full(); k++) out.push(docs[k]);
    return;
  }
  const keys = steps[i]!(docs);
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
  for (let g = 0; g <= top; g++) slots[g] = counts[g] ? new Int32Array(counts[g]) : null;
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
export function kthSmallest(keys: Float64Array, k: number): number {
  const a = Float64Array.from(keys);
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
