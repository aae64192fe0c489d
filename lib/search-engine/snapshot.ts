// Snapshots: the engine's state as JSON-safe data, so a restart loads segments instead of re-indexing.
// Typed arrays travel as base64 of their bytes (JSON number arrays would be ~4x larger and slow to parse);
// the dictionary as one newline-joined string (terms hold letters and digits only). The bodies are
// included as the document store's deflated pages (doc-store.ts) and the ranking columns as arrays
// (columns.ts), so restoring needs nothing else and parses no document; a snapshot built for other
// searchable/filterable attributes is restored by re-indexing its bodies. An index with embedding attributes adds `vectors` (the
// embeddings and the HNSW graph, vector-index.ts); a snapshot without it (older, or for other
// attributes) is restored by embedding the documents again.
import { randomUUID } from 'node:crypto';
import type { FieldIndex } from './field-index.js';
import { finish } from './field-index.js';
import type { GeoIndex } from './geo.js';
import { packPostingStarts, type Segment } from './segment.js';
import type { Codec, Encoded, TypedArray } from './types.js';
import { VectorIndex } from './vector-index.js';
import { DocStore, type DocStoreData } from './doc-store.js';
import type { Columns, ColumnsData } from './columns.js';
import type { IdTable, IdTableData } from './id-table.js';
import type { TermUnion, TermUnionData } from './dictionary.js';

export const SNAPSHOT_FORMAT = 'segmented-engine';
/** 2: bodies as a DocStore and ranking columns (1 held parsed documents) */
export const SNAPSHOT_VERSION = 2;

export type { Codec, Encoded } from './types.js';

export const BASE64: Codec = {
  put: (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64'),
};

/**
 * Typed arrays kept as arrays, each copied into a buffer of its own (views of larger growable buffers
 * would carry their slack), listed in `transfer` for postMessage's transfer list (moved, not copied).
 * With `move`, an array that is its whole buffer is listed as it is, without a copy: the engine gives
 * it up (the engine thread, handing over an engine it built and then drops).
 */
export function transferCodec(o: { move?: boolean } = {}): Codec & { transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const listed = new Set<ArrayBufferLike>();
  return {
    transfer,
    put(a) {
      const whole = a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer;
      if (o.move && whole) {
        if (!listed.has(a.buffer)) {
          listed.add(a.buffer);
          transfer.push(a.buffer);
        }
        return a;
      }
      const own = a.slice();
      transfer.push(own.buffer as ArrayBuffer);
      return own;
    },
  };
}

function bytes(s: Encoded): ArrayBuffer {
  // an array of another kind: its own bytes (a view into a hand-over block is not its whole buffer)
  if (typeof s !== 'string') return s.byteOffset === 0 && s.byteLength === s.buffer.byteLength ? (s.buffer as ArrayBuffer) : (s.buffer.slice(s.byteOffset, s.byteOffset + s.byteLength) as ArrayBuffer);
  const buf = Buffer.from(s, 'base64');
  // copy into a fresh, aligned ArrayBuffer
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}

const i32 = (s: Encoded) => (s instanceof Int32Array ? s : new Int32Array(bytes(s)));
const u32 = (s: Encoded) => (s instanceof Uint32Array ? s : new Uint32Array(bytes(s)));
const u16 = (s: Encoded) => (s instanceof Uint16Array ? s : new Uint16Array(bytes(s)));
const f64 = (s: Encoded) => (s instanceof Float64Array ? s : new Float64Array(bytes(s)));
const f32 = (s: Encoded) => (s instanceof Float32Array ? s : new Float32Array(bytes(s)));
const u8 = (s: Encoded) => (s instanceof Uint8Array ? s : new Uint8Array(bytes(s)));

/**
 * The typed-array members of a structure, each with its decoder, in the order they are written: one
 * list drives both directions (encodeArrays writes each member through the codec, decodeArrays reads
 * it back), so a member is named once.
 */
type ArrayMembers = Record<string, (s: Encoded) => TypedArray>;

function encodeArrays(o: object, members: ArrayMembers, codec: Codec): Record<string, Encoded> {
  const a = o as Record<string, TypedArray>;
  return Object.fromEntries(Object.keys(members).map((k) => [k, codec.put(a[k])]));
}

function decodeArrays(o: Record<string, any>, members: ArrayMembers): Record<string, any> {
  return Object.fromEntries(Object.entries(members).map(([k, decode]) => [k, decode(o[k] as Encoded)]));
}

/** A field index's arrays (field-index.ts), a vector index's, and its HNSW graph's (vector-index.ts). */
const FIELD_ARRAYS: ArrayMembers = { strStart: u32, strDocs: i32, numValues: f64, numDocs: i32, exists: i32, nulls: i32, empties: i32 };
const VECTOR_ARRAYS: ArrayMembers = { ids: i32, counts: u16, dims: u16, values: f32 };
const HNSW_ARRAYS: ArrayMembers = { nodes: i32, links: i32 };

export interface SnapshotData {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  shape: string;
  fieldOrder: string[];
  nextId: number;
  alive: Encoded;
  /** live documents: internal ids, external ids (same order) */
  ids: Encoded;
  extIds: string[];
  /**
   * the id table's slots (id-table.ts), adopted at a restore instead of hashing every id again;
   * absent from older snapshots (the table is then rebuilt)
   */
  idTable?: { hash: number; slots: Encoded; used: number; count: number };
  /** the bodies (DocStoreData with its arrays encoded) */
  store: Record<string, any>;
  /** ranking columns (ColumnsData with its arrays encoded) */
  columns: Record<string, any>;
  segments: Record<string, unknown>[];
  /** the union of the segments' dictionaries (dictionary.ts), taken as it is at a restore; absent: merged again */
  dictionary?: TermUnionData;
  /** embeddings and their graph (indexes with embedding attributes only) */
  vectors?: Record<string, any>;
}

export interface SnapshotSource {
  settings: { searchableAttributes: string[] };
  fieldOrder: Map<string, number>;
  nextId: number;
  alive: Uint32Array;
  store: DocStore;
  columns: Columns;
  extIds: (string | undefined)[];
  idMap: IdTable;
  segments: Segment[];
  dictionary: TermUnion;
  vectors: VectorIndex | null;
}

export function snapshotOf(e: SnapshotSource & { shape(): string }, codec: Codec = BASE64): SnapshotData {
  const b64 = codec.put;
  const live = (id: number) => (e.alive[id >>> 5] & (1 << (id & 31))) !== 0;
  let n = 0;
  for (let id = 0; id < e.nextId; id++) if (live(id)) n++;
  const ids = new Int32Array(n);
  for (let id = 0, k = 0; id < e.nextId; id++) if (live(id)) ids[k++] = id;
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    shape: e.shape(),
    fieldOrder: [...e.fieldOrder.keys()],
    nextId: e.nextId,
    // a copy, cut to the ids in use: the engine's bitset keeps changing and has slack
    alive: b64(e.alive.slice(0, (e.nextId + 31) >>> 5)),
    ids: b64(ids),
    extIds: Array.from(ids, (id) => e.extIds[id]!),
    idTable: encodeIdTable(e.idMap.toData(), codec),
    store: encodeStore(e.store.toData(), codec),
    columns: encodeColumns(e.columns.toData(e.nextId), codec),
    segments: e.segments.map((s) => encodeSegment(s, codec)),
    dictionary: e.dictionary.toData(e.segments),
    ...(e.vectors ? { vectors: encodeVectors(e.vectors, e.alive, codec) } : {}),
  };
}

