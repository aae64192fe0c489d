// The positions of a score array handed out in (score, position) order, a few at a time, by
// incremental quicksort (Paredes & Navarro, 2006): partitioning only the part that holds the next
// smallest, so the first k cost O(n + k log k) in all. Selecting the k-th score anew for each chunk
// (a copy and a quickselect of all n scores, then a pass to collect the chunk) read all n scores
// several times per chunk. Scores and positions are moved together, so partitions read sequentially.
import { idArray, scoreArray } from './sort-scratch.js';

export class IncrementalOrder {
  private readonly vals: Float64Array;
  private readonly pos: Int32Array;
  /**
   * Where the parts not sorted yet end: every entry before the top one is smaller than the entry at
   * the top, which is in its final place (n at the bottom: the end).
   */
  private readonly pivots: number[];
  private k = 0;

  /** `scores` is read once; the arrays are sort scratch (sort-scratch.ts) of the caller's bucket. */
  constructor(scores: Float64Array) {
    const n = scores.length;
    this.vals = scoreArray(n);
    this.vals.set(scores);
    this.pos = idArray(n);
    for (let i = 0; i < n; i++) this.pos[i] = i;
    this.pivots = [n];
  }

  get empty(): boolean {
    return this.k >= this.pos.length;
  }

  /** The next position, not taken (-1 when all were taken). */
  peek(): number {
    if (this.empty) return -1;
    const { pivots } = this;
    while (pivots[pivots.length - 1] !== this.k) pivots.push(this.partition(this.k, pivots[pivots.length - 1]));
    return this.pos[this.k];
  }

  /** The next position (-1 when all were taken). */
  take(): number {
    const p = this.peek();
    if (p >= 0) {
      this.pivots.pop();
      this.k++;
    }
    return p;
  }

  /** (score, position) of entry a before that of entry b */
  private less(a: number, b: number): boolean {
    return this.vals[a] < this.vals[b] || (this.vals[a] === this.vals[b] && this.pos[a] < this.pos[b]);
  }

  private swap(a: number, b: number): void {
    const { vals, pos } = this;
    const v = vals[a];
    vals[a] = vals[b];
    vals[b] = v;
    const p = pos[a];
    pos[a] = pos[b];
    pos[b] = p;
  }

  /**
   * Partition entries [lo, hi) around the median of three (moved to lo); returns where the pivot lands.
   * Scans from both ends, swapping only entries on the wrong side (fewer swaps than one scan).
   */
  private partition(lo: number, hi: number): number {
    const last = hi - 1;
    const mid = (lo + last) >>> 1;
    if (this.less(mid, lo)) this.swap(mid, lo);
    if (this.less(last, lo)) this.swap(last, lo);
    if (this.less(last, mid)) this.swap(last, mid);
    this.swap(lo, mid);
    const { vals, pos } = this;
    const pv = vals[lo];
    const pp = pos[lo];
    let i = lo;
    let j = hi;
    for (;;) {
      do {
        i++;
      } while (i <= last && (vals[i] < pv || (vals[i] === pv && pos[i] < pp)));
      do {
        j--;
      } while (vals[j] > pv || (vals[j] === pv && pos[j] > pp));
      if (i >= j) break;
      this.swap(i, j);
    }
    this.swap(lo, j);
    return j;
  }
}
