// Bucket sort, lazily (as Meilisearch): the first rule splits the candidates into buckets of equal score,
// the next rule only orders inside a bucket, and a bucket is only refined when the page still needs
// documents from it. So an expensive rule (proximity) runs on the documents that can reach the page,
// not on every candidate. Within the last bucket, documents keep internal-id (insertion) order.

/** A ranking step: one score per document, lower is better; null means "ties everything" for this query. */
export type Step = ((docs: Int32Array) => Float64Array) | null;

export class Collector {
  readonly ids: number[] = [];
  private readonly seen = new Set<string>();
  constructor(
    readonly need: number,
    /** distinct key of a document (undefined: never a duplicate) */
    private readonly distinctKey?: (doc: number) => string | undefined,
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
  let same = true;
  for (let k = 1; k < keys.length && same; k++) if (keys[k] !== keys[0]) same = false;
  if (same) return bucketSort(docs, steps, out, i + 1);

  // only the best `remaining` documents (and their ties) can reach the page: select them in O(n)
  const remaining = out.need - out.ids.length;
  const threshold = docs.length > 4 * remaining + 64 ? kthSmallest(keys, remaining) : Infinity;
  const groups = new Map<number, number[]>();
  const rest: number[] = [];
  for (let k = 0; k < docs.length; k++) {
    if (keys[k] > threshold) {
      rest.push(docs[k]);
      continue;
    }
    let g = groups.get(keys[k]);
    if (!g) groups.set(keys[k], (g = []));
    g.push(docs[k]);
  }
  const order = [...groups.keys()].sort((a, b) => a - b);
  for (const key of order) {
    if (out.full()) return;
    bucketSort(Int32Array.from(groups.get(key)!), steps, out, i + 1);
  }
  // distinct may have dropped documents: continue with the ones beyond the threshold
  if (!out.full() && rest.length) bucketSort(Int32Array.from(rest), steps, out, i);
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
