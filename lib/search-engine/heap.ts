// A binary min-heap of (id, key) pairs in parallel arrays: the candidate and result queues of the
// HNSW search and the bounded top-k of the exact scan. A max-heap is this heap over negated keys.
export class Heap {
  ids: Int32Array;
  keys: Float64Array;
  size = 0;

  constructor(capacity = 64) {
    this.ids = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(id: number, key: number): void {
    if (this.size === this.ids.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.keys[p] <= key) break;
      this.ids[i] = this.ids[p];
      this.keys[i] = this.keys[p];
      i = p;
    }
    this.ids[i] = id;
    this.keys[i] = key;
  }

  /** key of the smallest entry (undefined behaviour when empty) */
  topKey(): number {
    return this.keys[0];
  }

  topId(): number {
    return this.ids[0];
  }

  /** removes the smallest entry and returns its id */
  pop(): number {
    const top = this.ids[0];
    const n = --this.size;
    if (n > 0) {
      const id = this.ids[n];
      const key = this.keys[n];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const c = l + 1 < n && this.keys[l + 1] < this.keys[l] ? l + 1 : l;
        if (this.keys[c] >= key) break;
        this.ids[i] = this.ids[c];
        this.keys[i] = this.keys[c];
        i = c;
      }
      this.ids[i] = id;
      this.keys[i] = key;
    }
    return top;
  }

  private grow(): void {
    const ids = new Int32Array(this.ids.length * 2);
    const keys = new Float64Array(this.keys.length * 2);
    ids.set(this.ids);
    keys.set(this.keys);
    this.ids = ids;
    this.keys = keys;
  }
}
