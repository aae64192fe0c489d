// An immutable segment: the inverted index of one batch of documents (or of several merged batches).
// Layout is flat typed arrays (CSR), not lunr's nested objects: building it is a counting sort of
// (term, doc, position) triples, and memory is ~4 bytes per position + 8 per posting.
//
//   terms[t]                    sorted dictionary (the typo walk runs over it, see typo.ts)
//   termStart[t]..termStart[t+1] postings of term t: pDocs[p] (global doc ids, ascending)
//   postingStart(p)..postingStart(p+1)  positions of posting p in `positions`, ascending; the start
//                                is pBase[p >>> pShift] + pRel[p]: a 32-bit base per block of 64 postings
//                                and a 16-bit offset per posting (6 bytes per posting instead of 8 as
//                                one Uint32Array; a smaller block when 64 postings span 65,536 positions);
//                                a position is attribute * 65536 + word index within the attribute,
//                                so the first one is the best attribute and the earliest word;
//                                stored as attribute << posShift | word: 16-bit when both fit (posShift
//                                = 16 − the bits of the largest attribute), else 32-bit (posShift 16);
//                                order and word gaps are the same in both (positionAt decodes).
//   lens[local * nAttrs + a]    tokens of attribute a in the document (for the exactness rule)
//   fields                      filter/facet indexes per filterable leaf path; geo for `_geo`
//
// Deleting or replacing a document never touches a segment: the engine clears its bit in the
// liveness bitset, and merges drop dead postings.
import { randomUUID } from 'node:crypto';
import { has, type Bitset } from './bitset.js';
import { mergeFieldIndexes, FieldIndexBuilder, type FieldIndex } from './field-index.js';
import { valueAt, visitLeaves, visitText } from './fields.js';
import { buildGeo, geoOf, mergeGeo, type GeoIndex } from './geo.js';
import { GrowInt32, GrowUint32 } from './growable.js';
import { lowerBound } from './sorted.js';
import { tokenize } from './tokenizer.js';
import type { Document } from './types.js';
import { runSteps } from '../generator-steps.js';

/** Positions an array element or another field value is pushed away from the previous one (as Meilisearch). */
export const VALUE_GAP = 8;
const MAX_WORD_POS = 65535;

export interface Segment {
  /** identity of this immutable segment (kept by snapshots): an incremental snapshot reuses its stored chunks */
  key: string;
  docIds: Int32Array;
  terms: string[];
  termStart: Uint32Array;
  pDocs: Int32Array;
  /** where each block of 2^pShift postings starts in `positions` (see postingStart) */
  pBase: Uint32Array;
  /** per posting (and one past the last): its start in `positions` over its block's base */
  pRel: Uint16Array;
  pShift: number;
  positions: Uint32Array | Uint16Array;
  /** where the attribute starts in a stored position: 16 for 32-bit positions, less for 16-bit ones */
  posShift: number;
  nAttrs: number;
  lens: Uint16Array;
  fields: Map<string, FieldIndex>;
  geo: GeoIndex | null;
}

export interface BuildSpec {
  /** searchable content of a document: (attribute rank, value) pairs, ascending rank */
  searchable(doc: Document): Array<[number, unknown]>;
  nAttrs: number;
  /** the index's tokenizer (analyzer.ts); the default rule when absent */
  tokenize?: (text: string) => string[];
  /** filterable roots (leaf paths below them are indexed) */
  filterable: readonly string[];
  geo: boolean;
}

