// Posting references of a search's matched words, built only for the documents a rule reads them for.
// The fold (match.ts) records which posting ranges each word matched; proximity and exactness ask for
// the references of the documents they score (ensureRefs), which are then listed once per search:
//   head[w][d]  first reference of word w in doc d (-1: none), valid once d is built in this search
//   a reference is REF_STRIDE Int32 side by side in one array (RefList): segment index << 1 | exact
//               flag, posting index, next reference of the same (word, document) list (-1 ends it)
// A common-word query ("for the": 700,000+ documents at 1M) used to write three Int32 per matched
// posting while folding; the rules then read the references of the few hundred documents that can
// reach the page. A small set is found by binary search in each matched term's postings, a large one
// by one scan of the ranges (whichever reads fewer postings).
import { GrowInt32 } from './growable.js';
import { positionAt, postingStart, storedPosition, type Segment } from './segment.js';

export const ABSENT = 255;
export const REF_STRIDE = 3;
/** a recorded range: segment index << 1 | exact flag, first posting, end posting */
export const RANGE_STRIDE = 3;

export class RefList {
  data = new Int32Array(REF_STRIDE * 4096);
  /** references held */
  length = 0;

  /** room for `n` more references */
  reserve(n: number): Int32Array {
    const need = (this.length + n) * REF_STRIDE;
    if (need > this.data.length) {
      const next = new Int32Array(Math.max(need, this.data.length * 2));
      next.set(this.data.subarray(0, this.length * REF_STRIDE));
      this.data = next;
    }
    return this.data;
  }
}

/** What references are built from and read with (MatchData carries these). */
export interface RefSource {
  segments: readonly Segment[];
  typo: Uint8Array[];
  head: Int32Array[];
  refs: RefList;
  /** per word: the folded posting ranges that keep references (RANGE_STRIDE Int32 each, by segment) */
  ranges: GrowInt32[];
  /** per word: rangeStart[w][s]..rangeStart[w][s + 1] are the ranges of segment s */
  rangeStart: Int32Array[];
  /** postings all ranges span (what one scan reads) */
  rangePostings: number;
  /** per-search marks: built[d] === epoch once d's references are listed */
  built: Int32Array;
  epoch: number;
  /** a scratch bitset over the ids (the scan's wanted documents), left all zero */
  want: Uint32Array;
  /** attributes outside the search's attributesToSearchOn, per rank (1: off); null: none */
  offAll: Uint8Array | null;
}

/** Lists the references of every document of `docs` not built yet in this search. */
export function ensureRefs(m: RefSource, docs: Int32Array): void {
  const { built, epoch, head } = m;
  let n = 0;
  for (let i = 0; i < docs.length; i++) if (built[docs[i]] !== epoch) n++;
  if (n === 0) return;
  const todo = new Int32Array(n);
  n = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    if (built[d] === epoch) continue;
    built[d] = epoch;
    todo[n++] = d;
    for (let w = 0; w < head.length; w++) head[w][d] = -1;
  }
  let ranges = 0;
  for (const r of m.ranges) ranges += r.length / RANGE_STRIDE;
  const segs = Math.max(1, m.segments.length);
  // a binary search reads ~16 postings per range of the document's segment
  if (todo.length * (ranges / segs) * 16 < m.rangePostings) searchRefs(m, todo);
  else scanRefs(m, todo);
}

function push(m: RefSource, w: number, segBits: number, q: number, d: number): void {
  const R = m.refs.reserve(1);
  const r = m.refs.length++;
  const o = r * REF_STRIDE;
  R[o] = segBits;
  R[o + 1] = q;
  R[o + 2] = m.head[w][d];
  m.head[w][d] = r;
}

/** Every recorded range read once, keeping the postings of wanted documents. */
function scanRefs(m: RefSource, todo: Int32Array): void {
  const want = m.want;
  for (let i = 0; i < todo.length; i++) want[todo[i] >>> 5] |= 1 << (todo[i] & 31);
  for (let w = 0; w < m.ranges.length; w++) {
    const typo = m.typo[w];
    const { data, length } = m.ranges[w];
    for (let k = 0; k < length; k += RANGE_STRIDE) {
      const segBits = data[k];
      const pDocs = m.segments[segBits >> 1].pDocs;
      for (let q = data[k + 1], end = data[k + 2]; q < end; q++) {
        const d = pDocs[q];
        if ((want[d >>> 5] & (1 << (d & 31))) === 0 || typo[d] === ABSENT) continue;
        push(m, w, segBits, q, d);
      }
    }
  }
  for (let i = 0; i < todo.length; i++) want[todo[i] >>> 5] = 0;
}

