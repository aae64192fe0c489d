// Documents of every index, one row per (index id, document id): JSONB body, add-or-replace by
// primary key. Deletions leave a tombstone (deleted, body null) stamped with the deleting task, so
// an in-memory engine can catch up on "everything after task N" from this one table; tombstones
// older than the latest engine snapshot are purged. Rows are reached only through an index, which
// the tenant filter has already resolved, so the table carries no tenant columns of its own.
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';

@Entity({ tableName: 'documents' })
@Index({ properties: ['indexId', 'taskId'] })
@Index({ properties: ['indexId', 'pos'] })
export class DocumentEntity {
  @PrimaryKey({ length: 32 })
  indexId!: string;

  /** byte-wise ("C") so ids compare as Meilisearch compares them */
  @PrimaryKey({ length: 511, collation: 'C' })
  docId!: string;

  @Property({ type: 'jsonb', nullable: true })
  body?: Record<string, unknown> | null;

  /** the task that last wrote this row (added, replaced or deleted it) */
  @Property({ type: new BigIntType('number') })
  taskId!: number;

  /** listing order: insertion order (task id × 100,000 + position in its batch), kept on replace */
  @Property({ type: new BigIntType('number') })
  pos!: number;

  @Property({ type: 'boolean', default: false })
  deleted: boolean & Opt = false;
}
