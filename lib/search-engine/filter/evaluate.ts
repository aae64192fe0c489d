// Evaluates a parsed filter to a bitset of documents, segment by segment, from the per-segment field
// indexes (no document is read). NOT and != complement within the live documents, so `a != x` also
// matches documents without `a` (as Meilisearch).
// A numeric comparison or range holding over 3/4 of a field's numbers ("installed_size_kb < 50000": ~95 %
// of the documents) is set as its complement: the bitset of the documents with a number (built once per
// segment and field, one bit per document) OR-ed in word by word, minus the few outside the range,
// instead of most ids one by one in value order. Only where each document has one number at most.
import { andNot, bitset, clear, or, setAll, setAscending, type Bitset } from '../bitset.js';
import { facetKey, type FieldIndex } from '../field-index.js';
import { covered } from '../fields.js';
import { boxQuery, radiusQuery } from '../geo.js';
import type { Segment } from '../segment.js';
import { EngineError, type SearchRequest } from '../types.js';
import { parseFilter, type FilterNode, type FilterValue } from './parser.js';

export interface FilterContext {
  segments: readonly Segment[];
  /** live documents: the complement of NOT is taken within them */
  universe: Bitset;
}

/** Parse a string or the array form (outer AND, inner arrays OR) and check every attribute is filterable. */
export function compileFilter(filter: SearchRequest['filter'], filterable: readonly string[]): FilterNode | null {
  if (filter === undefined || filter === null) return null;
  let node: FilterNode | null;
  if (typeof filter === 'string') node = parseFilter(filter);
  else if (Array.isArray(filter)) {
    const parts: FilterNode[] = [];
    for (const item of filter) {
      if (typeof item === 'string') {
        const n = parseFilter(item);
        if (n) parts.push(n);
      } else if (Array.isArray(item)) {
        const alts = item.map((s) => {
          if (typeof s !== 'string') throw new EngineError('invalid_filter_syntax', 'Filter array elements must be strings or arrays of strings', 'filter', 0);
          return parseFilter(s);
        });
        const kept = alts.filter((n): n is FilterNode => !!n);
        if (kept.length) parts.push(kept.length === 1 ? kept[0] : { type: 'or', children: kept });
      } else throw new EngineError('invalid_filter_syntax', 'Filter array elements must be strings or arrays of strings', 'filter', 0);
    }
    node = parts.length === 0 ? null : parts.length === 1 ? parts[0] : { type: 'and', children: parts };
  } else throw new EngineError('invalid_filter_syntax', 'The filter must be a string or an array', 'filter', 0);
  if (node) check(node, filterable);
  return node;
}

function check(node: FilterNode, filterable: readonly string[]): void {
  switch (node.type) {
    case 'and':
    case 'or':
      for (const c of node.children) check(c, filterable);
      return;
    case 'not':
      check(node.child, filterable);
      return;
    case 'geoRadius':
    case 'geoBox':
      if (!covered(filterable, '_geo')) throw notFilterable('_geo', node.pos, filterable);
      return;
    default:
      if (!covered(filterable, node.attr)) throw notFilterable(node.attr, node.pos, filterable);
  }
}

function notFilterable(attr: string, pos: number, filterable: readonly string[]): EngineError {
  const list = filterable.length ? filterable.join(', ') : 'none';
  return new EngineError('attribute_not_filterable', `Attribute \`${attr}\` is not filterable (at position ${pos}). Filterable attributes: ${list}.`, 'filter', pos);
}

export function evaluate(node: FilterNode, ctx: FilterContext): Bitset {
  switch (node.type) {
    case 'and': {
      const acc = evaluate(node.children[0], ctx);
      for (let i = 1; i < node.children.length; i++) {
        const b = evaluate(node.children[i], ctx);
        for (let w = 0; w < acc.length; w++) acc[w] &= b[w];
      }
      return acc;
    }
    case 'or': {
      let acc = evaluate(node.children[0], ctx);
      for (let i = 1; i < node.children.length; i++) acc = or(acc, evaluate(node.children[i], ctx));
      return acc;
    }
    case 'not':
      return andNot(ctx.universe, evaluate(node.child, ctx));
    default:
      return leaf(node, ctx);
  }
}

