// How many live documents of an index hold each top-level field: Meilisearch's field distribution
// (GET /indexes/{uid}/stats). PostgreSQL keeps it, not the code: statement-level triggers on the
// documents table add each statement's new bodies' fields and take away its old ones (migration
// Migration20261201030000_document_fields), so every write path (add, replace, tombstone, purge,
// delete with the index) counts once per statement, in the statement's transaction. A field whose
// count falls to 0 keeps its row until the index is deleted; readers skip it.
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType } from '@mikro-orm/core';

@Entity({ tableName: 'document_fields' })
export class DocumentFieldEntity {
  @PrimaryKey({ length: 32 })
  indexId!: string;

  /** byte-wise ("C"), so the distribution lists fields in Meilisearch's order */
  @PrimaryKey({ type: 'text', collation: 'C' })
  field!: string;

  @Property({ type: new BigIntType('number') })
  documents!: number;
}
