// Scores of the ranking rules (lower is better), computed per bucket by bucket-sort.ts.
//   words      number of query words matched, counted from the first (Meilisearch's "last" strategy:
//              words are dropped from the END of the query, so every hit contains the first word;
//              with "frequency" the words come rarest first, frequency.ts)
//   typo       total typos over the matched words
//   proximity  sum over matched words consecutive in the query of their closest distance in one attribute
//              (forward distance d, backward d + 1, capped at 8; other attributes count 8)
//   attribute  sum of the best attribute's rank per matched word, then the sum of word positions in it
//   exactness  an attribute equal to the whole query first, then fewer words matched inexactly
//   sort / attr:asc|desc  field values: numbers before strings, missing values last in both directions;
//              arrays sort by their smallest value ascending, their largest descending
import type { Step, StepFn } from './bucket-sort.js';
import { valueAt } from './fields.js';
import { geoOf, haversine } from './geo.js';
import type { MatchData } from './match.js';
import { ensureRefs, exactAt, forExactPositions, pairDistance, segmentOf } from './match-refs.js';
import type { Rule, SortCriterion } from './ranking.js';
import { localIndex } from './segment.js';
import type { Document } from './types.js';
import { compareValues, sortValue, type Columns } from './columns.js';
import { scoreArray } from './sort-scratch.js';

export const MAX_PROXIMITY = 8;

export interface StepContext {
  match: MatchData | null;
  /** a body, for a sort by a child path of a sortable parent (no column of its own) */
  doc: (id: number) => Document;
  columns: Columns;
  sort: SortCriterion[];
}

export function buildSteps(rules: readonly Rule[], ctx: StepContext): Step[] {
  const steps: Step[] = [];
  for (const rule of rules) {
    if (rule.kind === 'sort') for (const c of ctx.sort) steps.push(sortStep(c, ctx));
    else if (rule.kind === 'custom') steps.push(fieldStep(rule.attr, rule.desc, ctx));
    else steps.push(ctx.match ? textStep(rule.kind, ctx.match) : null);
  }
  return steps;
}

/**
 * One loop per rule, each its own function: a shared loop calling the rule as a closure made that call
 * megamorphic (five rules through one site, none inlined), ~20 % of a common-word query at 1M.
 */
function textStep(kind: 'words' | 'typo' | 'proximity' | 'attribute' | 'exactness', m: MatchData): Step {
  const n = m.words.length;
  switch (kind) {
    case 'words':
      return n <= 1 ? null : cheap((docs) => wordsKeys(m, docs));
    case 'typo':
      return m.words.every((w) => w.maxTypos === 0) ? null : cheap((docs) => typoKeys(m, docs));
    case 'proximity':
      return n <= 1 ? null : Object.assign((docs: Int32Array) => proximityKeys(m, docs), { floor: (docs: Int32Array) => proximityFloor(m, docs) });
    case 'attribute':
      return cheap((docs) => attributeKeys(m, docs));
    case 'exactness':
      return (docs) => exactnessKeys(m, docs);
  }
}

/**
 * A step that reads only per-document arrays: cheap to score a whole bucket (bucket-sort.ts, lazyStep).
 * The text rules write their scores into scratch arrays (sort-scratch.ts), valid while their bucket is sorted.
 */
function cheap(fn: (docs: Int32Array) => Float64Array): StepFn {
  return Object.assign(fn, { cheap: true });
}

/** Proximity's best possible score over `docs`: each pair of matched words adjacent (1 per pair). */
function proximityFloor(m: MatchData, docs: Int32Array): number {
  const { matched } = m;
  let k = Infinity;
  for (let i = 0; i < docs.length; i++) if (matched[docs[i]] < k) k = matched[docs[i]];
  return Math.max(0, k - 1);
}

function wordsKeys(m: MatchData, docs: Int32Array): Float64Array {
  const keys = scoreArray(docs.length);
  const { matched } = m;
  const n = m.words.length;
  for (let i = 0; i < docs.length; i++) keys[i] = n - matched[docs[i]];
  return keys;
}

export function typoKeys(m: MatchData, docs: Int32Array): Float64Array {
  const keys = scoreArray(docs.length);
  const { matched, typo } = m;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    let s = 0;
    for (let w = 0, k = matched[d]; w < k; w++) s += typo[w][d];
    keys[i] = s;
  }
  return keys;
}

