// The raw statements of inventory: every change of an item's counters (products / variants:
// inventory_quantity, inventory_reserved, inventory_committed) is ONE conditional statement, so two
// writers can never both take the last unit (PostgreSQL re-checks the condition on the row version
// the winner committed). Each statement names the tenant explicitly (appPartition).
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../../lib/ids.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import type { Environment } from '../../../lib/tenant.js';
import type { ReservationStatus } from './inventory.entities.js';

/** A product (variantId null) or one of its variants: what holds stock. */
export interface ItemRef {
  productId: string;
  variantId: string | null;
}
export const itemIdOf = (i: ItemRef): string => i.variantId ?? i.productId;

/** An item's counters and what its alerts need. */
export interface ItemState {
  quantity: number;
  reserved: number;
  committed: number;
  trackStock: boolean;
  allowBackorder: boolean;
  threshold: number | null;
  sku: string;
  name: string;
}

/** available as the counters see it: on hand minus held (never below 0). */
export const availableOf = (s: ItemState): number => Math.max(0, s.quantity - s.reserved - s.committed);

interface ItemSql {
  /** `update … set` target with alias i */
  table: string;
  /** extra FROM (the product of a variant) */
  from: string;
  where: string;
  /** the item holds stock of its own (a bundle's is its components') */
  notBundle: string;
  backorder: string;
  threshold: string;
  name: string;
}

function itemSql(item: ItemRef): ItemSql {
  return item.variantId
    ? {
        table: '"catalog"."product_variants" i',
        from: 'from "catalog"."products" p',
        where: 'i.app_id = ? and i.environment = ? and i.id = ? and p.id = i.product_id and p.deleted_at is null',
        notBundle: 'true',
        backorder: 'p.allow_backorder',
        threshold: 'p.low_stock_threshold',
        name: "p.name || ' / ' || i.name",
      }
    : {
        table: '"catalog"."products" i',
        from: '',
        where: 'i.app_id = ? and i.environment = ? and i.id = ? and i.deleted_at is null',
        notBundle: "i.type <> 'bundle'",
        backorder: 'i.allow_backorder',
        threshold: 'i.low_stock_threshold',
        name: 'i.name',
      };
}

const stateCols = (s: ItemSql) =>
  `i.inventory_quantity as quantity, i.inventory_reserved as reserved, i.inventory_committed as committed, i.track_stock as "trackStock",
   ${s.backorder} as "allowBackorder", ${s.threshold} as threshold, i.sku, ${s.name} as name`;

function toState(r: Record<string, unknown> | undefined): ItemState | null {
  if (!r) return null;
  return {
    quantity: Number(r.quantity),
    reserved: Number(r.reserved),
    committed: Number(r.committed),
    trackStock: !!r.trackStock,
    allowBackorder: !!r.allowBackorder,
    threshold: r.threshold == null ? null : Number(r.threshold),
    sku: String(r.sku),
    name: String(r.name),
  };
}

const partArgs = (part: AppPartition, item: ItemRef) => [part.appId, part.environment, itemIdOf(item)];

/** Lock the item's row for the transaction (every level write takes it first) and read its counters. */
export async function lockItem(em: EntityManager, part: AppPartition, item: ItemRef): Promise<ItemState | null> {
  const s = itemSql(item);
  const from = s.from ? `, ${s.from.replace(/^from /, '')}` : '';
  const rows = await em.execute(`select ${stateCols(s)} from ${s.table}${from} where ${s.where} for update of i`, partArgs(part, item), 'all');
  return toState(rows[0]);
}

/** The item's counters without a lock (to classify a refused write, or to answer reads). */
export async function readItem(em: EntityManager, part: AppPartition, item: ItemRef): Promise<ItemState | null> {
  const s = itemSql(item);
  const from = s.from ? `, ${s.from.replace(/^from /, '')}` : '';
  const rows = await em.execute(`select ${stateCols(s)} from ${s.table}${from} where ${s.where}`, partArgs(part, item), 'all');
  return toState(rows[0]);
}

/**
 * Marks the item's active reservations whose expires_at has passed (as of the transaction's now())
 * expired and gives their quantity back, in one statement; answers the quantity freed. Concurrent
 * callers cannot free a reservation twice: the second waits for the row and finds it no longer active.
 */
