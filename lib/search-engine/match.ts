// Word matching over all segments. For each query word, every dictionary term it matches (exact, typo,
// prefix extension, synonym) is found per segment (typo.ts), and the postings of those terms are folded
// into per-document arrays indexed by internal id:
//   typo[w][d]   fewest typos with which word w matches doc d (255: not at all)
//   exact[w][d]  1 when the word itself (no typo, not a prefix extension, not a synonym) is in d
//   minPos[w][d] smallest encoded position (best attribute, then earliest word) of any match
//   matched[d]   words matched counted from the first (the words rule's count; every rule reads it)
// The matched posting ranges are recorded per word; the references to each document's postings
// (head[w][d], read by the proximity and exactness rules) are listed from them only for the documents
// those rules score (match-refs.ts).
// Dead documents and documents outside the filter are skipped here, so everything after sees only
// candidates.
import type { Bitset } from './bitset.js';
import { ALL_ALONE, type DictionaryView } from './dictionary.js';
import { GrowInt32 } from './growable.js';
import { ABSENT, RANGE_STRIDE, RefList, type RefSource } from './match-refs.js';
import type { QueryWord } from './query.js';
import { postingStart, type Segment } from './segment.js';
import { exactIndex, fuzzyLookup, fuzzyRanges, lowerBound } from './typo.js';

export { ABSENT };

export interface HighlightTerm {
  word: number;
  /** highlight only this many normalised characters (a prefix extension), 0 = the whole token */
  prefixLen: number;
}

/** Which query word a document token matches, for highlighting: stored terms, then prefix extensions. */
export class TermMatcher {
  private readonly exact = new Map<string, number>();
  constructor(private readonly words: readonly QueryWord[]) {}

  add(term: string, word: number): void {
    if (!this.exact.has(term)) this.exact.set(term, word);
  }

  get(term: string): HighlightTerm | undefined {
    const w = this.exact.get(term);
    if (w !== undefined) return { word: w, prefixLen: 0 };
    for (let i = 0; i < this.words.length; i++) {
      const q = this.words[i];
      if (q.prefix && term.length > q.text.length && term.startsWith(q.text)) return { word: i, prefixLen: q.text.length };
    }
    return undefined;
  }
}

export interface MatchData extends RefSource {
  words: QueryWord[];
  exact: Uint8Array[];
  minPos: Uint32Array[];
  /** per candidate: how many words it matches counted from the first (1..words.length) */
  matched: Uint8Array;
  /** documents matching the first word, ascending */
  candidates: Int32Array;
  /** matched terms, for highlighting */
  terms: TermMatcher;
  /**
   * for k words matched (counted from the first), their indexes in the order they stand in the query:
   * [0..k-1] unless the words were handed rarest first (frequency.ts)
   */
  inQueryOrder: number[][];
}

/** Per-word arrays reused from one search to the next (search is synchronous, so one set per engine). */
export class MatchScratch {
  private typo: Uint8Array[] = [];
  private exact: Uint8Array[] = [];
  private minPos: Uint32Array[] = [];
  private head: Int32Array[] = [];
  private matched = new Uint8Array(0);
  private built = new Int32Array(0);
  private want = new Uint32Array(0);
  private ids = new Int32Array(0);
  private epoch = 0;
  readonly refs = new RefList();

  /** Arrays for word `w` over `size` documents; only `typo` is reset (the others are written before read). */
  word(w: number, size: number): { typo: Uint8Array; exact: Uint8Array; minPos: Uint32Array; head: Int32Array } {
    if (!this.typo[w] || this.typo[w].length < size) {
      const cap = Math.max(size, Math.ceil((this.typo[w]?.length ?? 0) * 1.5));
      this.typo[w] = new Uint8Array(cap);
      this.exact[w] = new Uint8Array(cap);
      this.minPos[w] = new Uint32Array(cap);
      this.head[w] = new Int32Array(cap);
    }
    this.typo[w].fill(ABSENT, 0, size);
    return { typo: this.typo[w], exact: this.exact[w], minPos: this.minPos[w], head: this.head[w] };
  }

  /**
   * The matched-word counts over `size` documents. Not reset: only candidates are read, and the first
   * word's fold writes every candidate's count before any later word does.
   */
  matchedCounts(size: number): Uint8Array {
    if (this.matched.length < size) this.matched = new Uint8Array(Math.max(size, Math.ceil(this.matched.length * 1.5)));
    return this.matched;
  }

