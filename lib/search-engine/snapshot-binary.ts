// A snapshot (snapshot.ts, made with KEEP_ARRAYS) as a stream of bytes, and back. No value is ever
// turned into one string or buffer as a whole: the stream is produced piece by piece (encodeSnapshot,
// a generator the caller cuts into chunks of any size) and consumed the same way (SnapshotDecoder).
//
// Layout (little-endian):
//   "SNAP" · u16 format version · u16 0 · u32 header length · header (UTF-8 JSON)
//   then one part per entry of header.parts, in order:
//     typed array  its bytes as they are in memory (byteLength in the part)
//     long list    records of u32 length + a JSON array of up to LIST_BATCH elements, until `n` read
//     long string  its UTF-8 bytes
// The header is the snapshot with every part cut out; each part names the path it goes back to.
// Long lists are the documents, their ids, large dictionaries and facet value lists.
import type { Codec, TypedArray } from './types.js';

export const BINARY_SNAPSHOT_VERSION = 2;
const MAGIC = 0x50414e53; // "SNAP" read as a little-endian u32
/** arrays longer than this leave the header as list records */
const LIST_MIN = 512;
/** elements per list record (1,000 Debian documents: ~1.5 MB of JSON) */
const LIST_BATCH = 1000;
/** strings longer than this leave the header as bytes */
const STRING_MIN = 1 << 16;

/** Typed arrays kept as they are (the binary stream writes their bytes). */
export const KEEP_ARRAYS: Codec = { put: (a) => a };

const TYPES = { Int32Array, Uint32Array, Uint16Array, Uint8Array, Float64Array, Float32Array } as const;
type TypeName = keyof typeof TYPES;
type Path = (string | number)[];
type Part = { k: 'a'; path: Path; t: TypeName; n: number } | { k: 'l'; path: Path; n: number } | { k: 's'; path: Path; n: number };

export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

function typeName(v: unknown): TypeName | undefined {
  if (!ArrayBuffer.isView(v)) return undefined;
  const name = v.constructor.name;
  return name in TYPES ? (name as TypeName) : undefined;
}

/** The header value with parts replaced by null, and the parts' values in order. */
function cut(root: unknown): { skeleton: unknown; parts: Part[]; values: unknown[] } {
  const parts: Part[] = [];
  const values: unknown[] = [];
  const walk = (v: unknown, path: Path): unknown => {
    const t = typeName(v);
    if (t) {
      parts.push({ k: 'a', path, t, n: (v as TypedArray).byteLength });
      values.push(v);
      return null;
    }
    if (typeof v === 'string' && v.length > STRING_MIN) {
      const bytes = Buffer.from(v, 'utf8');
      parts.push({ k: 's', path, n: bytes.byteLength });
      values.push(bytes);
      return null;
    }
    if (Array.isArray(v)) {
      if (v.length > LIST_MIN) {
        parts.push({ k: 'l', path, n: v.length });
        values.push(v);
        return null;
      }
      return v.map((x, i) => walk(x, [...path, i]));
    }
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, [...path, k]);
      return out;
    }
    return v;
  };
  return { skeleton: walk(root, []), parts, values };
}

function u32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32LE(n, 0);
  return b;
}

/** The snapshot's bytes, piece by piece (typed arrays as views of their memory, not copies). */
export function* encodeSnapshot(snapshot: unknown): Generator<Uint8Array> {
  const { skeleton, parts, values } = cut(snapshot);
  const header = Buffer.from(JSON.stringify({ skeleton, parts }), 'utf8');
  const fixed = Buffer.alloc(12);
  fixed.writeUInt32LE(MAGIC, 0);
  fixed.writeUInt16LE(BINARY_SNAPSHOT_VERSION, 4);
  fixed.writeUInt32LE(header.byteLength, 8);
  yield fixed;
  yield header;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const v = values[i];
    if (p.k === 'a') {
      const a = v as TypedArray;
      if (a.byteLength) yield new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    } else if (p.k === 's') yield v as Buffer;
    else {
      const list = v as unknown[];
      for (let from = 0; from < list.length; from += LIST_BATCH) {
        const rec = Buffer.from(JSON.stringify(list.slice(from, from + LIST_BATCH)), 'utf8');
        yield u32(rec.byteLength);
        yield rec;
      }
    }
  }
}

/**
 * Reads an encoded snapshot from pieces of any size (push), then gives the snapshot back (finish).
 * A wrong magic number, an unknown version, a malformed record or a short stream throws
 * SnapshotFormatError.
 */
