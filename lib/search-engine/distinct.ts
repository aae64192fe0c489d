// Search-time `distinct` (Meilisearch's `distinct` search parameter: for one search, an attribute in
// filterableAttributes stands in for the index's distinctAttribute). A document's key is read off the
// segments' field indexes (field-index.ts), never a body, so the first search on an attribute costs
// one pass over that attribute's (value, document) pairs, not a read of every document.
// Values compare as filters and facets compare them: strings normalised ("Red" and "red" are one
// value), numbers by value, so 1 and "1" differ. A document with several values is the duplicate of
// another only with the same set of values (as distinctAttribute keys an array as a whole); a document
// without a value is never a duplicate.
// Codes: each segment's field gets once a local key per document (cached on its immutable field
// index); an engine keeps per attribute one numbering of those keys across its segments and each
// segment's translation into it, so a search reads two integer arrays per document and no string.
import type { FieldIndex } from './field-index.js';
import type { Segment } from './segment.js';

/** One segment's keys: `codes[id - base]` indexes `keys` (-1: no value). */
interface LocalKeys {
  keys: string[];
  codes: Int32Array;
}

/** One attribute's numbering across an engine's segments. */
interface Numbering {
  codes: Map<string, number>;
  translations: WeakMap<LocalKeys, Int32Array>;
}

export interface DistinctKeys {
  /** the key of document `id` (undefined: never a duplicate) */
  keyOf(id: number): number | undefined;
  /** keys in use (a bitset's size for counting) */
  values: number;
}

const localCache = new WeakMap<FieldIndex, LocalKeys>();
const numberings = new WeakMap<object, Map<string, Numbering>>();

const stringKey = (normalised: string) => `s:${normalised}`;
const numberKey = (v: number) => `n:${v}`;
/** joins a document's several keys (sorted): no value's key holds this character */
const SET_SEPARATOR = '\u0000';

function localKeys(seg: Segment, f: FieldIndex): LocalKeys {
  let lk = localCache.get(f);
  if (lk) return lk;
  const base = seg.docIds[0];
  const codes = new Int32Array(seg.docIds[seg.docIds.length - 1] - base + 1).fill(-1);
  const keys = f.strValues.map(stringKey);
  const several = new Map<number, number[]>();
  const add = (offset: number, k: number) => {
    const was = codes[offset];
    if (was === -1) codes[offset] = k;
    else if (was !== k) {
      const all = several.get(offset);
      if (all) all.push(k);
      else several.set(offset, [was, k]);
    }
  };
  for (let i = 0; i < f.strValues.length; i++) {
    for (let j = f.strStart[i]; j < f.strStart[i + 1]; j++) add(f.strDocs[j] - base, i);
  }
  for (let j = 0; j < f.numValues.length; j++) {
    if (j === 0 || f.numValues[j] !== f.numValues[j - 1]) keys.push(numberKey(f.numValues[j]));
    add(f.numDocs[j] - base, keys.length - 1);
  }
  const sets = new Map<string, number>();
  for (const [offset, ks] of several) {
    const key = [...new Set(ks.map((k) => keys[k]))].sort().join(SET_SEPARATOR);
    let k = sets.get(key);
    if (k === undefined) {
      sets.set(key, (k = keys.length));
      keys.push(key);
    }
    codes[offset] = k;
  }
  localCache.set(f, (lk = { keys, codes }));
  return lk;
}

/**
 * The keys of `attr` over `segments` (ascending, disjoint id ranges), numbered in `owner`'s numbering
 * for the attribute. A numbering holding more than twice the keys its segments use (values of merged
 * away segments) starts again.
 */
export function distinctKeys(owner: object, segments: readonly Segment[], attr: string): DistinctKeys {
  const parts: { base: number; end: number; local: LocalKeys; tr: Int32Array }[] = [];
  let byOwner = numberings.get(owner);
  if (!byOwner) numberings.set(owner, (byOwner = new Map()));
  let n = byOwner.get(attr);
  const locals = segments.flatMap((seg) => {
    const f = seg.docIds.length ? seg.fields.get(attr) : undefined;
    return f ? [{ seg, local: localKeys(seg, f) }] : [];
  });
  const used = locals.reduce((s, l) => s + l.local.keys.length, 0);
  if (!n || n.codes.size > 2 * used + 1024) byOwner.set(attr, (n = { codes: new Map(), translations: new WeakMap() }));
  for (const { seg, local } of locals) {
    let tr = n.translations.get(local);
    if (!tr) {
      const codes = n.codes;
      tr = Int32Array.from(local.keys, (k) => {
        let c = codes.get(k);
        if (c === undefined) codes.set(k, (c = codes.size));
        return c;
      });
      n.translations.set(local, tr);
    }
    parts.push({ base: seg.docIds[0], end: seg.docIds[seg.docIds.length - 1], local, tr });
  }
  let last = 0;
  return {
    values: n.codes.size,
    keyOf(id) {
      // ids mostly come ascending (counting) or within few segments (a page): try the last one first
      let p: (typeof parts)[number] | undefined = parts[last];
      if (!p || id < p.base || id > p.end) {
        let lo = 0;
        let hi = parts.length - 1;
        p = undefined;
        while (lo <= hi) {
          const mid = (lo + hi) >>> 1;
          if (id < parts[mid].base) hi = mid - 1;
          else if (id > parts[mid].end) lo = mid + 1;
          else {
            p = parts[(last = mid)];
            break;
          }
        }
        if (!p) return undefined;
      }
      const c = p.local.codes[id - p.base];
      return c < 0 ? undefined : p.tr[c];
    },
  };
}