  /** Room for `n` candidate ids (the first word's documents), valid until the next search. */
  candidateIds(n: number): Int32Array {
    if (this.ids.length < n) this.ids = new Int32Array(Math.max(n, Math.ceil(this.ids.length * 1.5)));
    return this.ids.subarray(0, n);
  }

  /** The reference marks over `size` documents and this search's epoch (match-refs.ts). */
  marks(size: number): { built: Int32Array; want: Uint32Array; epoch: number } {
    if (this.built.length < size) {
      this.built = new Int32Array(Math.max(size, Math.ceil(this.built.length * 1.5)));
      this.epoch = 0;
    }
    if (this.want.length < (size + 31) >>> 5) this.want = new Uint32Array(((this.built.length + 31) >>> 5) + 1);
    if (++this.epoch === 0x7fffffff) {
      this.built.fill(0);
      this.epoch = 1;
    }
    return { built: this.built, want: this.want, epoch: this.epoch };
  }

  /** bytes held (the memory budget counts them: a query's words over a large index keep ~10 B per document each) */
  bytes(): number {
    let n = this.refs.data.byteLength + this.matched.byteLength + this.built.byteLength + this.want.byteLength + this.ids.byteLength;
    for (let w = 0; w < this.typo.length; w++) n += (this.typo[w]?.byteLength ?? 0) * 10;
    return n;
  }

  reset(): void {
    this.refs.length = 0;
  }
}

/**
 * `dictionary`: the union of the segments' dictionaries (dictionary.ts): a word's typo and prefix walk
 * runs once over it, and its matched runs are found in each segment's dictionary; segments it leaves
 * `alone` (all, without it) are walked on their own.
 */
export function matchWords(
  words: QueryWord[],
  segments: readonly Segment[],
  allowed: Bitset,
  size: number,
  scratch = new MatchScratch(),
  dictionary: DictionaryView = ALL_ALONE,
  off: AttributesOff | null = null,
  queryPos: readonly number[] | null = null,
): MatchData {
  scratch.reset();
  const m: MatchData = {
    words,
    segments,
    typo: [],
    exact: [],
    minPos: [],
    head: [],
    matched: scratch.matchedCounts(size),
    refs: scratch.refs,
    ranges: [],
    rangeStart: [],
    rangePostings: 0,
    ...scratch.marks(size),
    candidates: new Int32Array(0),
    terms: new TermMatcher(words),
    inQueryOrder: inQueryOrder(words.length, queryPos),
    offAll: off?.all ?? null,
  };
  // The first word's documents, listed as the fold finds them: ascending when its postings come in id
  // order (one term per segment: most common words); else sorted while few, or past size/32 read off
  // its typo array.
  const list = scratch.candidateIds(size + 1);
  const listMax = size >>> 5;
  let firstCount = 0;
  let inOrder = true;
  // A single-word query has no proximity: only the exact postings are referenced (exactness reads them).
  const allRefs = words.length > 1;
  words.forEach((word, w) => {
    const { typo, exact, minPos, head } = scratch.word(w, size);
    m.typo.push(typo);
    m.exact.push(exact);
    m.minPos.push(minPos);
    m.head.push(head);
    const ranges = new GrowInt32(64);
    const rangeStart = new Int32Array(segments.length + 1);
    m.ranges.push(ranges);
    m.rangeStart.push(rangeStart);
    // The rules read word w of a document only when it matches every word before it (matchedWords
    // in steps.ts counts from the first), so word w folds only those: the previous word's typo array
    // prunes the postings of a common later word (a short prefix) to the first words' documents.
    const target: FoldTarget = { typo, exact, minPos, matched: m.matched, count: w + 1, prev: w > 0 ? m.typo[w - 1] : null, allowed };
    /** fold postings [from, to) of segment s into the word's per-document arrays */
    const foldRange = (s: number, seg: Segment, from: number, to: number, typos: number, isExact: boolean) => {
      if (allRefs || isExact) {
        ranges.push((s << 1) | (isExact ? 1 : 0));
        ranges.push(from);
        ranges.push(to);
        m.rangePostings += to - from;
      }
      const found = fold(seg, from, to, typos, isExact, target, w === 0 ? list : null, firstCount, (typos > 0 ? off?.typo : off?.all) ?? null);
      if (w === 0 && found > 0) {
        // a fold adds documents in id order: in order overall if its first comes after the last listed
        if (firstCount > 0 && list[firstCount] < list[firstCount - 1]) inOrder = false;
        firstCount += found;
      }
    };
    const union = dictionary.terms;
    const runs = union.length ? unionRuns(union, word) : EMPTY_RUNS;
    if (runs.length) {
      // highlighting: typo matches and the word itself (plain prefix extensions TermMatcher recognises)
      const ex = exactIndex(union, word.text);
      for (let r = 0; r < runs.length; r += 3) {
        if (runs[r + 2] > 0) for (let u = runs[r]; u < runs[r + 1]; u++) m.terms.add(union[u], w);
        else if (ex >= runs[r] && ex < runs[r + 1]) m.terms.add(word.text, w);
      }
    }
    segments.forEach((seg, s) => {
      rangeStart[s] = ranges.length / RANGE_STRIDE;
      if (!dictionary.alone(seg)) {
        let ex = -2;
        segmentRuns(seg.terms, union, runs, (a, b, typos) => {
          if (typos === 0 && ex === -2) ex = exactIndex(seg.terms, word.text);
          for (let t = a; t < b; t++) foldRange(s, seg, seg.termStart[t], seg.termStart[t + 1], typos, typos === 0 && t === ex);
        });
      } else {
        fuzzyLookup(seg.terms, word.text, word.maxTypos, word.prefix, (t, typos) => {
          const term = seg.terms[t];
          const isExact = typos === 0 && term === word.text;
          // plain prefix extensions are recognised by TermMatcher without storing each (a short prefix has thousands)
          if (typos > 0 || isExact) m.terms.add(term, w);
          foldRange(s, seg, seg.termStart[t], seg.termStart[t + 1], typos, isExact);
        });
      }
      for (const alt of word.synonyms) foldSynonym(seg, alt, (q) => foldRange(s, seg, q, q + 1, 0, false));
    });
    rangeStart[segments.length] = ranges.length / RANGE_STRIDE;
    for (const alt of word.synonyms) for (const t of alt) m.terms.add(t, w);
  });
  const firsts = list.subarray(0, firstCount);
  m.candidates = inOrder ? firsts : firstCount < listMax ? firsts.sort() : ascending(list, m.typo[0], size);
  return m;
}

