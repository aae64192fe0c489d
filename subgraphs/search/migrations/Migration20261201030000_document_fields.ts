// Field distribution (documents/document-field.entity.ts): a count per (index, top-level field) of
// live documents, kept by three statement-level triggers on the documents table that read the
// statement's transition tables: an insert adds its new rows' fields, an update (replace, tombstone,
// revival, and the update half of INSERT ... ON CONFLICT) adds the new and takes away the old, a
// delete takes away the old. Tombstones (deleted) hold no body and count nothing. The counts of the
// documents already stored are filled in here.
import { Migration } from '@mikro-orm/migrations';

/** The fields of the live bodies of transition table `rows`, with `sign` 1 or -1 per document. */
const fieldsOf = (rows: string, sign: number) =>
  `select d.index_id, k.field, ${sign} as n from ${rows} d cross join lateral jsonb_object_keys(d.body) k(field)
    where not d.deleted and jsonb_typeof(d.body) = 'object'`;

const addCounts = (select: string) => `
    insert into "search"."document_fields" as f (index_id, field, documents)
    select index_id, field, sum(n) from (${select}) x group by index_id, field having sum(n) <> 0
    on conflict (index_id, field) do update set documents = f.documents + excluded.documents;`;

export class Migration20261201030000_document_fields extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "search"."document_fields" ("index_id" varchar(32) not null, "field" text collate "C" not null, "documents" bigint not null, constraint "document_fields_pkey" primary key ("index_id", "field"))',
    );
    // each branch names only the transition tables its event has (plpgsql plans a statement when it first runs)
    this.addSql(`create function "search"."count_document_fields"() returns trigger language plpgsql as $$
begin
  if TG_OP = 'INSERT' then${addCounts(fieldsOf('new_rows', 1))}
  elsif TG_OP = 'UPDATE' then${addCounts(`${fieldsOf('new_rows', 1)} union all ${fieldsOf('old_rows', -1)}`)}
  else${addCounts(fieldsOf('old_rows', -1))}
  end if;
  return null;
end $$`);
    const trigger = (event: string, tables: string) =>
      `create trigger "documents_count_fields_${event}" after ${event} on "search"."documents" referencing ${tables} for each statement execute function "search"."count_document_fields"()`;
    this.addSql(trigger('insert', 'new table as new_rows'));
    this.addSql(trigger('update', 'old table as old_rows new table as new_rows'));
    this.addSql(trigger('delete', 'old table as old_rows'));
    this.addSql(`insert into "search"."document_fields" (index_id, field, documents)
      select index_id, field, count(*) from (${fieldsOf('"search"."documents"', 1)}) x group by index_id, field`);
  }

  override async down(): Promise<void> {
    for (const event of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists "documents_count_fields_${event}" on "search"."documents"`);
    this.addSql('drop function if exists "search"."count_document_fields"()');
    this.addSql('drop table if exists "search"."document_fields"');
  }
}