export function proximityKeys(m: MatchData, docs: Int32Array): Float64Array {
  ensureRefs(m, docs);
  const keys = scoreArray(docs.length);
  const { matched } = m;
  for (let i = 0; i < docs.length; i++) keys[i] = proximity(m, docs[i], matched[docs[i]]);
  return keys;
}

export function attributeKeys(m: MatchData, docs: Int32Array): Float64Array {
  const keys = scoreArray(docs.length);
  const { matched, minPos } = m;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    let attrs = 0;
    let pos = 0;
    for (let w = 0, k = matched[d]; w < k; w++) {
      attrs += minPos[w][d] >>> 16;
      pos += minPos[w][d] & 0xffff;
    }
    keys[i] = attrs * 65536 + Math.min(pos, 65535);
  }
  return keys;
}

export function exactnessKeys(m: MatchData, docs: Int32Array): Float64Array {
  const keys = scoreArray(docs.length);
  const { matched, exact } = m;
  const n = m.words.length;
  // only a document matching every word exactly can equal an attribute: only those read references
  let whole: number[] | null = null;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    const k = matched[d];
    let inexact = 0;
    for (let w = 0; w < k; w++) if (!exact[w][d]) inexact++;
    keys[i] = 64 + inexact;
    if (k === n && inexact === 0) (whole ??= []).push(i);
  }
  if (whole) {
    ensureRefs(m, Int32Array.from(whole, (i) => docs[i]));
    for (const i of whole) if (wholeAttribute(m, docs[i])) keys[i] = 0;
  }
  return keys;
}

function proximity(m: MatchData, d: number, k: number): number {
  const chain = m.inQueryOrder[k];
  let total = 0;
  for (let i = 1; i < k; i++) total += pairDistance(m, chain[i - 1], chain[i], d, MAX_PROXIMITY);
  return total;
}

/** Is some attribute exactly the query: its i-th word at position i, and nothing else in that attribute? */
function wholeAttribute(m: MatchData, d: number): boolean {
  const seg = segmentOf(m, d);
  if (!seg) return false;
  const n = m.words.length;
  const chain = m.inQueryOrder[n];
  let found = false;
  let local = -2;
  forExactPositions(m, chain[0], d, (p) => {
    if (found || (p & 0xffff) !== 0) return;
    const attr = p >>> 16;
    if (m.offAll !== null && m.offAll[attr] === 1) return;
    if (local === -2) local = localIndex(seg, d);
    if (local < 0 || attr >= seg.nAttrs || seg.lens[local * seg.nAttrs + attr] !== n) return;
    let ok = true;
    for (let i = 1; i < n && ok; i++) ok = exactAt(m, chain[i], d, attr * 65536 + i);
    found = ok;
  });
  return found;
}

function sortStep(c: SortCriterion, ctx: StepContext): Step {
  if (c.kind === 'field') return fieldStep(c.attr, c.desc, ctx);
  return (docs) =>
    Float64Array.from(docs, (d) => {
      const g = ctx.columns.spec.geo ? ctx.columns.geoOf(d) : geoOf(ctx.doc(d)._geo);
      if (!g) return Infinity;
      const dist = haversine(c.lat, c.lng, g.lat, g.lng);
      return c.desc ? -dist : dist;
    });
}

function fieldStep(attr: string, desc: boolean, ctx: StepContext): Step {
  return (docs) => {
    const cols = ctx.columns;
    const raw = cols.hasSort(attr) ? Array.from(docs, (d) => cols.sortValueOf(attr, d, desc)) : Array.from(docs, (d) => sortValue(valueAt(ctx.doc(d), attr), desc));
    if (raw.every((v) => typeof v !== 'string')) return Float64Array.from(raw, (v) => (v === undefined ? Infinity : desc ? -(v as number) : (v as number)));
    // strings present: rank the distinct values (numbers first, then strings), missing last
    const distinct = [...new Set(raw.filter((v) => v !== undefined))] as (number | string)[];
    distinct.sort(compareValues);
    const rank = new Map(distinct.map((v, i) => [v, i]));
    return Float64Array.from(raw, (v) => (v === undefined ? Infinity : desc ? distinct.length - rank.get(v)! : rank.get(v)!));
  };
}