const EMPTY_RUNS: number[] = [];

/** MatchData.inQueryOrder for n words; `queryPos`: each word's place in the query (null: in order). */
function inQueryOrder(n: number, queryPos: readonly number[] | null): number[][] {
  const out: number[][] = [];
  for (let k = 0; k <= n; k++) {
    const chain = Array.from({ length: k }, (_, w) => w);
    if (queryPos) chain.sort((a, b) => queryPos[a] - queryPos[b]);
    out.push(chain);
  }
  return out;
}

/** The per-document arrays of one word a fold writes, and what lets a document in. */
interface FoldTarget {
  typo: Uint8Array;
  exact: Uint8Array;
  minPos: Uint32Array;
  matched: Uint8Array;
  /** words matched counted from the first, for a document this word adds */
  count: number;
  /**
   * the previous word's typo array: a later word folds only the documents it matched (which are
   * allowed), as the rules read word w only for documents matching every word before it; null for
   * the first word, which the filter's bitset gates
   */
  prev: Uint8Array | null;
  allowed: Bitset;
}

/**
 * Attributes where words do not match, per attribute rank (1: off): `all` for every match (outside a
 * search's attributesToSearchOn), `typo` for typo matches (those, and typoTolerance.disableOnAttributes).
 */
export interface AttributesOff {
  all: Uint8Array | null;
  typo: Uint8Array | null;
}

/**
 * Fold postings [from, to) of `seg` (matched with `typos`, exactly or not) into a word's arrays.
 * Returns how many documents it adds, listed in `first` (when given) from index `at`. With `off`
 * (AttributesOff), a document counts only through a position outside the attributes it marks, and
 * its first such position is the word's minPos. A function of its own with the arrays in locals (a
 * closure read them from its context at each posting: ~30 % slower).
 */
