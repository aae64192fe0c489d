// Facet distribution and stats over ALL candidates (every hit the query and filter match, not only
// the page), read from the per-segment field indexes: each value's doc list is tested against the
// candidate bitset, so the cost is the number of (value, doc) pairs of the facet, not of documents.
// Values are counted under their normalised form and shown as first written; numbers as strings
// ("10"). As Meilisearch: at most `maxValuesPerFacet` (100) values, sorted alphabetically by default
// or by count (descending) on request. Stats (min, max, avg, sum) cover numeric values only; each
// (document, value) pair counts once.
// When the caller has the candidates as ids, counting goes the other way: each candidate's value is
// read from a per-segment forward array (doc → its one string value), built once per immutable
// segment and field, so the cost is one array read per candidate instead of a bitset test per
// (value, doc) pair of the whole index (at 1,000,000 documents the scan cost ~10 ms a facet whatever
// the query matched); fields with several or numeric values per document keep the scan.
import { has, type Bitset } from './bitset.js';
import type { FieldIndex } from './field-index.js';
import type { Segment } from './segment.js';
import { lowerBound } from './sorted.js';
import { tokenize } from './tokenizer.js';
import { fuzzyRanges } from './typo.js';
import type { FacetOrder, FacetStats } from './types.js';

/**
 * A segment's forward array for one field: doc id − the segment's first id → a code, the ordinal of
 * the document's one string value, or NONE (no value, or an id of another segment or a dead one), or
 * SEVERAL (several or numeric values), NONE and SEVERAL being the two codes after the ordinals. The
 * narrowest array that holds the codes (one byte for a field of up to 254 values), so counting reads
 * a quarter of the bytes of 32-bit codes; and every code indexes the counts, so the count loop has no
 * branch. Indexed by id offset, so a candidate's code is one array read.
 */
interface Forward {
  codes: Uint8Array | Uint16Array | Uint32Array;
  /** code of "no value" (= number of values); SEVERAL is none + 1 */
  none: number;
}
const forwards = new WeakMap<FieldIndex, Forward>();

function forwardOf(seg: Segment, f: FieldIndex): Forward {
  let fw = forwards.get(f);
  if (fw) return fw;
  const base = seg.docIds[0];
  const none = f.strValues.length;
  const several = none + 1;
  const n = seg.docIds[seg.docIds.length - 1] - base + 1;
  const codes = several < 256 ? new Uint8Array(n) : several < 65536 ? new Uint16Array(n) : new Uint32Array(n);
  codes.fill(none);
  for (let i = 0; i < f.strValues.length; i++) {
    for (let j = f.strStart[i]; j < f.strStart[i + 1]; j++) {
      const l = f.strDocs[j] - base;
      codes[l] = codes[l] === none ? i : several;
    }
  }
  for (let j = 0; j < f.numDocs.length; j++) codes[f.numDocs[j] - base] = several;
  forwards.set(f, (fw = { codes, none }));
  return fw;
}

/**
 * Counts per (segment, value ordinal) over the candidates' forward codes (each counts array has the
 * NONE and SEVERAL slots last); null when a candidate has several values. The candidates of a segment
 * are one run of `ids` (ids ascend, segments' id ranges ascend and are disjoint), found by binary search.
 */
function countForward(segments: readonly Segment[], ids: Int32Array, attr: string): Map<Segment, Int32Array> | null {
  const out = new Map<Segment, Int32Array>();
  let k = 0;
  for (const seg of segments) {
    const n = seg.docIds.length;
    if (n === 0) continue;
    const base = seg.docIds[0];
    const from = lowerBound(ids, base, k);
    const to = (k = lowerBound(ids, seg.docIds[n - 1] + 1, from));
    const f = seg.fields.get(attr);
    if (from === to || !f) continue;
    const { codes, none } = forwardOf(seg, f);
    const counts = countCodes(codes, ids, from, to, base, none + 2);
    if (counts[none + 1] > 0) return null;
    out.set(seg, counts);
  }
  return out;
}

/**
 * How many of ids[from..to) have each code (codes[id - base]). A field of few values counts into four
 * interleaved tables summed at the end: most candidates share a few values (a priority, a section),
 * and increments of one counter in a row each wait on the one before.
 */
function countCodes(codes: Forward['codes'], ids: Int32Array, from: number, to: number, base: number, slots: number): Int32Array {
  const ways = slots <= 1024 ? 4 : 1;
  const t = new Int32Array(ways * slots);
  let j = from;
  if (ways === 4) {
    for (; j + 4 <= to; j += 4) {
      t[codes[ids[j] - base]]++;
      t[slots + codes[ids[j + 1] - base]]++;
      t[2 * slots + codes[ids[j + 2] - base]]++;
      t[3 * slots + codes[ids[j + 3] - base]]++;
    }
    for (let v = 0; v < slots; v++) t[v] += t[slots + v] + t[2 * slots + v] + t[3 * slots + v];
  }
  for (; j < to; j++) t[codes[ids[j] - base]]++;
  return t.subarray(0, slots);
}

