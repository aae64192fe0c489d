// The number of live and soft-deleted products per app and environment, kept by the database: an
// unfiltered product list's `total` reads one row instead of counting every product of the app (a
// 40 ms sequential count at 63,000 products in bench:catalog). Statement-level triggers with
// transition tables add what each statement changed, once per statement (a bulk insert is one
// upsert); an update that moves no product between live and deleted writes nothing; a TRUNCATE
// clears the counts. Hand-written:
// the generator knows neither triggers nor the products' raw-SQL indexes.
import { Migration } from '@mikro-orm/migrations';

const NET = (rows: string, sign: string) =>
  `select app_id, environment, ${sign}count(*) filter (where deleted_at is null) as live, ${sign}count(*) filter (where deleted_at is not null) as deleted from ${rows} group by 1, 2`;

export class Migration20261124230000_product_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "catalog"."product_counts" (
      "app_id" varchar(64) not null, "environment" varchar(8) not null,
      "live" integer not null default 0, "deleted" integer not null default 0,
      primary key ("app_id", "environment"))`);
    // each event's own statement: a transition table exists only for the events that have it
    const upsert = (net: string) => `insert into "catalog"."product_counts" as c (app_id, environment, live, deleted)
      select app_id, environment, sum(live), sum(deleted) from (${net}) d group by 1, 2 having sum(live) <> 0 or sum(deleted) <> 0
      on conflict (app_id, environment) do update set live = c.live + excluded.live, deleted = c.deleted + excluded.deleted;`;
    this.addSql(`create function "catalog"."product_counts_apply"() returns trigger language plpgsql as $$
begin
  if TG_OP = 'TRUNCATE' then
    delete from "catalog"."product_counts";
  elsif TG_OP = 'INSERT' then
    ${upsert(NET('new_rows', ''))}
  elsif TG_OP = 'DELETE' then
    ${upsert(NET('old_rows', '-'))}
  else
    ${upsert(`${NET('new_rows', '')} union all ${NET('old_rows', '-')}`)}
  end if;
  return null;
end $$`);
    this.addSql(`create trigger "product_counts_insert" after insert on "catalog"."products" referencing new table as new_rows for each statement execute function "catalog"."product_counts_apply"()`);
    this.addSql(`create trigger "product_counts_update" after update on "catalog"."products" referencing old table as old_rows new table as new_rows for each statement execute function "catalog"."product_counts_apply"()`);
    this.addSql(`create trigger "product_counts_delete" after delete on "catalog"."products" referencing old table as old_rows for each statement execute function "catalog"."product_counts_apply"()`);
    this.addSql(`create trigger "product_counts_truncate" after truncate on "catalog"."products" for each statement execute function "catalog"."product_counts_apply"()`);
    this.addSql(`insert into "catalog"."product_counts" (app_id, environment, live, deleted) ${NET('"catalog"."products"', '')}`);
  }
}