export class SnapshotDecoder {
  /** bytes received and not read yet */
  private queue: Buffer[] = [];
  private queued = 0;
  private headerBytes = -1;
  private header: { skeleton: unknown; parts: Part[] } | undefined;
  private part = 0;
  /** the typed array or string part being filled, and how far */
  private target: Uint8Array | undefined;
  private filled = 0;
  private list: unknown[] | undefined;
  private recordBytes = -1;
  private values: unknown[] = [];

  push(piece: Uint8Array): void {
    if (!piece.byteLength) return;
    this.queue.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    this.queued += piece.byteLength;
    while (this.advance());
  }

  /** the snapshot, once every part was read */
  finish(): unknown {
    while (this.advance());
    if (!this.header || this.part < this.header.parts.length || this.queued) {
      throw new SnapshotFormatError('snapshot stream ended early or has trailing bytes');
    }
    const root = this.header.skeleton as Record<string | number, unknown>;
    this.header.parts.forEach((p, i) => {
      let at: Record<string | number, unknown> = root;
      for (const k of p.path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
      at[p.path[p.path.length - 1]] = this.values[i];
    });
    return root;
  }

  /** One step of reading; false when more bytes are needed (or everything was read). */
  private advance(): boolean {
    if (this.headerBytes < 0) {
      const fixed = this.take(12);
      if (!fixed) return false;
      if (fixed.readUInt32LE(0) !== MAGIC) throw new SnapshotFormatError('not a binary engine snapshot');
      const version = fixed.readUInt16LE(4);
      if (version !== BINARY_SNAPSHOT_VERSION) throw new SnapshotFormatError(`snapshot format version ${version}, expected ${BINARY_SNAPSHOT_VERSION}`);
      this.headerBytes = fixed.readUInt32LE(8);
      return true;
    }
    if (!this.header) {
      const h = this.take(this.headerBytes);
      if (!h) return false;
      const header = parseJson(h) as { skeleton: unknown; parts: Part[] } | null;
      if (!header || !Array.isArray(header.parts)) throw new SnapshotFormatError('snapshot header has no parts');
      this.header = header;
      return true;
    }
    const p = this.header.parts[this.part];
    if (!p) {
      if (this.queued) throw new SnapshotFormatError('trailing bytes after the last part');
      return false;
    }
    if (p.k !== 'l') {
      if (p.k === 'a' && !(p.t in TYPES)) throw new SnapshotFormatError(`unknown array type ${String(p.t)}`);
      if (!this.target) {
        this.target = new Uint8Array(p.n);
        this.filled = 0;
      }
      this.fill();
      if (this.filled < p.n) return false;
      this.values.push(p.k === 'a' ? new TYPES[p.t](this.target.buffer as ArrayBuffer) : Buffer.from(this.target.buffer).toString('utf8'));
      this.target = undefined;
      this.part++;
      return true;
    }
    this.list ??= [];
    if (this.list.length === p.n) {
      this.values.push(this.list);
      this.list = undefined;
      this.part++;
      return true;
    }
    if (this.recordBytes < 0) {
      const len = this.take(4);
      if (!len) return false;
      this.recordBytes = len.readUInt32LE(0);
      return true;
    }
    const rec = this.take(this.recordBytes);
    if (!rec) return false;
    this.recordBytes = -1;
    const items = parseJson(rec);
    if (!Array.isArray(items) || this.list.length + items.length > p.n) throw new SnapshotFormatError('a list record does not match its header');
    for (const x of items) this.list.push(x);
    return true;
  }

  /** Copy queued bytes into the target part, piece by piece (no concatenation). */
  private fill(): void {
    const t = this.target!;
    while (this.filled < t.byteLength && this.queue.length) {
      const head = this.queue[0];
      const n = Math.min(head.byteLength, t.byteLength - this.filled);
      t.set(head.subarray(0, n), this.filled);
      this.filled += n;
      this.queued -= n;
      if (n === head.byteLength) this.queue.shift();
      else this.queue[0] = head.subarray(n);
    }
  }

  /** The next n queued bytes as one buffer, or undefined while fewer are queued. */
  private take(n: number): Buffer | undefined {
    if (this.queued < n) return undefined;
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    while (at < n) {
      const head = this.queue[0];
      const k = Math.min(head.byteLength, n - at);
      head.copy(out, at, 0, k);
      at += k;
      if (k === head.byteLength) this.queue.shift();
      else this.queue[0] = head.subarray(k);
    }
    this.queued -= n;
    return out;
  }
}

function parseJson(b: Buffer): unknown {
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    throw new SnapshotFormatError('a snapshot record is not valid JSON');
  }
}
