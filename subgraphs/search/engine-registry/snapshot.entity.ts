// The engine snapshot in force for an index (engine-registry/snapshot-store.ts): a restart reads its
// chunks and applies only the documents written after `taskId`, instead of re-indexing every row.
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';

@Entity({ tableName: 'index_snapshots' })
export class IndexSnapshotEntity {
  @PrimaryKey({ length: 32 })
  indexId!: string;

  /** the engine's version: every task up to this one is in the snapshot */
  @Property({ type: new BigIntType('number') })
  taskId!: number;

  /** storage format (engine-registry/snapshot-store.ts): 3 = a manifest chunk and sections of the binary stream of lib/search-engine/snapshot-binary.ts */
  @Property({ type: 'integer' })
  format: number & Opt = 2;

  @Property({ type: 'integer' })
  chunks: number & Opt = 0;

  /** stored (compressed) bytes of all chunks */
  @Property({ type: new BigIntType('number') })
  bytes: number & Opt = 0;

  @Property({ type: 'integer' })
  documents!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** One chunk of a snapshot's stream: gzip'd, at most SEARCH_SNAPSHOT_CHUNK_KB before compression. */
@Entity({ tableName: 'index_snapshot_chunks' })
export class IndexSnapshotChunkEntity {
  @PrimaryKey({ length: 32 })
  indexId!: string;

  @PrimaryKey({ type: new BigIntType('number') })
  taskId!: number;

  @PrimaryKey({ type: 'integer' })
  seq!: number;

  @Property({ type: 'blob' })
  data!: Buffer;

  /** CRC-32 of `data` as stored */
  @Property({ type: new BigIntType('number') })
  crc32!: number;
}
