// catalog.inventory_hold_group: a group of reservations of ONE product's own stock, applied in the
// order given, in one statement (reservation.service.ts sends the requests that queued while the
// previous group of the item was in flight). As the per-request path does in its transaction, it
// first gives back the item's expired reservations, then takes the product's row lock (the order in
// which every writer of reservations takes its locks: reservation rows, then the item's row), so it
// runs strictly before or after every other writer of the item in any process (a single hold's
// UPDATE, a level write's SELECT … FOR UPDATE, another group); being a volatile function under READ
// COMMITTED, it reads everything after the lock with a fresh snapshot, so it sees what the writer
// before it committed. Then, for each request, it either answers the order's live reservation ('existing'), or
// holds it when that much is available (or stock is untracked, or backorders are allowed) and inserts
// its reservation row ('held'), or refuses it ('refused'); the counters each request saw come back with
// it, so the service says why exactly as the per-request path does and records alert crossings.
// The reserved counter is written once, at the end. No row at all: the product is not a live,
// non-bundle product of this partition; every request then takes the per-request path.
// Hand-written: the generator knows no functions.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261125010000_inventory_hold_group extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "catalog"."inventory_hold_group"(
    p_app varchar, p_env varchar, p_item varchar, p_holds jsonb)
  returns table (o_k int, o_outcome text, o_id varchar, o_quantity int, o_status varchar, o_expires_at timestamptz, o_created_at timestamptz,
                 o_on_hand int, o_reserved int, o_committed int, o_track_stock boolean, o_allow_backorder boolean, o_threshold int, o_sku text, o_name text)
  language plpgsql volatile as $$
declare
  it record;
  ex record;
  h record;
  v_reserved int;
  v_freed int;
  q int;
begin
  perform 1 from "catalog"."products" i
   where i.app_id = p_app and i.environment = p_env and i.id = p_item and i.deleted_at is null and i.type <> 'bundle';
  if not found then
    return;
  end if;
  -- the expired reservations first, then the item's row: the order every writer of reservations takes
  with x as (
    update "catalog"."inventory_reservations" r set status = 'expired', updated_at = now()
     where r.app_id = p_app and r.environment = p_env and r.item_id = p_item and r.status = 'active' and r.expires_at <= now()
    returning r.quantity, r.is_bundle)
  select coalesce(sum(x.quantity) filter (where not x.is_bundle), 0)::int into v_freed from x;
  select i.inventory_quantity, i.inventory_reserved, i.inventory_committed, i.track_stock, i.allow_backorder, i.low_stock_threshold, i.sku::text as sku, i.name::text as name
    into it from "catalog"."products" i
   where i.app_id = p_app and i.environment = p_env and i.id = p_item and i.deleted_at is null and i.type <> 'bundle'
   for update of i;
  if not found then
    raise exception 'product % went away during a reservation group', p_item; -- nothing is committed; the requests go one by one
  end if;
  v_reserved := it.inventory_reserved - v_freed;
  for h in select e.ordinality::int as k, e.value ->> 'id' as id, e.value ->> 'orderId' as order_id, (e.value ->> 'quantity')::int as quantity,
                  (e.value ->> 'expiresAt')::timestamptz as expires_at
             from jsonb_array_elements(p_holds) with ordinality e order by e.ordinality loop
    q := h.quantity;
    select e.id, e.quantity, e.status, e.expires_at, e.created_at into ex
      from "catalog"."inventory_reservations" e
     where e.app_id = p_app and e.environment = p_env and e.item_id = p_item and e.order_id = h.order_id
       and (e.status = 'committed' or (e.status = 'active' and e.expires_at > now()))
     limit 1;
    if found then
      return query select h.k, 'existing'::text, ex.id::varchar, ex.quantity::int, ex.status::varchar, ex.expires_at, ex.created_at,
        it.inventory_quantity, v_reserved, it.inventory_committed, it.track_stock, it.allow_backorder, it.low_stock_threshold, it.sku, it.name;
    elsif not it.track_stock or it.allow_backorder or it.inventory_quantity - v_reserved - it.inventory_committed >= q then
      insert into "catalog"."inventory_reservations"
        (id, app_id, environment, item_id, product_id, variant_id, parent_id, is_bundle, order_id, quantity, status, expires_at, created_at, updated_at)
      values (h.id, p_app, p_env, p_item, p_item, null, null, false, h.order_id, q, 'active', h.expires_at, now(), now());
      v_reserved := v_reserved + q;
      return query select h.k, 'held'::text, h.id::varchar, q, 'active'::varchar, h.expires_at, now(),
        it.inventory_quantity, v_reserved, it.inventory_committed, it.track_stock, it.allow_backorder, it.low_stock_threshold, it.sku, it.name;
    else
      return query select h.k, 'refused'::text, null::varchar, null::int, null::varchar, null::timestamptz, null::timestamptz,
        it.inventory_quantity, v_reserved, it.inventory_committed, it.track_stock, it.allow_backorder, it.low_stock_threshold, it.sku, it.name;
    end if;
  end loop;
  if v_reserved <> it.inventory_reserved then
    update "catalog"."products" i set inventory_reserved = v_reserved
     where i.app_id = p_app and i.environment = p_env and i.id = p_item;
  end if;
end $$`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists "catalog"."inventory_hold_group"(varchar, varchar, varchar, jsonb)`);
  }
}