export function buildSegment(entries: { id: number; doc: Document }[], spec: BuildSpec): Segment {
  const n = entries.length;
  const nAttrs = Math.max(1, spec.nAttrs);
  const termIds = new Map<string, number>();
  const termStrs: string[] = [];
  const tTerm = new GrowInt32(n * 64);
  const tDoc = new GrowInt32(n * 64);
  const tPos = new GrowUint32(n * 64);
  const lens = new Uint16Array(n * nAttrs);
  const builders = new Map<string, FieldIndexBuilder>();
  const builder = (path: string) => {
    let b = builders.get(path);
    if (!b) builders.set(path, (b = new FieldIndexBuilder()));
    return b;
  };
  const points: { doc: number; lat: number; lng: number }[] = [];
  const nextPos = new Int32Array(nAttrs);
  const tokenizeText = spec.tokenize ?? tokenize;

  for (let local = 0; local < n; local++) {
    const { id, doc } = entries[local];
    nextPos.fill(0);
    for (const [attr, value] of spec.searchable(doc)) {
      visitText(value, (text) => {
        let pos = nextPos[attr];
        let count = 0;
        for (const tok of tokenizeText(text)) {
          let t = termIds.get(tok);
          if (t === undefined) {
            t = termStrs.length;
            termIds.set(tok, t);
            termStrs.push(tok);
          }
          tTerm.push(t);
          tDoc.push(local);
          tPos.push(attr * 65536 + Math.min(pos++, MAX_WORD_POS));
          count++;
        }
        nextPos[attr] = pos + VALUE_GAP;
        const li = local * nAttrs + attr;
        lens[li] = Math.min(65535, lens[li] + count);
      });
    }
    for (const f of spec.filterable) {
      visitLeaves(
        valueAt(doc, f),
        f,
        (path, leaf) => builder(path).addLeaf(id, leaf),
        (path, empty, isNull) => builder(path).addPath(id, empty, isNull),
      );
    }
    if (spec.geo) {
      const g = geoOf(doc._geo);
      if (g) points.push({ doc: id, ...g });
    }
  }

  // sort the dictionary (the default sort compares UTF-16 code units, as `<` does, without calling back
  // into JS per comparison), then counting-sort the triples by term rank (stable: docs and positions
  // stay ascending)
  const terms = termStrs.slice().sort();
  const nTerms = terms.length;
  const rank = new Int32Array(nTerms);
  for (let r = 0; r < nTerms; r++) rank[termIds.get(terms[r])!] = r;
  const counts = new Uint32Array(nTerms + 1);
  const T = tTerm.length;
  for (let k = 0; k < T; k++) counts[rank[tTerm.data[k]] + 1]++;
  for (let r = 0; r < nTerms; r++) counts[r + 1] += counts[r];
  const sorted = new Int32Array(T);
  const fill = counts.slice(0, nTerms);
  for (let k = 0; k < T; k++) sorted[fill[rank[tTerm.data[k]]]++] = k;

  const termStart = new Uint32Array(nTerms + 1);
  const pDocs = new GrowInt32(Math.max(16, T >> 1));
  const pPos = new GrowUint32(Math.max(16, T >> 1));
  const positions = new Uint32Array(T);
  let curR = -1;
  let curD = -1;
  for (let i = 0; i < T; i++) {
    const k = sorted[i];
    const r = rank[tTerm.data[k]];
    const d = tDoc.data[k];
    if (r !== curR) {
      termStart[r] = pDocs.length;
      curR = r;
      curD = -1;
    }
    if (d !== curD) {
      pDocs.push(entries[d].id);
      pPos.push(i);
      curD = d;
    }
    positions[i] = tPos.data[k];
  }
  termStart[nTerms] = pDocs.length;
  pPos.push(T);

  const fields = new Map<string, FieldIndex>();
  for (const [path, b] of builders) fields.set(path, b.build());
  return {
    docIds: Int32Array.from(entries, (e) => e.id),
    terms,
    termStart,
    pDocs: pDocs.toArray(),
    ...packPostingStarts(pPos.toArray()),
    ...packPositions(positions),
    nAttrs,
    lens,
    fields,
    geo: spec.geo ? buildGeo(points) : null,
    key: randomUUID(),
  };
}

/** postings a step of mergeSegmentSteps writes (or counts) before it yields: a few ms of work */
const MERGE_STEP_POSTINGS = 65_536;

/** Merge adjacent segments (ascending id ranges) into one, dropping dead documents. No re-tokenising. */
export function mergeSegments(parts: Segment[], alive: Bitset): Segment {
  return runSteps(mergeSegmentSteps(parts, alive));
}

/**
 * mergeSegments in steps of about MERGE_STEP_POSTINGS postings, for a caller that lets other work run
 * between them (`alive` must not change meanwhile: pass a copy). A first pass counts the live documents,
 * postings and positions and the widest position, so every output array is allocated once at its final
 * size and width: the merge holds its inputs plus exactly one output segment, never a doubling buffer
 * or a 32-bit copy of 16-bit positions.
 */
