// Phrase search over the segments' postings: a document holds a phrase when its words stand at
// consecutive positions of one attribute value (a position is attribute * 65536 + word index, and
// the values of an attribute sit VALUE_GAP positions apart, so a phrase never spans two values).
// Words are looked up exactly: no typo, prefix or synonym (query.ts reads the phrases).
// Cost: one walk over the postings of the phrase's rarest word, a binary search into each other
// word's postings per document still allowed, then the positions of those postings.
import { clear, has, set, type Bitset } from './bitset.js';
import type { QueryPhrase } from './query.js';
import { positionAt, postingStart, storedPosition, type Segment } from './segment.js';
import { lowerBound } from './sorted.js';
import { exactIndex } from './typo.js';

/**
 * `allowed` narrowed by each phrase: to the documents holding it, or (a `-"..."` phrase) to those
 * that do not. `allowed` itself is left as it is; a new bitset is returned when anything changes.
 */
export function withPhrases(segments: readonly Segment[], allowed: Bitset, phrases: readonly QueryPhrase[], off: Uint8Array | null = null): Bitset {
  let out = allowed;
  for (const p of phrases) {
    if (p.negated) {
      out = out === allowed ? allowed.slice() : out;
      forEachHolder(segments, out, p.terms, off, (d) => clear(out, d));
    } else {
      const holders: Bitset = new Uint32Array(out.length);
      forEachHolder(segments, out, p.terms, off, (d) => set(holders, d));
      out = holders;
    }
  }
  return out;
}

/** Calls `emit` with every document of `within` whose text holds `terms` in a row, in an attribute `off` leaves on. */
function forEachHolder(segments: readonly Segment[], within: Bitset, terms: readonly string[], off: Uint8Array | null, emit: (doc: number) => void): void {
  const n = terms.length;
  const from = new Uint32Array(n);
  const to = new Uint32Array(n);
  const posting = new Uint32Array(n);
  for (const seg of segments) {
    let rarest = -1;
    for (let k = 0; k < n; k++) {
      const t = exactIndex(seg.terms, terms[k]);
      if (t < 0) {
        rarest = -1;
        break;
      }
      from[k] = seg.termStart[t];
      to[k] = seg.termStart[t + 1];
      if (rarest < 0 || to[k] - from[k] < to[rarest] - from[rarest]) rarest = k;
    }
    if (rarest < 0) continue;
    for (let p = from[rarest]; p < to[rarest]; p++) {
      const d = seg.pDocs[p];
      if (!has(within, d)) continue;
      let all = true;
      for (let k = 0; k < n && all; k++) {
        if (k === rarest) posting[k] = p;
        else {
          // postings are in doc order: each word's cursor only moves forward
          const q = lowerBound(seg.pDocs, d, from[k], to[k]);
          from[k] = q;
          all = q < to[k] && seg.pDocs[q] === d;
          posting[k] = q;
        }
      }
      if (all && inARow(seg, posting, off)) emit(d);
    }
  }
}

/** Whether some position of the first posting (in an attribute `off` leaves on) is followed by one of each next posting, one word apart. */
function inARow(seg: Segment, posting: Uint32Array, off: Uint8Array | null): boolean {
  const first = posting[0];
  for (let x = postingStart(seg, first), end = postingStart(seg, first + 1); x < end; x++) {
    const start = positionAt(seg, x);
    if (off && off[start >>> 16] === 1) continue;
    let k = 1;
    for (; k < posting.length; k++) {
      const want = storedPosition(seg, start + k);
      if (want < 0) break;
      const lo = postingStart(seg, posting[k]);
      const hi = postingStart(seg, posting[k] + 1);
      const i = lowerBound(seg.positions, want, lo, hi);
      if (i >= hi || seg.positions[i] !== want) break;
    }
    if (k === posting.length) return true;
  }
  return false;
}
