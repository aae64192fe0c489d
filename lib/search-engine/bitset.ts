// Document sets as bitsets over internal document ids: filters, liveness and candidates combine with
// word-wise AND/OR/NOT, which for 64k documents is 2,000 32-bit operations.

export type Bitset = Uint32Array;

export function bitset(size: number): Bitset {
  return new Uint32Array((size + 31) >>> 5);
}

export function has(b: Bitset, i: number): boolean {
  return (b[i >>> 5] & (1 << (i & 31))) !== 0;
}

export function set(b: Bitset, i: number): void {
  b[i >>> 5] |= 1 << (i & 31);
}

export function clear(b: Bitset, i: number): void {
  b[i >>> 5] &= ~(1 << (i & 31));
}

export function setAll(b: Bitset, ids: ArrayLike<number>, from = 0, to = ids.length): void {
  for (let i = from; i < to; i++) {
    const d = ids[i];
    b[d >>> 5] |= 1 << (d & 31);
  }
}

/**
 * setAll for ascending ids. Where they are dense (over one id in four of their span), the bits of one
 * word are gathered in a register and stored once: a store per id made each wait on the one before
 * (same word). Sparse ids keep one store each (gathering would mispredict a branch per id).
 */
export function setAscending(b: Bitset, ids: ArrayLike<number>, from = 0, to = ids.length): void {
  if (to - from < 64 || 4 * (to - from) < ids[to - 1] - ids[from]) {
    setAll(b, ids, from, to);
    return;
  }
  let w = ids[from] >>> 5;
  let acc = 0;
  for (let i = from; i < to; i++) {
    const d = ids[i];
    if (d >>> 5 !== w) {
      b[w] |= acc;
      w = d >>> 5;
      acc = 0;
    }
    acc |= 1 << (d & 31);
  }
  b[w] |= acc;
}

export function and(a: Bitset, b: Bitset): Bitset {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] & b[i];
  return out;
}

export function or(a: Bitset, b: Bitset): Bitset {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] | b[i];
  return out;
}

/** `universe` minus `a`. */
export function andNot(universe: Bitset, a: Bitset): Bitset {
  const out = new Uint32Array(universe.length);
  for (let i = 0; i < universe.length; i++) out[i] = universe[i] & ~a[i];
  return out;
}

export function count(b: Bitset): number {
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    let v = b[i];
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return n;
}

/** Ids of the set bits, ascending. */
export function toIds(b: Bitset): Int32Array {
  const out = new Int32Array(count(b));
  let k = 0;
  for (let w = 0; w < b.length; w++) {
    let v = b[w];
    while (v !== 0) {
      const t = v & -v;
      out[k++] = (w << 5) + (31 - Math.clz32(t));
      v ^= t;
    }
  }
  return out;
}