export async function releaseExpired(em: EntityManager, part: AppPartition, item: ItemRef): Promise<number> {
  const s = itemSql(item);
  const rows = await em.execute(
    `with x as (
       update "catalog"."inventory_reservations" r set status = 'expired', updated_at = now()
        where r.app_id = ? and r.environment = ? and r.item_id = ? and r.status = 'active' and r.expires_at <= now()
       returning r.quantity, r.is_bundle),
     f as (select coalesce(sum(quantity) filter (where not is_bundle), 0)::int as freed from x)
     update ${s.table} set inventory_reserved = i.inventory_reserved - f.freed from f${s.from ? `, ${s.from.replace(/^from /, '')}` : ''}
      where ${s.where} and f.freed > 0
     returning f.freed`,
    [...partArgs(part, item), ...partArgs(part, item)],
    'all',
  );
  return rows.length ? Number(rows[0].freed) : 0;
}

export interface HoldInput {
  reservationId: string;
  orderId: string;
  quantity: number;
  expiresAt: Date;
  parentId: string | null;
}

/**
 * What lets a hold commit on its own (autocommit, no transaction around it): the item has no
 * reservation past expires_at still marked active (those are given back first, by the transaction
 * path), and the hold crosses no alert line (stockCrossings: an alert must be written to the
 * outbox in the same transaction). Parameters: the quantity, twice.
 */
function aloneConditions(s: ItemSql): string {
  const avail = 'greatest(0, i.inventory_quantity - i.inventory_reserved - i.inventory_committed)';
  return `and ${s.notBundle}
          and not exists (select 1 from "catalog"."inventory_reservations" x
                           where x.item_id = i.id and x.status = 'active' and x.expires_at <= now() and x.app_id = i.app_id and x.environment = i.environment)
          and (not i.track_stock or ${s.backorder}
               or not ((${s.threshold} is not null and ${avail} >= ${s.threshold} and ${avail} - ? < ${s.threshold})
                       or (${avail} > 0 and ${avail} - ? <= 0)))`;
}

/**
 * THE reservation statement: adds `quantity` to the item's reserved counter only when that much is
 * available (or stock is not tracked, or backorders are allowed) and the order holds no live
 * reservation of the item yet, and inserts the reservation row, all in one statement. Answers the
 * counters after it, or null when nothing was held (the caller then says why).
 */
export async function holdStock(em: EntityManager, part: AppPartition, item: ItemRef, h: HoldInput, alone = false): Promise<ItemState | null> {
  const s = itemSql(item);
  const itemId = itemIdOf(item);
  const rows = await em.execute(
    `with held as (
       update ${s.table} set inventory_reserved = i.inventory_reserved + ? ${s.from}
        where ${s.where}
          and not exists (select 1 from "catalog"."inventory_reservations" e
                           where e.app_id = i.app_id and e.environment = i.environment and e.item_id = i.id and e.order_id = ?
                             and (e.status = 'committed' or (e.status = 'active' and e.expires_at > now())))
          and (not i.track_stock or ${s.backorder} or i.inventory_quantity - i.inventory_reserved - i.inventory_committed >= ?)
          ${alone ? aloneConditions(s) : ''}
       returning ${stateCols(s)}),
     ins as (
       insert into "catalog"."inventory_reservations"
         (id, app_id, environment, item_id, product_id, variant_id, parent_id, is_bundle, order_id, quantity, status, expires_at, created_at, updated_at)
       select ?, ?, ?, ?, ?, ?, ?, false, ?, ?, 'active', ?, now(), now() from held
       returning id)
     select held.* from held, ins`,
    [
      h.quantity,
      ...partArgs(part, item),
      h.orderId,
      h.quantity,
      ...(alone ? [h.quantity, h.quantity] : []),
      h.reservationId,
      part.appId,
      part.environment,
      itemId,
      item.productId,
      item.variantId,
      h.parentId,
      h.orderId,
      h.quantity,
      h.expiresAt,
    ],
    'all',
  );
  return toState(rows[0]);
}

export interface CounterDelta {
  quantity?: number;
  reserved?: number;
  committed?: number;
}

/**
 * Applies deltas to the item's counters in one statement. With `keepAvailable`, only when on hand
 * stays at or above what is held (reserved + committed), unless stock is untracked or backorders
 * are allowed. Answers the counters after it, or null when refused (or no such item).
 */
