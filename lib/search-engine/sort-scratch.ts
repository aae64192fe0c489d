// Scratch arrays of one bucket sort (bucket-sort.ts, steps.ts): the rules' scores and the buckets'
// documents, taken from two growing buffers and given back when the bucket that took them is done.
// The sort is synchronous and depth-first, so arrays are given back in the reverse order they were
// taken (a stack, `mark` and `release`). A common-word query over 860,000 candidates otherwise takes
// ~25 MB of fresh typed arrays per search (the words and attribute scores, the buckets, quickselect's
// copies), each zeroed when allocated and then left to the garbage collector. The buffers are one
// per process (searches never overlap) and grow to the largest search's need and are kept: ~30 B per
// candidate ("and the" over 716,000: ~20 MB), up to twice that after doubling. Arrays taken are NOT
// zeroed: every user writes each element first.

class Stack<A extends Float64Array | Int32Array> {
  private buf: A;
  top = 0;
  constructor(private readonly make: (n: number) => A) {
    this.buf = make(0);
  }

  take(n: number): A {
    if (this.top + n > this.buf.length) this.buf = this.make(Math.max(this.top + n, 2 * this.buf.length, 4096));
    const a = this.buf.subarray(this.top, this.top + n) as A;
    this.top += n;
    return a;
  }
}

const scores = new Stack((n) => new Float64Array(n));
const ids = new Stack((n) => new Int32Array(n));

/** `n` scores, uninitialised, valid until the bucket sort frame that took them releases its mark. */
export function scoreArray(n: number): Float64Array {
  return scores.take(n);
}

/** `n` document ids, uninitialised, as scoreArray. */
export function idArray(n: number): Int32Array {
  return ids.take(n);
}

export interface Mark {
  scores: number;
  ids: number;
}

/** The stacks' current height, to release back to. */
export function mark(): Mark {
  return { scores: scores.top, ids: ids.top };
}

/** Give back every array taken since `m`. */
export function release(m: Mark): void {
  scores.top = m.scores;
  ids.top = m.ids;
}
