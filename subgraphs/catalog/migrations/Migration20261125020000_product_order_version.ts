// The version of each partition's product order, kept beside its counts (catalog.product_counts): the
// statement-level triggers add 1 whenever a statement inserts or deletes products, moves them between
// live and deleted, or changes a creation time, i.e. whenever a product's place in the newest/oldest
// order could move. A catalog process keeps the sort keys at every 1,000th place of that order
// (products/product.page-bounds.ts) and trusts them only while the version is the one it read them at.
// Hand-written: the generator knows neither triggers nor this table (it has no entity).
import { Migration } from '@mikro-orm/migrations';

const NET = (rows: string, sign: string) =>
  `select app_id, environment, ${sign}count(*) filter (where deleted_at is null) as live, ${sign}count(*) filter (where deleted_at is not null) as deleted from ${rows} group by 1, 2`;

/** Add what a statement changed to the counts and move the order's version on (the counts' own upsert). */
const upsert = (net: string, having: string) => `insert into "catalog"."product_counts" as c (app_id, environment, live, deleted, order_version)
      select app_id, environment, sum(live), sum(deleted), 1 from (${net}) d group by 1, 2 ${having}
      on conflict (app_id, environment) do update set live = c.live + excluded.live, deleted = c.deleted + excluded.deleted, order_version = c.order_version + 1;`;

export class Migration20261125020000_product_order_version extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "catalog"."product_counts" add column "order_version" bigint not null default 0`);
    this.addSql(`create or replace function "catalog"."product_counts_apply"() returns trigger language plpgsql as $$
begin
  if TG_OP = 'TRUNCATE' then
    delete from "catalog"."product_counts";
  elsif TG_OP = 'INSERT' then
    ${upsert(NET('new_rows', ''), '')}
  elsif TG_OP = 'DELETE' then
    ${upsert(NET('old_rows', '-'), '')}
  else
    -- an update: the counts move when products move between live and deleted; the order's version
    -- also when a creation time changes (the same product, the same counts, another place)
    ${upsert(`${NET('new_rows', '')} union all ${NET('old_rows', '-')}`, 'having sum(live) <> 0 or sum(deleted) <> 0')}
    update "catalog"."product_counts" c set order_version = c.order_version + 1
      from (select distinct n.app_id, n.environment from new_rows n join old_rows o on o.id = n.id
             where n.created_at is distinct from o.created_at and (n.deleted_at is null) = (o.deleted_at is null)) d
     where c.app_id = d.app_id and c.environment = d.environment;
  end if;
  return null;
end $$`);
  }
}
