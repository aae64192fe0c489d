// Engine snapshots in PostgreSQL as chunks: the binary stream of engine/snapshot-binary.ts cut into
// chunks of at most `chunkBytes` (before compression), each gzip'd (level 1) and stored as one row
// with the CRC-32 of its stored bytes. `index_snapshots` holds one row per index naming the
// snapshot in force (task id, format version, chunk count); chunks of any other task id are
// leftovers of a replaced or abandoned write: older ones are deleted when the next one lands.
//
// Writing streams: one chunk in memory at a time, compressed on libuv's thread pool, one statement
// per chunk; the snapshot row switches to the new task id in one transaction with the removal of
// the old chunks. Reading streams the same way, one chunk per statement, checked before inflating.
import { crc32, gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type pg from 'pg';
import { BINARY_SNAPSHOT_VERSION } from '../../../lib/search-engine/snapshot-binary.js';
import { one, run, withTx } from '../db.js';
import { T } from '../sql.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The snapshot in force for an index. */
export interface StoredSnapshot {
  taskId: number;
  format: number;
  chunks: number;
}

/** A stored snapshot cannot be read: a chunk fails its checksum, is missing, or does not inflate. */
export class SnapshotCorruptError extends Error {
  override name = 'SnapshotCorruptError';
}

export interface ChunkWriteResult {
  /** false when a snapshot at the same or a newer task was already in force (nothing changed) */
  written: boolean;
  chunks: number;
  /** stored (compressed) bytes */
  bytes: number;
  /** bytes of the stream before compression */
  rawBytes: number;
}

export async function storedSnapshot(pool: pg.Pool, indexId: string): Promise<StoredSnapshot | undefined> {
  const r = await one<{ task_id: string; format: number; chunks: number }>(pool, `select task_id, format, chunks from ${T.snapshots} where index_id = $1`, [indexId]);
  return r && { taskId: Number(r.task_id), format: r.format, chunks: r.chunks };
}

/** SQL: the chunk's (alias-free `task_id` = $2) task is not the snapshot in force of index $1 */
const notInForce = `not exists (select 1 from ${T.snapshots} s where s.index_id = $1 and s.task_id = $2)`;

/** Cut a stream of pieces into chunks of exactly `size` bytes (the last one shorter). */
export async function* chunked(pieces: Iterable<Uint8Array>, size: number): AsyncGenerator<Buffer> {
  let buf = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) {
    let off = 0;
    while (off < piece.byteLength) {
      const n = Math.min(size - at, piece.byteLength - off);
      buf.set(piece.subarray(off, off + n), at);
      at += n;
      off += n;
      if (at === size) {
        yield buf;
        buf = Buffer.allocUnsafe(size);
        at = 0;
      }
    }
  }
  if (at) yield buf.subarray(0, at);
}

/**
 * Store a snapshot stream as the index's snapshot at `taskId`, unless one at the same or a newer task
 * is in force. `after` runs in the transaction that switches to it (the tombstone purge).
 */
export async function writeChunks(
  pool: pg.Pool,
  o: { indexId: string; taskId: number; documents: number; pieces: Iterable<Uint8Array>; chunkBytes: number; after?: (c: pg.PoolClient) => Promise<void> },
): Promise<ChunkWriteResult> {
  let seq = 0;
  let bytes = 0;
  let rawBytes = 0;
  const none = { written: false, chunks: 0, bytes: 0, rawBytes: 0 };
  // a snapshot at this task or a newer one is in force: nothing to write (and its chunks stay)
  const current = await storedSnapshot(pool, o.indexId);
  if (current && current.taskId >= o.taskId) return none;
  // leftovers of an earlier attempt at this very task id (never the chunks of the snapshot in force)
  await run(pool, `delete from ${T.snapshotChunks} where index_id = $1 and task_id = $2 and ${notInForce}`, [o.indexId, o.taskId]);
  for await (const raw of chunked(o.pieces, o.chunkBytes)) {
    const data = await gzipAsync(raw, { level: 1 });
    await run(pool, `insert into ${T.snapshotChunks} (index_id, task_id, seq, data, crc32) values ($1, $2, $3, $4, $5)`, [o.indexId, o.taskId, seq, data, crc32(data)]);
    seq++;
    bytes += data.byteLength;
    rawBytes += raw.byteLength;
  }
  const written = await withTx(pool, async (c) => {
    const n = await run(
      c,
      `insert into ${T.snapshots} (index_id, task_id, format, chunks, bytes, documents, created_at)
       select $1::text, $2::bigint, $3::int, $4::int, $5::bigint, $6::int, now() where exists (select 1 from ${T.indexes} where id = $1::text)
       on conflict (index_id) do update set task_id = excluded.task_id, format = excluded.format, chunks = excluded.chunks,
              bytes = excluded.bytes, documents = excluded.documents, created_at = excluded.created_at
        where index_snapshots.task_id < excluded.task_id`,
      [o.indexId, o.taskId, BINARY_SNAPSHOT_VERSION, seq, bytes, o.documents],
    );
    if (n) await o.after?.(c);
    return n > 0;
  });
  // chunks older than the snapshot in force (the replaced one's), and ours when it was not taken;
  // newer ones may be another process's write in progress
  await run(
    pool,
    `delete from ${T.snapshotChunks} k where k.index_id = $1
        and (k.task_id < (select s.task_id from ${T.snapshots} s where s.index_id = $1) or (not $3::boolean and k.task_id = $2 and ${notInForce}))`,
    [o.indexId, o.taskId, written],
  );
  return { written, chunks: seq, bytes, rawBytes };
}

/** The stored snapshot's stream, chunk by chunk, each checked against its CRC-32 before inflating. */
export async function* readChunks(pool: pg.Pool, indexId: string, s: StoredSnapshot): AsyncGenerator<Buffer> {
  for (let seq = 0; seq < s.chunks; seq++) {
    const r = await one<{ data: Buffer; crc32: string }>(pool, `select data, crc32 from ${T.snapshotChunks} where index_id = $1 and task_id = $2 and seq = $3`, [
      indexId,
      s.taskId,
      seq,
    ]);
    if (!r) throw new SnapshotCorruptError(`snapshot chunk ${seq} of ${s.chunks} is missing`);
    if (crc32(r.data) !== Number(r.crc32)) throw new SnapshotCorruptError(`snapshot chunk ${seq} of ${s.chunks} fails its checksum`);
    try {
      yield await gunzipAsync(r.data);
    } catch {
      throw new SnapshotCorruptError(`snapshot chunk ${seq} of ${s.chunks} does not inflate`);
    }
  }
}

/** Forget an unusable snapshot (only that one: a newer snapshot written meanwhile stays). */
export async function discardSnapshot(pool: pg.Pool, indexId: string, taskId: number): Promise<void> {
  await withTx(pool, async (c) => {
    await run(c, `delete from ${T.snapshots} where index_id = $1 and task_id = $2`, [indexId, taskId]);
    await run(c, `delete from ${T.snapshotChunks} where index_id = $1 and task_id = $2`, [indexId, taskId]);
  });
}