/** Per document: a binary search for it in each range of its segment. */
function searchRefs(m: RefSource, todo: Int32Array): void {
  for (let i = 0; i < todo.length; i++) {
    const d = todo[i];
    const s = segmentIndex(m.segments, d);
    if (s < 0) continue;
    const pDocs = m.segments[s].pDocs;
    for (let w = 0; w < m.ranges.length; w++) {
      if (m.typo[w][d] === ABSENT) continue;
      const data = m.ranges[w].data;
      for (let k = m.rangeStart[w][s] * RANGE_STRIDE, end = m.rangeStart[w][s + 1] * RANGE_STRIDE; k < end; k += RANGE_STRIDE) {
        let lo = data[k + 1];
        let hi = data[k + 2];
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (pDocs[mid] < d) lo = mid + 1;
          else hi = mid;
        }
        if (lo < data[k + 2] && pDocs[lo] === d) push(m, w, data[k], lo, d);
      }
    }
  }
}

/** The segment whose id range holds `d` (ranges ascend and are disjoint), -1 when none. */
function segmentIndex(segments: readonly Segment[], d: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const ids = segments[mid].docIds;
    if (ids.length && ids[0] > d) hi = mid - 1;
    else {
      if (ids.length) found = mid;
      lo = mid + 1;
    }
  }
  return found >= 0 && segments[found].docIds[segments[found].docIds.length - 1] >= d ? found : -1;
}

/** Calls `fn` with each exact posting (not typo/prefix/synonym) of word `w` in doc `d` until it returns true. */
function someExactPosting(m: RefSource, w: number, d: number, fn: (seg: Segment, posting: number) => boolean): boolean {
  const R = m.refs.data;
  for (let r = m.head[w][d]; r >= 0; r = R[r * REF_STRIDE + 2]) {
    const o = r * REF_STRIDE;
    if (R[o] & 1 && fn(m.segments[R[o] >> 1], R[o + 1])) return true;
  }
  return false;
}

/** Does word `w` match doc `d` exactly (not by typo/prefix/synonym) at encoded position `pos`? */
export function exactAt(m: RefSource, w: number, d: number, pos: number): boolean {
  return someExactPosting(m, w, d, (seg, q) => {
    const stored = storedPosition(seg, pos);
    for (let x = postingStart(seg, q), end = postingStart(seg, q + 1); x < end; x++) if (seg.positions[x] === stored) return true;
    return false;
  });
}

/**
 * Closest distance between words `a` and `b` in doc `d` over all their matching postings:
 * b after a costs the gap, b before a costs the gap + 1, other attributes `cap`; attributes outside
 * attributesToSearchOn are not read (a's positions there are skipped, and b's are compared only in
 * a's attribute). No allocation.
 */
export function pairDistance(m: RefSource, a: number, b: number, d: number, cap: number): number {
  let best = cap;
  const R = m.refs.data;
  const off = m.offAll;
  for (let ra = m.head[a][d]; ra >= 0; ra = R[ra * REF_STRIDE + 2]) {
    const seg = m.segments[R[ra * REF_STRIDE] >> 1];
    const P = seg.positions;
    // attribute = stored >>> sh (16-bit or 32-bit storage); within one attribute, stored values differ by the word gap
    const sh = seg.posShift;
    const qa = R[ra * REF_STRIDE + 1];
    for (let rb = m.head[b][d]; rb >= 0; rb = R[rb * REF_STRIDE + 2]) {
      const qb = R[rb * REF_STRIDE + 1];
      const b0 = postingStart(seg, qb);
      const b1 = postingStart(seg, qb + 1);
      let j = b0;
      for (let x = postingStart(seg, qa), a1 = postingStart(seg, qa + 1); x < a1; x++) {
        const p = P[x];
        if (off !== null && off[p >>> sh] === 1) continue;
        while (j < b1 && P[j] < p) j++;
        if (j < b1 && P[j] >>> sh === p >>> sh && P[j] !== p && P[j] - p < best) best = P[j] - p;
        if (j > b0 && P[j - 1] >>> sh === p >>> sh && p - P[j - 1] + 1 < best) best = p - P[j - 1] + 1;
        if (best <= 1) return 1;
      }
    }
  }
  return best;
}

/** The segment holding doc `d` (from its first matching posting of word 0). */
export function segmentOf(m: RefSource, d: number): Segment | null {
  const r = m.head[0][d];
  return r >= 0 ? m.segments[m.refs.data[r * REF_STRIDE] >> 1] : null;
}

/** Calls `fn` with every exact-match position of word `w` in doc `d`. */
export function forExactPositions(m: RefSource, w: number, d: number, fn: (pos: number) => void): void {
  someExactPosting(m, w, d, (seg, q) => {
    for (let x = postingStart(seg, q), end = postingStart(seg, q + 1); x < end; x++) fn(positionAt(seg, x));
    return false;
  });
}