function encodeStore(d: DocStoreData, codec: Codec): Record<string, unknown> {
  const b64 = codec.put;
  return { ...d, pages: d.pages.map(b64), blockPage: b64(d.blockPage), blockOff: b64(d.blockOff), blockLen: b64(d.blockLen) };
}

export function decodeStore(s: SnapshotData): DocStore {
  const o = s.store;
  return DocStore.fromData({ ...o, pages: (o.pages as Encoded[]).map(u8), blockPage: u32(o.blockPage), blockOff: u32(o.blockOff), blockLen: u32(o.blockLen) } as DocStoreData);
}

function encodeColumns(d: ColumnsData, codec: Codec): Record<string, unknown> {
  const b64 = codec.put;
  return {
    spec: d.spec,
    sort: d.sort.map((c) => ({ ...c, asc: b64(c.asc), desc: b64(c.desc), strIds: b64(c.strIds) })),
    distinct: d.distinct && { codes: b64(d.distinct.codes), keys: d.distinct.keys },
    geo: d.geo && { lat: b64(d.geo.lat), lng: b64(d.geo.lng) },
  };
}

export function decodeColumns(s: SnapshotData): ColumnsData | undefined {
  const o = s.columns;
  if (!o) return undefined;
  return {
    spec: o.spec,
    sort: (o.sort as Record<string, any>[]).map((c) => ({ attr: c.attr, asc: f64(c.asc), desc: f64(c.desc), strIds: i32(c.strIds), strAsc: c.strAsc, strDesc: c.strDesc })),
    distinct: o.distinct && { codes: i32(o.distinct.codes), keys: o.distinct.keys },
    geo: o.geo && { lat: f64(o.geo.lat), lng: f64(o.geo.lng) },
  };
}

function encodeVectors(v: VectorIndex, alive: Uint32Array, codec: Codec): Record<string, unknown> {
  const s = v.toSnapshot(alive);
  const g = s.hnsw;
  return {
    model: s.model,
    attributes: s.attributes,
    ...encodeArrays(s, VECTOR_ARRAYS, codec),
    hnsw: g && { builder: g.builder, m: g.m, efConstruction: g.efConstruction, entry: g.entry, maxLevel: g.maxLevel, ...encodeArrays(g, HNSW_ARRAYS, codec) },
  };
}

