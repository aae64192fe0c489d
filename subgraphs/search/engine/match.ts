// Word matching over all segments. For each query word, every dictionary term it matches (exact, typo,
// prefix extension, synonym) is found per segment (typo.ts), and the postings of those terms are folded
// into per-document arrays indexed by internal id:
//   typo[w][d]   fewest typos with which word w matches doc d (255: not at all)
//   exact[w][d]  1 when the word itself (no typo, not a prefix extension, not a synonym) is in d
//   minPos[w][d] smallest encoded position (best attribute, then earliest word) of any match
//   head[w][d]   linked list of the matching postings (segment, position range), read lazily by the
//                proximity and exactness rules for the few documents they have to order.
// Dead documents and documents outside the filter are skipped here, so everything after sees only
// candidates.
import { has, type Bitset } from './bitset.js';
import { GrowInt32 } from './growable.js';
import type { QueryWord } from './query.js';
import type { Segment } from './segment.js';
import { exactIndex, fuzzyLookup } from './typo.js';

export const ABSENT = 255;

export interface HighlightTerm {
  word: number;
  /** highlight only this many normalised characters (a prefix extension), 0 = the whole token */
  prefixLen: number;
}

export interface MatchData {
  words: QueryWord[];
  segments: readonly Segment[];
  typo: Uint8Array[];
  exact: Uint8Array[];
  minPos: Uint32Array[];
  head: Int32Array[];
  /** posting references: segment index, posting index, next reference (-1 ends), exact flag */
  refSeg: GrowInt32;
  refPosting: GrowInt32;
  refNext: GrowInt32;
  refExact: GrowInt32;
  /** documents matching the first word, ascending */
  candidates: Int32Array;
  /** matched terms, for highlighting */
  terms: Map<string, HighlightTerm>;
}

export function matchWords(words: QueryWord[], segments: readonly Segment[], allowed: Bitset, size: number): MatchData {
  const m: MatchData = {
    words,
    segments,
    typo: [],
    exact: [],
    minPos: [],
    head: [],
    refSeg: new GrowInt32(4096),
    refPosting: new GrowInt32(4096),
    refNext: new GrowInt32(4096),
    refExact: new GrowInt32(4096),
    candidates: new Int32Array(0),
    terms: new Map(),
  };
  const first = new GrowInt32(1024);
  words.forEach((word, w) => {
    const typo = new Uint8Array(size).fill(ABSENT);
    const exact = new Uint8Array(size);
    const minPos = new Uint32Array(size);
    const head = new Int32Array(size).fill(-1);
    m.typo.push(typo);
    m.exact.push(exact);
    m.minPos.push(minPos);
    m.head.push(head);
    const fold = (s: number, seg: Segment, q: number, typos: number, isExact: boolean) => {
      const d = seg.pDocs[q];
      if (!has(allowed, d)) return;
      const cur = typo[d];
      const p0 = seg.positions[seg.pPos[q]];
      if (cur === ABSENT) {
        if (w === 0) first.push(d);
        typo[d] = typos;
        minPos[d] = p0;
      } else {
        if (typos < cur) typo[d] = typos;
        if (p0 < minPos[d]) minPos[d] = p0;
      }
      if (isExact) exact[d] = 1;
      const r = m.refSeg.length;
      m.refSeg.push(s);
      m.refPosting.push(q);
      m.refNext.push(head[d]);
      m.refExact.push(isExact ? 1 : 0);
      head[d] = r;
    };
    segments.forEach((seg, s) => {
      fuzzyLookup(seg.terms, word.text, word.maxTypos, word.prefix, (t, typos) => {
        const term = seg.terms[t];
        const isExact = typos === 0 && term === word.text;
        if (!m.terms.has(term) || isExact) m.terms.set(term, { word: w, prefixLen: typos === 0 && !isExact ? word.text.length : 0 });
        for (let q = seg.termStart[t]; q < seg.termStart[t + 1]; q++) fold(s, seg, q, typos, isExact);
      });
      for (const alt of word.synonyms) foldSynonym(seg, s, alt, (q) => fold(s, seg, q, 0, false));
    });
    for (const alt of word.synonyms) for (const t of alt) if (!m.terms.has(t)) m.terms.set(t, { word: w, prefixLen: 0 });
  });
  m.candidates = first.toArray().sort();
  return m;
}

/** Postings of the first word of `alt` in documents that contain every word of `alt`. */
function foldSynonym(seg: Segment, _s: number, alt: string[], emit: (posting: number) => void): void {
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

/** Sorted positions of word `w` in doc `d` (optionally only exact matches). */
export function positionsOf(m: MatchData, w: number, d: number, exactOnly = false): number[] {
  const out: number[] = [];
  for (let r = m.head[w][d]; r >= 0; r = m.refNext.data[r]) {
    if (exactOnly && !m.refExact.data[r]) continue;
    const seg = m.segments[m.refSeg.data[r]];
    const q = m.refPosting.data[r];
    for (let x = seg.pPos[q]; x < seg.pPos[q + 1]; x++) out.push(seg.positions[x]);
  }
  return out.length > 1 ? out.sort((a, b) => a - b) : out;
}

/** The segment (index) holding doc `d` according to its first matching posting of word 0. */
export function segmentOf(m: MatchData, d: number): Segment | null {
  const r = m.head[0][d];
  return r >= 0 ? m.segments[m.refSeg.data[r]] : null;
}