export function* mergeSegmentSteps(parts: Segment[], alive: Bitset): Generator<void, Segment> {
  const nAttrs = Math.max(...parts.map((p) => p.nAttrs));
  let nDocs = 0;
  let nPostings = 0;
  let nPositions = 0;
  let nTerms = 0;
  let maxAttr = 0;
  let maxWord = 0;
  let budget = MERGE_STEP_POSTINGS;
  for (const p of parts) {
    for (let l = 0; l < p.docIds.length; l++) if (has(alive, p.docIds[l])) nDocs++;
    nTerms += p.terms.length;
    for (let q = 0; q < p.pDocs.length; q++) {
      if (!has(alive, p.pDocs[q])) continue;
      nPostings++;
      for (let x = postingStart(p, q), end = postingStart(p, q + 1); x < end; x++) {
        const v = positionAt(p, x);
        if (v >>> 16 > maxAttr) maxAttr = v >>> 16;
        if ((v & 0xffff) > maxWord) maxWord = v & 0xffff;
        nPositions++;
      }
      if (--budget === 0) {
        budget = MERGE_STEP_POSTINGS;
        yield;
      }
    }
  }
  const docIds = new Int32Array(nDocs);
  const lens = new Uint16Array(nDocs * nAttrs);
  let k = 0;
  for (const p of parts) {
    for (let local = 0; local < p.docIds.length; local++) {
      const d = p.docIds[local];
      if (!has(alive, d)) continue;
      for (let a = 0; a < p.nAttrs; a++) lens[k * nAttrs + a] = p.lens[local * p.nAttrs + a];
      docIds[k++] = d;
    }
  }
  yield;
  const { posShift, wide } = positionLayout(maxAttr, maxWord);
  const positions = wide ? new Uint32Array(nPositions) : new Uint16Array(nPositions);
  const terms: string[] = [];
  const starts = new Uint32Array(nTerms + 1);
  const pDocs = new Int32Array(nPostings);
  // written straight in the two-level form: no 32-bit array of every posting's start while merging
  const postingStarts = new PostingStartsWriter(nPostings + 1);
  let np = 0;
  let nx = 0;
  const ptr = parts.map(() => 0);
  budget = MERGE_STEP_POSTINGS;
  for (;;) {
    // k-way merge of the sorted dictionaries (k is small: a handful of segments per merge)
    let min: string | null = null;
    for (let s = 0; s < parts.length; s++) {
      const t = parts[s].terms[ptr[s]];
      if (t !== undefined && (min === null || t < min)) min = t;
    }
    if (min === null) break;
    const start = np;
    for (let s = 0; s < parts.length; s++) {
      const p = parts[s];
      if (p.terms[ptr[s]] !== min) continue;
      const t = ptr[s]++;
      for (let q = p.termStart[t]; q < p.termStart[t + 1]; q++) {
        const d = p.pDocs[q];
        if (!has(alive, d)) continue;
        pDocs[np++] = d;
        postingStarts.push(nx);
        for (let x = postingStart(p, q), end = postingStart(p, q + 1); x < end; x++) {
          const v = positionAt(p, x);
          positions[nx++] = wide ? v : ((v >>> 16) << posShift) | (v & 0xffff);
        }
        budget--;
      }
    }
    if (np > start) {
      starts[terms.length] = start;
      terms.push(min);
    }
    if (budget <= 0) {
      budget = MERGE_STEP_POSTINGS;
      yield;
    }
  }
  starts[terms.length] = np;
  postingStarts.push(nx);
  const paths = new Set<string>();
  for (const p of parts) for (const key of p.fields.keys()) paths.add(key);
  const fields = new Map<string, FieldIndex>();
  for (const path of paths) {
    yield;
    const f = mergeFieldIndexes(parts.map((p) => p.fields.get(path)).filter((x): x is FieldIndex => !!x), alive);
    if (f.exists.length) fields.set(path, f);
  }
  const geos = parts.map((p) => p.geo).filter((g): g is GeoIndex => !!g);
  return {
    docIds,
    terms,
    termStart: terms.length === nTerms ? starts : starts.slice(0, terms.length + 1),
    pDocs,
    ...postingStarts.finish(),
    positions,
    posShift,
    nAttrs,
    lens,
    fields,
    geo: geos.length ? mergeGeo(geos, alive) : null,
    key: randomUUID(),
  };
}

/** Index of global doc `id` in the segment, or -1. */
export function localIndex(seg: Segment, id: number): number {
  const lo = lowerBound(seg.docIds, id);
  return lo < seg.docIds.length && seg.docIds[lo] === id ? lo : -1;
}

/** Postings per block of pBase (a smaller block when one would span 65,536 positions or more). */
const POSTING_BLOCK_SHIFT = 6;

/** Where posting q's positions start in `positions` (q = the number of postings: where they end). */
export function postingStart(seg: Segment, q: number): number {
  return seg.pBase[q >>> seg.pShift] + seg.pRel[q];
}