/** The snapshot's vectors when they were made by the same model from the same attributes, else null. */
export function decodeVectors(s: SnapshotData, attributes: readonly string[] | undefined): VectorIndex | null {
  const o = s.vectors;
  if (!o || !attributes?.length || o.model !== VectorIndex.model || JSON.stringify(o.attributes) !== JSON.stringify(attributes)) return null;
  const g = o.hnsw;
  return VectorIndex.fromSnapshot({
    model: o.model,
    attributes: o.attributes,
    ...decodeArrays(o, VECTOR_ARRAYS),
    hnsw: g && { builder: g.builder, m: g.m, efConstruction: g.efConstruction, entry: g.entry, maxLevel: g.maxLevel, ...decodeArrays(g, HNSW_ARRAYS) },
  } as Parameters<typeof VectorIndex.fromSnapshot>[0]);
}

export function isSnapshot(s: unknown): s is SnapshotData {
  const x = s as SnapshotData;
  return !!x && typeof x === 'object' && x.format === SNAPSHOT_FORMAT && x.version === SNAPSHOT_VERSION && Array.isArray(x.segments);
}

export function decodeIds(s: SnapshotData): Int32Array {
  return i32(s.ids);
}

function encodeIdTable(t: IdTableData, codec: Codec): NonNullable<SnapshotData['idTable']> {
  return { ...t, slots: codec.put(t.slots) };
}

/** The snapshot's id table (undefined in older snapshots; IdTable.adopt checks the rest). */
export function decodeIdTable(s: SnapshotData): IdTableData | undefined {
  const t = s.idTable;
  if (!t || typeof t !== 'object' || t.slots === null || t.slots === undefined) return undefined;
  return { hash: Number(t.hash), slots: i32(t.slots), used: Number(t.used), count: Number(t.count) };
}

export function decodeAlive(s: SnapshotData): Uint32Array {
  return u32(s.alive);
}

function encodeField(f: FieldIndex, codec: Codec): Record<string, unknown> {
  return { strValues: f.strValues, strDisplay: f.strDisplay, ...encodeArrays(f, FIELD_ARRAYS, codec) };
}

function decodeField(o: Record<string, any>): FieldIndex {
  return finish({ strValues: o.strValues, strDisplay: o.strDisplay, ...decodeArrays(o, FIELD_ARRAYS) } as Omit<FieldIndex, 'lookup'>);
}

export function encodeSegment(s: Segment, codec: Codec = BASE64): Record<string, unknown> {
  const b64 = codec.put;
  return {
    key: s.key,
    docIds: b64(s.docIds),
    // joined when read: a snapshot of hundreds of segments is written one segment at a time, and their
    // dictionaries joined at once when it is taken would all be held until the last is written
    get terms() {
      return s.terms.join('\n');
    },
    termStart: b64(s.termStart),
    pDocs: b64(s.pDocs),
    pBase: b64(s.pBase),
    pRel: b64(s.pRel),
    pShift: s.pShift,
    positions: b64(s.positions),
    posShift: s.posShift,
    pos16: s.positions instanceof Uint16Array,
    nAttrs: s.nAttrs,
    lens: b64(s.lens),
    fields: Object.fromEntries([...s.fields].map(([k, f]) => [k, encodeField(f, codec)])),
    geo: s.geo ? { lat: b64(s.geo.lat), lng: b64(s.geo.lng), docs: b64(s.geo.docs) } : null,
  };
}

export function decodeSegment(o: Record<string, any>): Segment {
  const geo: GeoIndex | null = o.geo ? { lat: f64(o.geo.lat), lng: f64(o.geo.lng), docs: i32(o.geo.docs) } : null;
  return {
    docIds: i32(o.docIds),
    terms: o.terms ? (o.terms as string).split('\n') : [],
    termStart: u32(o.termStart),
    pDocs: i32(o.pDocs),
    // segments written before the two-level posting starts (reused by an incremental snapshot) hold pPos
    ...(o.pRel ? { pBase: u32(o.pBase), pRel: u16(o.pRel), pShift: o.pShift as number } : packPostingStarts(u32(o.pPos))),
    positions: o.pos16 === true ? u16(o.positions) : u32(o.positions),
    posShift: typeof o.posShift === 'number' ? o.posShift : 16,
    nAttrs: o.nAttrs,
    lens: u16(o.lens),
    key: typeof o.key === 'string' ? o.key : randomUUID(),
    fields: new Map(Object.entries(o.fields as Record<string, Record<string, any>>).map(([k, f]) => [k, decodeField(f)])),
    geo,
  };
}
