// Per-document values that ranking reads, kept as columns by internal id so that sort, custom ranking
// rules, `distinctAttribute` and `_geoPoint` sorting never read a document body (doc-store.ts):
//   sort column per attribute named in sortableAttributes or in an `attr:asc|desc` rule:
//     asc/desc   the value sorting uses in each direction, when a number (NaN: not a number); one
//                array for both (desc === asc) until a document's two directions differ (an array
//                value): scalars sort the same both ways, so most columns cost 8 bytes per id, not 16
//     strAsc/strDesc   the lowercased string value, for the ids whose value is a string
//   distinct   a code per id (-1: no value) of the distinct attribute's value (`keyOf`)
//   geo        `_geo` as lat/lng (NaN: no location), when `_geo` is sortable
// Sort values follow steps.ts's rule: arrays sort by their smallest value ascending, largest descending.
import { valueAt } from './fields.js';
import { geoOf } from './geo.js';
import { parseRankingRules } from './ranking.js';
import type { Document, EngineSettings } from './types.js';

export interface ColumnSpec {
  sort: string[];
  distinct: string | null;
  geo: boolean;
}

/** The columns an engine keeps for `s` (a change of it rebuilds them from the bodies). */
export function columnSpec(s: EngineSettings): ColumnSpec {
  const sort = new Set(s.sortableAttributes.filter((a) => a !== '_geo'));
  for (const r of parseRankingRules(s.rankingRules)) if (r.kind === 'custom') sort.add(r.attr);
  return { sort: [...sort].sort(), distinct: s.distinctAttribute, geo: s.sortableAttributes.includes('_geo') };
}

export function columnShapeOf(s: EngineSettings): string {
  return JSON.stringify(columnSpec(s));
}

/** Distinct key: type-tagged so 1 and "1" differ; arrays by their JSON; absent values are never duplicates. */
export function keyOf(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? `s:${v}` : `${typeof v}:${JSON.stringify(v)}`;
}

export function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The value a document sorts by in one direction (undefined: missing, sorts last). */
export function sortValue(v: unknown, desc: boolean): number | string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') return v.toLowerCase();
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    const vals = v.map((x) => sortValue(x, desc)).filter((x): x is number | string => x !== undefined);
    if (!vals.length) return undefined;
    vals.sort(compareValues);
    return desc ? vals[vals.length - 1] : vals[0];
  }
  return undefined;
}

interface SortColumn {
  asc: Float64Array;
  desc: Float64Array;
  strAsc: Map<number, string>;
  strDesc: Map<number, string>;
}

/** The columns as a snapshot holds them. */
export interface ColumnsData {
  spec: string;
  sort: { attr: string; asc: Float64Array; desc: Float64Array; strIds: Int32Array; strAsc: string[]; strDesc: string[] }[];
  distinct: { codes: Int32Array; keys: string[] } | null;
  geo: { lat: Float64Array; lng: Float64Array } | null;
}

const nanArray = (n: number) => new Float64Array(n).fill(NaN);

/** Same length and numbers (NaN equal to NaN): a snapshot's desc column that can share asc's array. */
function sameNumbers(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(a[i] !== a[i] && b[i] !== b[i])) return false;
  return true;
}

function growF64(a: Float64Array, n: number): Float64Array {
  const next = nanArray(n);
  next.set(a);
  return next;
}

export class Columns {
  private sorts = new Map<string, SortColumn>();
  private codes: Int32Array | null = null;
  private keys = new Map<string, number>();
  private lat: Float64Array | null = null;
  private lng: Float64Array | null = null;
  private capacity = 0;

  constructor(readonly spec: ColumnSpec) {
    for (const a of spec.sort) {
      const asc = nanArray(0);
      this.sorts.set(a, { asc, desc: asc, strAsc: new Map(), strDesc: new Map() });
    }
    if (spec.distinct) this.codes = new Int32Array(0);
    if (spec.geo) {
      this.lat = nanArray(0);
      this.lng = nanArray(0);
    }
  }

  get empty(): boolean {
    return !this.sorts.size && !this.codes && !this.lat;
  }

  /** Record document `id`'s values. */
  add(id: number, doc: Document): void {
    if (this.empty) return;
    this.ensure(id + 1);
    for (const [attr, c] of this.sorts) {
      const v = valueAt(doc, attr);
      if (v === undefined) continue;
      const asc = sortValue(v, false);
      const desc = sortValue(v, true);
      if (c.desc === c.asc && !Object.is(typeof asc === 'number' ? asc : NaN, typeof desc === 'number' ? desc : NaN)) c.desc = c.asc.slice();
      this.setValue(c, id, asc, false);
      this.setValue(c, id, desc, true);
    }
    if (this.codes) {
      const k = keyOf(valueAt(doc, this.spec.distinct!));
      if (k !== undefined) {
        let code = this.keys.get(k);
        if (code === undefined) this.keys.set(k, (code = this.keys.size));
        this.codes[id] = code;
      }
    }
    if (this.lat && this.lng) {
      const g = geoOf(doc._geo);
      if (g) {
        this.lat[id] = g.lat;
        this.lng[id] = g.lng;
      }
    }
  }