function leaf(node: FilterNode, ctx: FilterContext): Bitset {
  const out = bitset(ctx.universe.length * 32);
  for (const seg of ctx.segments) {
    if (node.type === 'geoRadius') {
      if (seg.geo) radiusQuery(seg.geo, node.lat, node.lng, node.radius, out);
      continue;
    }
    if (node.type === 'geoBox') {
      if (seg.geo) boxQuery(seg.geo, node.lat1, node.lng1, node.lat2, node.lng2, out);
      continue;
    }
    if (!('attr' in node)) continue;
    const f = seg.fields.get(node.attr);
    if (!f) continue;
    switch (node.type) {
      case 'cmp':
        if (node.op === '=') equal(f, node.value, out);
        else {
          const v = node.value.num!;
          if (node.op === '>') numRange(f, v, Infinity, false, true, out, true);
          else if (node.op === '>=') numRange(f, v, Infinity, true, true, out, true);
          else if (node.op === '<') numRange(f, -Infinity, v, true, false, out, true);
          else numRange(f, -Infinity, v, true, true, out, true);
        }
        break;
      case 'range':
        numRange(f, node.from.num!, node.to.num!, true, true, out, true);
        break;
      case 'in':
        for (const v of node.values) equal(f, v, out);
        break;
      case 'exists':
        setAscending(out, f.exists);
        break;
      case 'null':
        setAscending(out, f.nulls);
        break;
      case 'empty':
        setAscending(out, f.empties);
        break;
    }
  }
  return out;
}

function equal(f: FieldIndex, v: FilterValue, out: Bitset): void {
  const i = f.lookup.get(facetKey(v.raw));
  if (i !== undefined) setAscending(out, f.strDocs, f.strStart[i], f.strStart[i + 1]);
  if (v.num !== null) numRange(f, v.num, v.num, true, true, out);
}

function lower(values: Float64Array, v: number, inclusive: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inclusive ? values[mid] < v : values[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The documents of `f` with a number in the range, into `out`. `complement`: the caller writes no
 * other bit of this segment's documents into `out` (a comparison or range leaf), so the documents
 * outside the range can be cleared from it.
 */
function numRange(f: FieldIndex, from: number, to: number, fromIncl: boolean, toIncl: boolean, out: Bitset, complement = false): void {
  const a = lower(f.numValues, from, fromIncl);
  const b = lower(f.numValues, to, !toIncl);
  if (a >= b) return;
  const n = f.numDocs.length;
  // clearing one document costs as much as setting one: worth it where few are outside the range
  const numbered = complement && 4 * (b - a) > 3 * n ? singleNumbered(f) : null;
  if (!numbered) {
    setAll(out, f.numDocs, a, b);
    return;
  }
  const { first, words } = numbered;
  for (let w = 0; w < words.length; w++) out[first + w] |= words[w];
  for (let j = 0; j < a; j++) clear(out, f.numDocs[j]);
  for (let j = b; j < n; j++) clear(out, f.numDocs[j]);
}

/** The documents with a number in a field index, as the words of a bitset from word `first`. */
interface Numbered {
  first: number;
  words: Uint32Array;
}

const numberedCache = new WeakMap<FieldIndex, Numbered | null>();

/** The documents with a number in `f` (1 bit each); null when one has several (the complement would be wrong). */
function singleNumbered(f: FieldIndex): Numbered | null {
  const cached = numberedCache.get(f);
  if (cached !== undefined) return cached;
  let lo = Infinity;
  let hi = -1;
  for (const d of f.numDocs) {
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const first = lo >>> 5;
  let numbered: Numbered | null = { first, words: new Uint32Array((hi >>> 5) - first + 1) };
  for (const d of f.numDocs) {
    const w = (d >>> 5) - first;
    const bit = 1 << (d & 31);
    if (numbered.words[w] & bit) {
      numbered = null;
      break;
    }
    numbered.words[w] |= bit;
  }
  numberedCache.set(f, numbered);
  return numbered;
}
