// The latest serialised engine of an index (Engine.toSnapshot, gzip'd JSON): a restart loads it and
// applies only the documents written after `taskId`, instead of re-indexing every row.
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';

@Entity({ tableName: 'index_snapshots' })
export class IndexSnapshotEntity {
  @PrimaryKey({ length: 32 })
  indexId!: string;

  /** the engine's version: every task up to this one is in the snapshot */
  @Property({ type: new BigIntType('number') })
  taskId!: number;

  @Property({ type: 'blob' })
  data!: Buffer;

  @Property({ type: 'integer' })
  documents!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
