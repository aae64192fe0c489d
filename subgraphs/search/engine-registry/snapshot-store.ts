// Engine snapshots in PostgreSQL as chunks, INCREMENTAL: a snapshot is a list of sections (the
// engine's base: liveness, ids, bodies, columns, settings shape; then one per immutable segment, named
// by the segment's key), each the binary stream of lib/search-engine/snapshot-binary.ts cut into chunks
// of at most `chunkBytes` (before compression), each gzip'd (level 1) and stored as one row with the
// CRC-32 of its stored bytes. Chunk 0 of a snapshot is its MANIFEST (gzip'd JSON: per section its key
// and the (task id, seq) of its chunks, in order). A segment that the snapshot in force already holds
// is not written again: the new manifest points at its chunks, stored under the older task id.
// `index_snapshots` names the snapshot in force (task id, format, chunks read, stored bytes); chunks no
// manifest in force points at are deleted when the next snapshot lands.
//
// A snapshot at the task of the one in force REPLACES it when it has fewer segments (the same documents
// compacted: otherwise a restart would load the uncompacted layout and merge it
// again, tens of seconds at 1,000,000 documents): its new chunks take the seqs after the ones stored
// under that task, its manifest overwrites chunk 0 in the switching transaction, and the chunks it no
// longer points at go in that transaction. A reader of the replaced layout that finds a chunk gone
// sees the row's created_at change and reads the replacement (engine-loader.ts).
//
// Writing streams: one chunk in memory at a time, compressed on libuv's thread pool, one statement
// per chunk; the snapshot row switches to the new task id in one transaction (which checks that every
// chunk it points at still exists) with the removal of the unreferenced chunks. Reading streams the
// same way, one chunk per statement (a binary COPY), checked before inflating.
import { crc32, gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type pg from 'pg';
import { copyOutRows, integer, literal } from '../../../lib/pg-copy-out.js';
import { one, run, withTx } from '../db.js';
import { T } from '../sql.js';
import { MAX_SNAPSHOT_CHUNK_KB } from '../config.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** the largest chunk a snapshot is cut into, plus the byte that lets zlib end in one buffer */
const MAX_CHUNK_BYTES = MAX_SNAPSHOT_CHUNK_KB * 1024 + 1;

/** index_snapshots.format of a manifest-and-sections snapshot (sections in BINARY_SNAPSHOT_VERSION) */
export const SNAPSHOT_STORE_FORMAT = 3;

/** One section of a snapshot: the base (key null) or a segment, as a stream of bytes. */
export interface SnapshotSection {
  key: string | null;
  pieces: Iterable<Uint8Array>;
}

type Ref = [taskId: number, seq: number];
interface Manifest {
  sections: { key: string | null; refs: Ref[] }[];
}

/** The snapshot in force for an index. */
export interface StoredSnapshot {
  taskId: number;
  format: number;
  chunks: number;
  /** when it was put in force (a replacement at the same task changes it) */
  createdAt: number;
}

/** A stored snapshot cannot be read: a chunk fails its checksum, is missing, or does not inflate. */
export class SnapshotCorruptError extends Error {
  override name = 'SnapshotCorruptError';
}

export interface ChunkWriteResult {
  /** false when a snapshot at the same or a newer task was already in force (nothing changed) */
  written: boolean;
  chunks: number;
  /** stored (compressed) bytes (written now and reused) */
  bytes: number;
  /** bytes of the stream before compression (written now) */
  rawBytes: number;
  /** segment sections reused from the snapshot in force (not written again) */
  reused: number;
}

export async function storedSnapshot(pool: pg.Pool, indexId: string): Promise<StoredSnapshot | undefined> {
  const r = await one<{ task_id: string; format: number; chunks: number; created_at: Date }>(
    pool,
    `select task_id, format, chunks, created_at from ${T.snapshots} where index_id = $1`,
    [indexId],
  );
  return r && { taskId: Number(r.task_id), format: r.format, chunks: r.chunks, createdAt: r.created_at.getTime() };
}

/** SQL: the chunk's (alias-free `task_id` = $2) task is not the snapshot in force of index $1 */
const notInForce = `not exists (select 1 from ${T.snapshots} s where s.index_id = $1 and s.task_id = $2)`;

/**
 * Cut a stream of pieces into chunks of exactly `into.length` bytes (the last one shorter), each written
 * into `into` and yielded as a view of it: a chunk is valid until the next one is asked for. One buffer
 * for a whole snapshot, not a new one per chunk that stays garbage until the next collection.
 */
export async function* chunked(pieces: Iterable<Uint8Array>, into: Buffer): AsyncGenerator<Buffer> {
  const size = into.byteLength;
  let at = 0;
  for (const piece of pieces) {
    let off = 0;
    while (off < piece.byteLength) {
      const n = Math.min(size - at, piece.byteLength - off);
      into.set(piece.subarray(off, off + n), at);
      at += n;
      off += n;
      if (at === size) {
        yield into;
        at = 0;
      }
    }
  }
  if (at) yield into.subarray(0, at);
}

async function readChunk(pool: pg.Pool, indexId: string, [taskId, seq]: Ref, what: string): Promise<Buffer> {
  // binary COPY: the stored bytes as they are, not bytea's hex text (lib/pg-copy-out.ts)
  const [row] = await copyOutRows(
    pool,
    `select data, crc32::text from ${T.snapshotChunks} where index_id = ${literal(indexId)} and task_id = ${integer(taskId)} and seq = ${integer(seq)}`,
  );
  const [data, sum] = row ?? [];
  if (!data || !sum) throw new SnapshotCorruptError(`snapshot chunk ${what} is missing`);
  if (crc32(data) !== Number(sum.toString('latin1'))) throw new SnapshotCorruptError(`snapshot chunk ${what} fails its checksum`);
  try {
    // inflated into one buffer of the chunk's size (the gzip trailer's ISIZE: chunks are < 4 GiB), not
    // in zlib's 16 KiB pieces concatenated at the end: a snapshot's hundreds of MB otherwise allocate
    // and copy twice, and the garbage collections they trigger were most of a cold start
    const size = data.byteLength >= 18 ? data.readUInt32LE(data.byteLength - 4) : 0;
    return await gunzipAsync(data, { chunkSize: Math.min(MAX_CHUNK_BYTES, Math.max(64 * 1024, size + 1)) });
  } catch {
    throw new SnapshotCorruptError(`snapshot chunk ${what} does not inflate`);
  }
}

async function readManifest(pool: pg.Pool, indexId: string, s: StoredSnapshot): Promise<Manifest> {
  const raw = await readChunk(pool, indexId, [s.taskId, 0], `0 (manifest) of ${s.chunks}`);
  let m: Manifest;
  try {
    m = JSON.parse(raw.toString('utf8')) as Manifest;
  } catch {
    throw new SnapshotCorruptError('snapshot manifest is not valid JSON');
  }
  if (!Array.isArray(m?.sections)) throw new SnapshotCorruptError('snapshot manifest has no sections');
  return m;
}

/**
 * Store a snapshot as the index's snapshot at `taskId`, unless one at a newer task is in force, or one
 * at the same task with the same segments: `pieces` is the base section, `segments` the segment sections (a segment the snapshot in force
 * holds is reused, its pieces never read). `after` runs in the transaction that switches to it (the
 * tombstone purge).
 */
export async function writeChunks(
  pool: pg.Pool,
  o: {
    indexId: string;
    taskId: number;
    documents: number;
    pieces: Iterable<Uint8Array>;
    segments?: SnapshotSection[];
    chunkBytes: number;
    after?: (c: pg.PoolClient) => Promise<void>;
    /** replace a snapshot at the same task too (its vector graph was built again) */
    replace?: boolean;
  },
): Promise<ChunkWriteResult> {
  let seq = 1;
  let bytes = 0;
  let rawBytes = 0;
  let reused = 0;
  const none = { written: false, chunks: 0, bytes: 0, rawBytes: 0, reused: 0 };
  // a snapshot at a newer task is in force: nothing to write (and its chunks stay)
  const current = await storedSnapshot(pool, o.indexId);
  if (current && current.taskId > o.taskId) return none;
  // the segments the snapshot in force holds (an unreadable manifest: nothing is reused)
  const held = new Map<string, Ref[]>();
  if (current?.format === SNAPSHOT_STORE_FORMAT) {
    const m = await readManifest(pool, o.indexId, current).catch(() => undefined);
    for (const sec of m?.sections ?? []) if (sec.key) held.set(sec.key, sec.refs);
  }
  const segments = o.segments ?? [];
  // at the same task: only a compacted layout (fewer segments, at least one) or a rebuilt graph replaces it
  const replacing = current?.taskId === o.taskId;
  if (replacing && !o.replace && !(segments.length > 0 && segments.length < held.size)) return none;
  if (replacing) {
    // new chunks after every chunk stored under this task (chunk 0, the manifest, is overwritten at the switch)
    const top = await one<{ seq: number }>(pool, `select coalesce(max(seq), 0)::int as seq from ${T.snapshotChunks} where index_id = $1 and task_id = $2`, [o.indexId, o.taskId]);
    seq = (top?.seq ?? 0) + 1;
  }
  // leftovers of an earlier attempt at this very task id (never the chunks of the snapshot in force)
  else await run(pool, `delete from ${T.snapshotChunks} where index_id = $1 and task_id = $2 and ${notInForce}`, [o.indexId, o.taskId]);
  const firstSeq = seq;
  const manifest: Manifest = { sections: [] };
  // each chunk is compressed and stored before the next is cut (chunked reuses it)
  const scratch = Buffer.allocUnsafe(o.chunkBytes);
  for (const section of [{ key: null, pieces: o.pieces }, ...segments]) {
    const old = section.key ? held.get(section.key) : undefined;
    if (old) {
      manifest.sections.push({ key: section.key, refs: old });
      reused++;
      continue;
    }
    const refs: Ref[] = [];
    for await (const raw of chunked(section.pieces, scratch)) {
      const data = await gzipAsync(raw, { level: 1 });
      await run(pool, `insert into ${T.snapshotChunks} (index_id, task_id, seq, data, crc32) values ($1, $2, $3, $4, $5)`, [o.indexId, o.taskId, seq, data, crc32(data)]);
      refs.push([o.taskId, seq]);
      seq++;
      bytes += data.byteLength;
      rawBytes += raw.byteLength;
    }
    manifest.sections.push({ key: section.key, refs });
  }
  const head = await gzipAsync(Buffer.from(JSON.stringify(manifest), 'utf8'), { level: 1 });
  if (!replacing) await run(pool, `insert into ${T.snapshotChunks} (index_id, task_id, seq, data, crc32) values ($1, $2, 0, $3, $4)`, [o.indexId, o.taskId, head, crc32(head)]);
  const refs: Ref[] = [[o.taskId, 0], ...manifest.sections.flatMap((x) => x.refs)];
  const refTasks = refs.map((r) => r[0]);
  const refSeqs = refs.map((r) => r[1]);
  const written = await withTx(pool, async (c) => {
    // every chunk the manifest points at is still there (another process's snapshot may have removed a reused one)
    const present = await one<{ n: number; bytes: string }>(
      c,
      `select count(*)::int as n, coalesce(sum(length(k.data)), 0) as bytes from ${T.snapshotChunks} k
         join unnest($2::bigint[], $3::int[]) r(t, s) on k.task_id = r.t and k.seq = r.s where k.index_id = $1`,
      [o.indexId, refTasks, refSeqs],
    );
    if (!present || present.n !== refs.length) return false;
    const n = await run(
      c,
      `insert into ${T.snapshots} (index_id, task_id, format, chunks, bytes, documents, created_at)
       select $1::text, $2::bigint, $3::int, $4::int, $5::bigint, $6::int, now() where exists (select 1 from ${T.indexes} where id = $1::text)
       on conflict (index_id) do update set task_id = excluded.task_id, format = excluded.format, chunks = excluded.chunks,
              bytes = excluded.bytes, documents = excluded.documents, created_at = excluded.created_at
        where index_snapshots.task_id < excluded.task_id or ($7 and index_snapshots.task_id = excluded.task_id)`,
      [o.indexId, o.taskId, SNAPSHOT_STORE_FORMAT, refs.length, Number(present.bytes), o.documents, replacing],
    );
    if (!n) return false;
    // a replacement's manifest is chunk 0 of the snapshot in force: overwritten at the switch
    if (replacing) await run(c, `update ${T.snapshotChunks} set data = $3, crc32 = $4 where index_id = $1 and task_id = $2 and seq = 0`, [o.indexId, o.taskId, head, crc32(head)]);
    await o.after?.(c);
    // chunks of older snapshots this one does not point at
    await run(
      c,
      `delete from ${T.snapshotChunks} k where k.index_id = $1 and (k.task_id < $2 or ($5 and k.task_id = $2))
          and not exists (select 1 from unnest($3::bigint[], $4::int[]) r(t, s) where r.t = k.task_id and r.s = k.seq)`,
      [o.indexId, o.taskId, refTasks, refSeqs, replacing],
    );
    return true;
  });
  // ours, when it was not taken; newer ones may be another process's write in progress
  if (!written && !replacing) await run(pool, `delete from ${T.snapshotChunks} k where k.index_id = $1 and k.task_id = $2 and ${notInForce}`, [o.indexId, o.taskId]);
  // a replacement not taken: its chunks after the ones in force (the next replacement clears them otherwise)
  else if (!written) await run(pool, `delete from ${T.snapshotChunks} k where k.index_id = $1 and k.task_id = $2 and k.seq >= $3`, [o.indexId, o.taskId, firstSeq]);
  return { written, chunks: refs.length, bytes, rawBytes, reused };
}

/** chunks read (and inflated) ahead of the one being decoded */
const READ_AHEAD = 2;

/**
 * The stored snapshot's sections, each as its key and its chunks (inflated), every chunk checked
 * against its CRC-32 before inflating. Up to READ_AHEAD chunks are fetched and inflated (zlib's thread
 * pool) while the caller decodes the current one, so PostgreSQL's read, the inflate and the decode
 * overlap instead of taking turns. Sections must be consumed in the order given, each whole: the
 * segments first, the base last. The base holds the external ids (a million strings at 1,000,000
 * documents); decoded first, they made every garbage collection the segments' hundreds of MB of
 * arrays trigger mark them again.
 */
export async function* readSections(pool: pg.Pool, indexId: string, s: StoredSnapshot): AsyncGenerator<{ key: string | null; chunks: AsyncGenerator<Buffer> }> {
  const m = await readManifest(pool, indexId, s);
  const sections = [...m.sections.filter((sec) => sec.key !== null), ...m.sections.filter((sec) => sec.key === null)];
  const refs = sections.flatMap((sec) => sec.refs);
  const pending: Promise<Buffer>[] = [];
  let next = 0;
  const take = (): Promise<Buffer> => {
    while (next < refs.length && pending.length <= READ_AHEAD) {
      const read = readChunk(pool, indexId, refs[next], `${next + 1} of ${s.chunks}`);
      read.catch(() => undefined); // a read ahead that nobody awaits (the caller stopped) is not unhandled
      pending.push(read);
      next++;
    }
    return pending.shift()!;
  };
  for (const sec of sections) {
    const count = sec.refs.length;
    yield {
      key: sec.key,
      chunks: (async function* () {
        for (let i = 0; i < count; i++) yield await take();
      })(),
    };
  }
}

/** Forget an unusable snapshot (only that one: a newer snapshot written meanwhile stays). */
export async function discardSnapshot(pool: pg.Pool, indexId: string, taskId: number): Promise<void> {
  await withTx(pool, async (c) => {
    await run(c, `delete from ${T.snapshots} where index_id = $1 and task_id = $2`, [indexId, taskId]);
    await run(c, `delete from ${T.snapshotChunks} where index_id = $1 and task_id = $2`, [indexId, taskId]);
  });
}