export async function changeCounters(em: EntityManager, part: AppPartition, item: ItemRef, d: CounterDelta, keepAvailable: boolean): Promise<ItemState | null> {
  const s = itemSql(item);
  const dq = d.quantity ?? 0;
  const dr = d.reserved ?? 0;
  const dc = d.committed ?? 0;
  const guard = keepAvailable
    ? `and (not i.track_stock or ${s.backorder} or i.inventory_quantity + ? >= i.inventory_reserved + ? + i.inventory_committed + ?)`
    : '';
  const rows = await em.execute(
    `update ${s.table} set inventory_quantity = i.inventory_quantity + ?, inventory_reserved = greatest(0, i.inventory_reserved + ?),
            inventory_committed = greatest(0, i.inventory_committed + ?), updated_at = now() ${s.from}
      where ${s.where} ${guard}
      returning ${stateCols(s)}`,
    [dq, dr, dc, ...partArgs(part, item), ...(keepAvailable ? [dq, dr, dc] : [])],
    'all',
  );
  return toState(rows[0]);
}

export interface LevelRow {
  locationId: string;
  quantity: number;
}

/** The item's levels (under the item's lock when called inside a level write). */
export async function levelsOfItem(em: EntityManager, part: AppPartition, item: ItemRef): Promise<LevelRow[]> {
  const rows = await em.execute(
    `select location_id as "locationId", quantity from "catalog"."inventory_levels" where app_id = ? and environment = ? and item_id = ?`,
    partArgs(part, item),
    'all',
  );
  return rows.map((r) => ({ locationId: String(r.locationId), quantity: Number(r.quantity) }));
}

/**
 * Adds `delta` to the item's level at a location (a new row starts at 0), in one statement that
 * refuses to take the level below 0 unless `allowNegative`. Answers [before, after], or null when
 * refused (the caller throws, so its transaction rolls back a new row that would start below 0).
 */
export async function addToLevel(em: EntityManager, part: AppPartition, item: ItemRef, levelId: string, locationId: string, delta: number, allowNegative: boolean): Promise<[number, number] | null> {
  const rows = await em.execute(
    `insert into "catalog"."inventory_levels" as l (id, app_id, environment, item_id, product_id, variant_id, location_id, quantity, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?::int, now())
     on conflict (item_id, location_id) do update set quantity = l.quantity + excluded.quantity, updated_at = now()
       where ?::boolean or l.quantity + excluded.quantity >= 0
     returning l.quantity`,
    [levelId, part.appId, part.environment, itemIdOf(item), item.productId, item.variantId, locationId, delta, allowNegative],
    'all',
  );
  if (!rows.length) return null;
  const after = Number(rows[0].quantity);
  // a new level row starts at `delta`: negative is refused here (the caller's transaction rolls back)
  if (after < 0 && !allowNegative) return null;
  return [after - delta, after];
}

/** Reservations held now: active and not past expires_at (whether or not the expiry job ran yet). */
export async function heldNow(em: EntityManager, part: AppPartition, itemIds: string[]): Promise<Map<string, number>> {
  const rows = await em.execute(
    `select item_id as "itemId", coalesce(sum(quantity), 0)::int as held from "catalog"."inventory_reservations"
      where app_id = ? and environment = ? and item_id in (select jsonb_array_elements_text(?::jsonb))
        and status = 'active' and expires_at > now() and not is_bundle
      group by item_id`,
    [part.appId, part.environment, JSON.stringify(itemIds)],
    'all',
  );
  return new Map(rows.map((r) => [String(r.itemId), Number(r.held)]));
}

export interface GroupHold {
  reservationId: string;
  orderId: string;
  quantity: number;
  expiresAt: Date;
}

/** What one request of a group came to, with the item's counters as that request left them. */
export type GroupOutcome =
  | { outcome: 'held'; createdAt: Date; after: ItemState }
  | { outcome: 'existing'; reservation: { id: string; quantity: number; status: string; expiresAt: Date; createdAt: Date }; after: ItemState }
  | { outcome: 'refused'; after: ItemState };

/**
 * A group of holds of one product's own stock in ONE statement (catalog.inventory_hold_group, applied
 * in the order given under the product's row lock; see its migration). Answers one outcome per
 * hold, in order, or null when the product is not a live, non-bundle product of the partition (the
 * per-request path then says why).
 */