  /** Forget what `id` had (a deleted document; ids are never reused, this only frees string values). */
  remove(id: number): void {
    for (const c of this.sorts.values()) {
      c.strAsc.delete(id);
      c.strDesc.delete(id);
    }
  }

  /** Whether sorting by `attr` reads this column (a child path of a sortable parent reads the bodies). */
  hasSort(attr: string): boolean {
    return this.sorts.has(attr);
  }

  sortValueOf(attr: string, id: number, desc: boolean): number | string | undefined {
    const c = this.sorts.get(attr)!;
    const n = id < this.capacity ? (desc ? c.desc : c.asc)[id] : NaN;
    if (!Number.isNaN(n)) return n;
    return (desc ? c.strDesc : c.strAsc).get(id);
  }

  /** The distinct value's code of `id`, undefined without one (never a duplicate). */
  distinctOf(id: number): number | undefined {
    const c = this.codes && id < this.capacity ? this.codes[id] : -1;
    return c < 0 ? undefined : c;
  }

  /** distinct codes in use (bitset size for counting) */
  get distinctValues(): number {
    return this.keys.size;
  }

  geoOf(id: number): { lat: number; lng: number } | null {
    if (!this.lat || !this.lng || id >= this.capacity || Number.isNaN(this.lat[id])) return null;
    return { lat: this.lat[id], lng: this.lng[id] };
  }

  bytes(): number {
    let n = 0;
    for (const c of this.sorts.values()) n += c.asc.byteLength + (c.desc === c.asc ? 0 : c.desc.byteLength) + (c.strAsc.size + c.strDesc.size) * 48;
    if (this.codes) n += this.codes.byteLength + this.keys.size * 64;
    if (this.lat && this.lng) n += this.lat.byteLength + this.lng.byteLength;
    return n;
  }

  toData(upTo: number): ColumnsData {
    const n = Math.min(upTo, this.capacity);
    return {
      spec: JSON.stringify(this.spec),
      sort: [...this.sorts].map(([attr, c]) => {
        const strIds = [...new Set([...c.strAsc.keys(), ...c.strDesc.keys()])].filter((id) => id < n).sort((a, b) => a - b);
        return {
          attr,
          asc: c.asc.slice(0, n),
          desc: c.desc.slice(0, n),
          strIds: Int32Array.from(strIds),
          strAsc: strIds.map((id) => c.strAsc.get(id) ?? ''),
          strDesc: strIds.map((id) => c.strDesc.get(id) ?? ''),
        };
      }),
      distinct: this.codes ? { codes: this.codes.slice(0, n), keys: [...this.keys.keys()] } : null,
      geo: this.lat && this.lng ? { lat: this.lat.slice(0, n), lng: this.lng.slice(0, n) } : null,
    };
  }

  /** Columns from a snapshot, or null when it was made for another spec (rebuild them from the bodies). */
  static fromData(d: ColumnsData | undefined, spec: ColumnSpec): Columns | null {
    if (!d || d.spec !== JSON.stringify(spec)) return null;
    const c = new Columns(spec);
    let n = 0;
    for (const s of d.sort) {
      const col = c.sorts.get(s.attr);
      if (!col) return null;
      col.asc = s.asc;
      col.desc = sameNumbers(s.asc, s.desc) ? s.asc : s.desc;
      n = s.asc.length;
      s.strIds.forEach((id, i) => {
        // an empty string stands for "this direction has a number"
        if (s.strAsc[i]) col.strAsc.set(id, s.strAsc[i]);
        if (s.strDesc[i]) col.strDesc.set(id, s.strDesc[i]);
      });
    }
    if (d.distinct && c.codes) {
      c.codes = d.distinct.codes;
      d.distinct.keys.forEach((k, i) => c.keys.set(k, i));
      n = c.codes.length;
    }
    if (d.geo && c.lat) {
      c.lat = d.geo.lat;
      c.lng = d.geo.lng;
      n = c.lat.length;
    }
    c.capacity = n;
    return c;
  }

  private setValue(c: SortColumn, id: number, v: number | string | undefined, desc: boolean): void {
    if (typeof v === 'number') (desc ? c.desc : c.asc)[id] = v;
    else if (typeof v === 'string') (desc ? c.strDesc : c.strAsc).set(id, v);
  }

  private ensure(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(n, this.capacity * 2, 1024);
    for (const c of this.sorts.values()) {
      const shared = c.desc === c.asc;
      c.asc = growF64(c.asc, cap);
      c.desc = shared ? c.asc : growF64(c.desc, cap);
    }
    if (this.codes) {
      const next = new Int32Array(cap).fill(-1);
      next.set(this.codes);
      this.codes = next;
    }
    if (this.lat && this.lng) {
      this.lat = growF64(this.lat, cap);
      this.lng = growF64(this.lng, cap);
    }
    this.capacity = cap;
  }
}