/** The two-level form of posting starts (pPos[q]: start of posting q, pPos[n]: the end), see the header. */
export function packPostingStarts(pPos: Uint32Array): { pBase: Uint32Array; pRel: Uint16Array; pShift: number } {
  const n = pPos.length;
  if (n === 0) return { pBase: new Uint32Array(0), pRel: new Uint16Array(0), pShift: POSTING_BLOCK_SHIFT };
  let sh = POSTING_BLOCK_SHIFT;
  for (; sh > 0; sh--) {
    let fits = true;
    for (let b = 0; b < n && fits; b += 1 << sh) fits = pPos[Math.min(n, b + (1 << sh)) - 1] - pPos[b] <= 0xffff;
    if (fits) break;
  }
  const pBase = new Uint32Array(((n - 1) >>> sh) + 1);
  const pRel = new Uint16Array(n);
  const mask = (1 << sh) - 1;
  for (let q = 0; q < n; q++) {
    if ((q & mask) === 0) pBase[q >>> sh] = pPos[q];
    pRel[q] = pPos[q] - pBase[q >>> sh];
  }
  return { pBase, pRel, pShift: sh };
}

/** Posting starts pushed in order (their count known ahead), into the two-level form as they come. */
class PostingStartsWriter {
  private readonly pBase: Uint32Array;
  private readonly pRel: Uint16Array;
  /** the flat form, once a block spans 65,536 positions (packed with a smaller block by finish()) */
  private flat: Uint32Array | null = null;
  private n = 0;

  constructor(private readonly count: number) {
    this.pBase = new Uint32Array(count ? ((count - 1) >>> POSTING_BLOCK_SHIFT) + 1 : 0);
    this.pRel = new Uint16Array(count);
  }

  push(start: number): void {
    const q = this.n++;
    if (this.flat) {
      this.flat[q] = start;
      return;
    }
    const b = q >>> POSTING_BLOCK_SHIFT;
    if ((q & ((1 << POSTING_BLOCK_SHIFT) - 1)) === 0) this.pBase[b] = start;
    const rel = start - this.pBase[b];
    if (rel <= 0xffff) {
      this.pRel[q] = rel;
      return;
    }
    this.flat = new Uint32Array(this.count);
    for (let k = 0; k < q; k++) this.flat[k] = this.pBase[k >>> POSTING_BLOCK_SHIFT] + this.pRel[k];
    this.flat[q] = start;
  }

  finish(): { pBase: Uint32Array; pRel: Uint16Array; pShift: number } {
    return this.flat ? packPostingStarts(this.flat) : { pBase: this.pBase, pRel: this.pRel, pShift: POSTING_BLOCK_SHIFT };
  }
}

/** Position x of the segment as attribute * 65536 + word index (whatever its storage). */
export function positionAt(seg: Segment, x: number): number {
  const v = seg.positions[x];
  const sh = seg.posShift;
  return sh === 16 ? v : (v >>> sh) * 65536 + (v & ((1 << sh) - 1));
}

/** Encode a position (attribute * 65536 + word) as the segment stores it; -1 when it cannot occur there. */
export function storedPosition(seg: Segment, pos: number): number {
  const sh = seg.posShift;
  if (sh === 16) return pos;
  const attr = pos >>> 16;
  const word = pos & 0xffff;
  return attr < 1 << (16 - sh) && word < 1 << sh ? (attr << sh) | word : -1;
}

/** How a segment whose largest attribute and word index are these stores positions (see packPositions). */
export function positionLayout(maxAttr: number, maxWord: number): { posShift: number; wide: boolean } {
  const attrBits = maxAttr ? 32 - Math.clz32(maxAttr) : 0;
  const sh = 16 - attrBits;
  return attrBits > 15 || maxWord >= 1 << sh ? { posShift: 16, wide: true } : { posShift: sh, wide: false };
}

/**
 * 16-bit positions when attribute and word index fit together: the attribute in the top bits (as few as
 * the segment's largest attribute needs), the word index below (4 attributes: words up to 16,383).
 * Otherwise the 32-bit form (posShift 16).
 */
export function packPositions(positions: Uint32Array): { positions: Uint32Array | Uint16Array; posShift: number } {
  let maxAttr = 0;
  let maxWord = 0;
  for (let i = 0; i < positions.length; i++) {
    const v = positions[i];
    if (v >>> 16 > maxAttr) maxAttr = v >>> 16;
    if ((v & 0xffff) > maxWord) maxWord = v & 0xffff;
  }
  const { posShift: sh, wide } = positionLayout(maxAttr, maxWord);
  if (wide) return { positions, posShift: 16 };
  const out = new Uint16Array(positions.length);
  for (let i = 0; i < positions.length; i++) {
    const v = positions[i];
    out[i] = ((v >>> 16) << sh) | (v & 0xffff);
  }
  return { positions: out, posShift: sh };
}