export async function holdGroup(em: EntityManager, part: AppPartition, productId: string, holds: GroupHold[]): Promise<GroupOutcome[] | null> {
  const rows = await em.execute(
    // the counters under the names toState reads
    `select o_k, o_outcome, o_id, o_quantity, o_status, o_expires_at, o_created_at, o_on_hand as quantity, o_reserved as reserved, o_committed as committed,
       o_track_stock as "trackStock", o_allow_backorder as "allowBackorder", o_threshold as threshold, o_sku as sku, o_name as name
     from "catalog"."inventory_hold_group"(?, ?, ?, ?::jsonb)`,
    [part.appId, part.environment, productId, JSON.stringify(holds.map((h) => ({ id: h.reservationId, orderId: h.orderId, quantity: h.quantity, expiresAt: h.expiresAt.toISOString() })))],
    'all',
  );
  if (!rows.length) return null;
  const out: GroupOutcome[] = [];
  for (const r of rows) out[Number(r.o_k) - 1] = outcomeOf(r);
  if (out.length !== holds.length || out.includes(undefined as never)) throw new Error(`inventory_hold_group answered ${rows.length} rows for ${holds.length} holds`);
  return out;
}

function outcomeOf(r: Record<string, unknown>): GroupOutcome {
  const after = toState(r)!;
  if (r.o_outcome === 'held') return { outcome: 'held', createdAt: new Date(r.o_created_at as string), after };
  if (r.o_outcome === 'existing') {
    const reservation = { id: String(r.o_id), quantity: Number(r.o_quantity), status: String(r.o_status), expiresAt: new Date(r.o_expires_at as string), createdAt: new Date(r.o_created_at as string) };
    return { outcome: 'existing', reservation, after };
  }
  return { outcome: 'refused', after };
}

/** An item's quantity at one location, made or replaced (the default level a PATCH of the total aligns). */
export async function setLevel(em: EntityManager, part: AppPartition, item: ItemRef, locationId: string, quantity: number): Promise<void> {
  await em.execute(
    `insert into "catalog"."inventory_levels" as l (id, app_id, environment, item_id, product_id, variant_id, location_id, quantity, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, now()) on conflict (item_id, location_id) do update set quantity = excluded.quantity, updated_at = now()`,
    [newId('lvl'), part.appId, part.environment, itemIdOf(item), item.productId, item.variantId, locationId, quantity],
  );
}

export interface MovedRow {
  itemId: string;
  productId: string;
  variantId: string | null;
  quantity: number;
  isBundle: boolean;
  orderId: string;
}

/** Moves the reservation and its components from one status to another in one statement; the rows moved (empty: none was in `from`). */
export async function moveReservation(em: EntityManager, part: AppPartition, id: string, from: ReservationStatus, to: ReservationStatus, liveOnly: boolean): Promise<MovedRow[]> {
  const rows = await em.execute(
    `update "catalog"."inventory_reservations" set status = ?, updated_at = now()
      where app_id = ? and environment = ? and (id = ? or parent_id = ?) and status = ? ${liveOnly ? 'and expires_at > now()' : ''}
      returning item_id as "itemId", product_id as "productId", variant_id as "variantId", quantity, is_bundle as "isBundle", order_id as "orderId"`,
    [to, part.appId, part.environment, id, id, from],
    'all',
  );
  return (rows as MovedRow[]).map((r) => ({ ...r, quantity: Number(r.quantity) })).sort((a, b) => (a.itemId < b.itemId ? -1 : 1));
}

/** The items with an active reservation past expires_at, across app partitions (the expiry job has no request), `limit` at most. */
export async function expiredItems(em: EntityManager, limit: number): Promise<(AppPartition & ItemRef & { itemId: string })[]> {
  const rows = await em.execute(
    `select distinct app_id as "appId", environment, item_id as "itemId", product_id as "productId", variant_id as "variantId"
       from "catalog"."inventory_reservations" where status = 'active' and expires_at <= now() limit ${Number(limit)}`,
    [],
    'all',
  );
  return rows.map((r) => ({ appId: String(r.appId), environment: r.environment as Environment, itemId: String(r.itemId), productId: String(r.productId), variantId: (r.variantId as string | null) ?? null }));
}