export interface FacetOptions {
  maxValuesPerFacet: number;
  /** one order for every facet, or each facet's */
  sortBy: FacetOrder | ((attr: string) => FacetOrder);
  /** counts only the values this keeps (facet search: facetValueMatcher) */
  keep?: (display: string) => boolean;
}

/**
 * Facet search's value match: every word of `query` begins a word of the value, case and accents
 * ignored ("dick" and "charles dic" keep "Charles Dickens"; "ickens" does not), with as many typos as
 * `typos` allows the word (the index's typo rules, as a search's words: "dikens" keeps it too).
 * Undefined (every value) for a query without words. Each value is read once per search.
 */
export function facetValueMatcher(query: string | null | undefined, typos: (word: string) => number = () => 0): ((display: string) => boolean) | undefined {
  const words = tokenize(query ?? '');
  if (!words.length) return undefined;
  const budgets = words.map(typos);
  const seen = new Map<string, boolean>();
  return (display) => {
    let m = seen.get(display);
    if (m === undefined) {
      const tokens = [...new Set(tokenize(display))].sort();
      m = words.every((w, i) => begins(tokens, w, budgets[i]));
      seen.set(display, m);
    }
    return m;
  };
}

/** Does `word`, with at most `typos`, begin one of the sorted `tokens`? */
function begins(tokens: readonly string[], word: string, typos: number): boolean {
  let found = false;
  fuzzyRanges(tokens, word, typos, true, () => {
    found = true;
  });
  return found;
}

export function computeFacets(
  segments: readonly Segment[],
  /** the candidates as a bitset, or a function making it (called only when a facet needs the scan) */
  candidateBits: Bitset | (() => Bitset),
  facets: readonly string[],
  opts: FacetOptions,
  /** the candidates as ascending ids, when the caller has them (enables the forward path) */
  candidateIds?: Int32Array,
): { distribution: Record<string, Record<string, number>>; stats: Record<string, FacetStats> } {
  const forward = candidateIds !== undefined;
  const distribution: Record<string, Record<string, number>> = {};
  const stats: Record<string, FacetStats> = {};
  let bits = typeof candidateBits === 'function' ? null : candidateBits;
  const candidates = (): Bitset => (bits ??= (candidateBits as () => Bitset)());
  for (const attr of facets) {
    const counts = new Map<string, { display: string; count: number }>();
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let n = 0;
    const bump = (key: string, display: string, c: number) => {
      if (c === 0 || (opts.keep && !opts.keep(display))) return;
      const e = counts.get(key);
      if (e) e.count += c;
      else counts.set(key, { display, count: c });
    };
    const counted = forward ? countForward(segments, candidateIds!, attr) : null;
    if (counted) {
      for (const [seg, c] of counted) {
        const f = seg.fields.get(attr)!;
        for (let i = 0; i < f.strValues.length; i++) bump(f.strValues[i], f.strDisplay[i], c[i]);
      }
    }
    for (const seg of counted ? [] : segments) {
      const f = seg.fields.get(attr);
      if (!f) continue;
      const cands = candidates();
      for (let i = 0; i < f.strValues.length; i++) {
        let c = 0;
        for (let j = f.strStart[i]; j < f.strStart[i + 1]; j++) if (has(cands, f.strDocs[j])) c++;
        bump(f.strValues[i], f.strDisplay[i], c);
      }
      let j = 0;
      while (j < f.numValues.length) {
        const v = f.numValues[j];
        let c = 0;
        for (; j < f.numValues.length && f.numValues[j] === v; j++) if (has(cands, f.numDocs[j])) c++;
        if (c) {
          const key = String(v);
          bump(key, key, c);
          if (v < min) min = v;
          if (v > max) max = v;
          sum += v * c;
          n += c;
        }
      }
    }
    const entries = [...counts.entries()];
    if ((typeof opts.sortBy === 'function' ? opts.sortBy(attr) : opts.sortBy) === 'count') entries.sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
    else entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const out: Record<string, number> = {};
    for (const [, e] of entries.slice(0, opts.maxValuesPerFacet)) out[e.display] = e.count;
    distribution[attr] = out;
    if (n > 0) stats[attr] = { min, max, avg: sum / n, sum };
  }
  return { distribution, stats };
}