function fold(seg: Segment, from: number, to: number, typos: number, isExact: boolean, t: FoldTarget, first: Int32Array | null, at: number, off: Uint8Array | null): number {
  const { pDocs, pBase, pRel, pShift, positions, posShift } = seg;
  const { typo, exact, minPos, matched, count, prev, allowed } = t;
  const low = (1 << posShift) - 1;
  const ex = isExact ? 1 : 0;
  let found = 0;
  for (let q = from; q < to; q++) {
    const d = pDocs[q];
    if (prev === null ? (allowed[d >>> 5] & (1 << (d & 31))) === 0 : prev[d] === ABSENT) continue;
    // the posting's first position (positionAt, inlined), or its first outside `off`
    let x = pBase[q >>> pShift] + pRel[q];
    if (off !== null) {
      const end = postingStart(seg, q + 1);
      while (x < end && off[posShift === 16 ? positions[x] >>> 16 : positions[x] >>> posShift] === 1) x++;
      if (x === end) continue;
    }
    const v = positions[x];
    const p0 = posShift === 16 ? v : (v >>> posShift) * 65536 + (v & low);
    const cur = typo[d];
    if (cur === ABSENT) {
      if (first !== null) first[at + found] = d;
      found++;
      typo[d] = typos;
      matched[d] = count;
      minPos[d] = p0;
      exact[d] = ex;
    } else {
      if (typos < cur) typo[d] = typos;
      if (p0 < minPos[d]) minPos[d] = p0;
      if (ex) exact[d] = 1;
    }
  }
  return found;
}

/**
 * The union's runs (unionRuns) found in a segment's dictionary `T`: each as the segment's [a, b) and
 * its typo count, runs it lacks skipped (ascending, so each search starts where the last ended).
 */
export function segmentRuns(T: readonly string[], union: readonly string[], runs: readonly number[], emit: (a: number, b: number, typos: number) => void): void {
  let from = 0;
  for (let r = 0; r < runs.length; r += 3) {
    const first = union[runs[r]];
    const a = lowerBound(T, first, from);
    let b = a;
    if (runs[r + 1] - runs[r] === 1) {
      if (a < T.length && T[a] === first) b++;
    } else {
      const last = union[runs[r + 1] - 1];
      b = lowerBound(T, last, a);
      if (b < T.length && T[b] === last) b++;
    }
    from = b;
    if (a < b) emit(a, b, runs[r + 2]);
  }
}

/** The word's matching runs of `terms` as (lo, hi, typos) triples, ascending. */
export function unionRuns(terms: readonly string[], word: QueryWord): number[] {
  const runs: number[] = [];
  let sorted = true;
  fuzzyRanges(terms, word.text, word.maxTypos, word.prefix, (lo, hi, typos) => {
    if (runs.length && lo < runs[runs.length - 2]) sorted = false;
    runs.push(lo, hi, typos);
  });
  if (sorted) return runs;
  const order = Array.from({ length: runs.length / 3 }, (_, k) => k).sort((x, y) => runs[3 * x] - runs[3 * y]);
  return order.flatMap((k) => [runs[3 * k], runs[3 * k + 1], runs[3 * k + 2]]);
}

/**
 * The first word's documents, ascending, read off its typo array in one pass over the ids (cheaper than
 * sorting hundreds of thousands). `out` holds one more than there are: every id is written and only a
 * match moves on (no branch to mispredict where half the ids match).
 */
function ascending(out: Int32Array, typo: Uint8Array, size: number): Int32Array {
  let k = 0;
  for (let d = 0; d < size; d++) {
    out[k] = d;
    k += ((typo[d] ^ ABSENT) + 0xff) >>> 8;
  }
  return out.subarray(0, k);
}

/** Postings of the first word of `alt` in documents that contain every word of `alt`. */
function foldSynonym(seg: Segment, alt: string[], emit: (posting: number) => void): void {
  const idx = alt.map((t) => exactIndex(seg.terms, t));
  if (idx.some((i) => i < 0)) return;
  const cursors = idx.map((t) => seg.termStart[t]);
  const ends = idx.map((t) => seg.termStart[t + 1]);
  for (let q = cursors[0]; q < ends[0]; q++) {
    const d = seg.pDocs[q];
    let all = true;
    for (let j = 1; j < idx.length; j++) {
      while (cursors[j] < ends[j] && seg.pDocs[cursors[j]] < d) cursors[j]++;
      if (cursors[j] >= ends[j] || seg.pDocs[cursors[j]] !== d) {
        all = false;
        break;
      }
    }
    if (all) emit(q);
  }
}
