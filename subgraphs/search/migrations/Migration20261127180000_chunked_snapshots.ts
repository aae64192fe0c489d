// Engine snapshots become binary and chunked (engine-registry/snapshot-store.ts): `index_snapshots`
// names the snapshot in force, `index_snapshot_chunks` holds its chunks. The JSON snapshots are
// dropped: they are derived data, and an index without one is rebuilt from its rows.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127180000_chunked_snapshots extends Migration {
  override async up(): Promise<void> {
    this.addSql('delete from "search"."index_snapshots"');
    this.addSql('alter table "search"."index_snapshots" drop column "data"');
    this.addSql(
      'alter table "search"."index_snapshots" add column "format" int not null default 2, add column "chunks" int not null default 0, add column "bytes" bigint not null default 0',
    );
    this.addSql(
      'create table "search"."index_snapshot_chunks" ("index_id" varchar(32) not null, "task_id" bigint not null, "seq" int not null, "data" bytea not null, "crc32" bigint not null, primary key ("index_id", "task_id", "seq"))',
    );
    // chunks are gzip'd already: no second compression by TOAST
    this.addSql('alter table "search"."index_snapshot_chunks" alter column "data" set storage external');
  }
}
