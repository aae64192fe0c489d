// Append-only typed arrays: building segments pushes millions of integers, and plain JS arrays of
// numbers cost 8+ bytes each and GC time; these double their backing buffer instead.
// One class body, made once per array kind: each kind is a class of its own, so its `push` sees one
// typed array kind only (a monomorphic store in the indexing hot path).

type Numbers = Int32Array | Uint32Array | Float64Array;

function growable<A extends Numbers>(Kind: { new (length: number): A }, defaultCapacity: number) {
  return class {
    data: A;
    length = 0;
    constructor(capacity = defaultCapacity) {
      this.data = new Kind(capacity);
    }
    push(v: number): void {
      if (this.length === this.data.length) {
        const next = new Kind(this.data.length * 2);
        next.set(this.data);
        this.data = next;
      }
      this.data[this.length++] = v;
    }
    toArray(): A {
      return this.data.slice(0, this.length) as A;
    }
  };
}

export const GrowInt32 = growable(Int32Array, 1024);
export type GrowInt32 = InstanceType<typeof GrowInt32>;
export const GrowUint32 = growable(Uint32Array, 1024);
export type GrowUint32 = InstanceType<typeof GrowUint32>;
export const GrowFloat64 = growable(Float64Array, 256);
export type GrowFloat64 = InstanceType<typeof GrowFloat64>;
