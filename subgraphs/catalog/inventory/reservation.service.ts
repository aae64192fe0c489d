// Reservations: hold stock for an order (one conditional statement per item; the reservations of one
// product's own stock that wait for each other in this process go as one statement and one commit,
// holdTogether; a bundle holds all its required components in one transaction, all or nothing),
// release, commit when the order is paid
// (reserved → committed: still on hand, no longer available), fulfil (committed stock leaves the
// location, through the ledger). Expired reservations stop counting at expires_at: every hold first
// gives back its item's expired reservations in the same transaction, reads count only those still
// ahead, and the expiry job (reservation.expiry.ts) releases the rest.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import type { CatalogRuntime } from '../runtime.js';
import { defaultLocation, locationsById } from '../locations/location.service.js';
import { ReservationEntity, type ReservationStatus } from './inventory.entities.js';
import type { InventoryEvents } from './inventory.events.js';
import { applyLevelChange, inventoryWrite, liveProduct, lockForLevels, resolveItem } from './inventory.service.js';
import { changeCounters, holdGroup, holdStock, moveReservation as move, readItem, releaseExpired, type ItemRef, type ItemState } from './inventory.repository.js';
import { GroupQueue } from './reservation.queue.js';
import { checkExpiry, checkInt, checkText } from './inventory.rules.js';

export interface ReservationView {
  id: string;
  productId: string;
  variantId: string | null;
  quantity: number;
  orderId: string;
  status: ReservationStatus;
  expiresAt: Date;
  createdAt: Date;
  /** a bundle's reservation: what each component holds */
  components: ReservationView[] | null;
}

export interface ReserveInput {
  quantity: number;
  orderId: string;
  expiresAt?: Date | null;
  variantId?: string | null;
}

/** What a view needs of a reservation row: the entity, or a row known without reading it back. */
type ReservationRow = Pick<ReservationEntity, 'id' | 'productId' | 'variantId' | 'quantity' | 'orderId' | 'status' | 'expiresAt' | 'createdAt'>;

function view(r: ReservationRow, children: ReservationRow[] | null = null): ReservationView {
  return {
    id: r.id,
    productId: r.productId,
    variantId: r.variantId ?? null,
    quantity: r.quantity,
    orderId: r.orderId,
    status: r.status,
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
    components: children ? children.map((c) => view(c)) : null,
  };
}

/** Why nothing was held, from the counters the refused request saw: not enough on hand at all, or on hand but held by other orders. */
function refusalOf(s: ItemState | null, item: ItemRef, q: number, parameter: string): DomainError {
  if (!s) return new DomainError('PRODUCT_NOT_FOUND', `Product ${item.productId} not found`, { parameter });
  const held = s.reserved + s.committed;
  if (s.quantity - s.committed >= q && held > 0) {
    return new DomainError('INVENTORY_RESERVED', `${s.quantity} on hand, ${held} of it reserved or committed for other orders; ${Math.max(0, s.quantity - held)} available`, { parameter });
  }
  return new DomainError('INSUFFICIENT_INVENTORY', `${Math.max(0, s.quantity - held)} available, ${q} requested`, { parameter });
}

async function refusal(em: EntityManager, part: AppPartition, item: ItemRef, q: number, parameter: string): Promise<DomainError> {
  return refusalOf(await readItem(em, part, item), item, q, parameter);
}

/** The order's live reservation of an item (committed, or active and not past expires_at). */
async function liveReservation(em: EntityManager, itemId: string, orderId: string): Promise<ReservationEntity | null> {
  return em.findOne(ReservationEntity, { itemId, orderId, $or: [{ status: 'committed' }, { status: 'active', expiresAt: { $gt: new Date() } }] }, { refresh: true });
}

function sameOrder(existing: ReservationRow, q: number): void {
  if (existing.quantity !== q) {
    throw new DomainError('VALIDATION_FAILED', `order ${existing.orderId} already holds ${existing.quantity} of this item (reservation ${existing.id}); release it to change the quantity`, { parameter: 'quantity' });
  }
}

/** The reservation row a hold statement inserted (without reading it back; no entity: nothing of it is managed or flushed). */
function heldRow(id: string, item: ItemRef, q: number, orderId: string, expiresAt: Date, createdAt = new Date()): ReservationRow {
  return { id, productId: item.productId, variantId: item.variantId, orderId, quantity: q, status: 'active', expiresAt, createdAt };
}

/** Hold one item for an order inside the caller's transaction; the reservation row, or a refusal. */
async function holdItem(em: EntityManager, part: AppPartition, events: InventoryEvents, item: ItemRef, q: number, orderId: string, expiresAt: Date, parentId: string | null, parameter: string): Promise<ReservationRow> {
  await releaseExpired(em, part, item);
  const id = newId('res');
  const after = await holdStock(em, part, item, { reservationId: id, orderId, quantity: q, expiresAt, parentId });
  if (!after) {
    const existing = parentId ? null : await liveReservation(em, item.variantId ?? item.productId, orderId);
    if (existing) return existing;
    throw await refusal(em, part, item, q, parameter);
  }
  await events.crossings(em, part, item, { ...after, reserved: after.reserved - q }, after, null);
  return heldRow(id, item, q, orderId, expiresAt);
}

/** A concurrent request of the same order lost the race on the live-order index: the retry finds the winner's reservation. */
async function onceMore<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) return fn();
    throw e;
  }
}

/**
 * The common hold as ONE autocommit statement, so the item's row is locked only while PostgreSQL runs
 * it (no round trip to this process inside a transaction): taken when the item has nothing expired
 * to give back and the hold crosses no alert line. Null: the transaction path decides (refusal,
 * expiry, alert, the order's existing reservation).
 */
async function holdAlone(r: HoldRequest): Promise<ReservationView | null> {
  const item: ItemRef = { productId: r.productId, variantId: null };
  const id = newId('res');
  let after;
  try {
    after = await holdStock(r.ctx.em as EntityManager, r.part, item, { reservationId: id, orderId: r.orderId, quantity: r.q, expiresAt: r.expiresAt, parentId: null }, true);
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) return null; // the same order raced itself: the transaction path answers
    throw e;
  }
  return after ? view(heldRow(id, item, r.q, r.orderId, r.expiresAt)) : null;
}

export async function reserve(ctx: CatalogContext, productId: string, input: ReserveInput): Promise<ReservationView> {
  const q = checkInt(input.quantity, 'quantity', 1);
  const orderId = checkText(input.orderId, 'orderId', 200, true)!;
  const expiresAt = checkExpiry(input.expiresAt);
  // a product's own stock: held with the other requests for the same product that wait meanwhile; null: the long way answers
  if (!input.variantId) {
    const part = await appPartition(ctx);
    const held = await holdsOf(ctx.runtime).submit(`${part.appId}\n${part.environment}\n${productId}`, { ctx, part, productId, q, orderId, expiresAt });
    if (held) return held;
  }
  const { item, bundle } = await resolveItem(ctx, productId, input.variantId);
  if (bundle) return reserveBundle(ctx, productId, q, orderId, expiresAt);
  return onceMore(() =>
    inventoryWrite(ctx, async (em, part, events) => {
      const r = await holdItem(em, part, events, item, q, orderId, expiresAt, null, 'quantity');
      sameOrder(r, q);
      return view(r);
    }),
  );
}

/** A reservation of a product's own stock, as it waits in the product's queue (one partition and product per queue key). */
export interface HoldRequest {
  ctx: CatalogContext;
  part: AppPartition;
  productId: string;
  q: number;
  orderId: string;
  expiresAt: Date;
}

/**
 * The queue of holds per product, one per catalog runtime (so per process, as the runtime): a lone
 * request holds alone; requests that waited go as one group.
 */
const queues = new WeakMap<CatalogRuntime, GroupQueue<HoldRequest, ReservationView | null>>();
function holdsOf(runtime: CatalogRuntime): GroupQueue<HoldRequest, ReservationView | null> {
  let q = queues.get(runtime);
  if (!q) queues.set(runtime, (q = new GroupQueue(async (_key, requests) => (requests.length === 1 ? [await settle(holdAlone(requests[0]))] : holdTogether(requests)))));
  return q;
}

async function settle<T>(p: Promise<T>): Promise<PromiseSettledResult<T>> {
  try {
    return { status: 'fulfilled', value: await p };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

/**
 * Requests for one product, in arrival order, held in ONE statement and one transaction (holdGroup,
 * under the product's row lock): each gets what the per-request path would have answered in that
 * order (held, its order's live reservation, or refused with the same code), and the alerts its hold
 * crosses go to the outbox in the transaction and out after commit. The group runs on the first
 * request's context (every request of a group has the same partition). When the statement fails,
 * nothing of it was committed: each request then takes the per-request path (null).
 */
async function holdTogether(requests: HoldRequest[]): Promise<PromiseSettledResult<ReservationView | null>[]> {
  const { ctx, part, productId } = requests[0];
  const item: ItemRef = { productId, variantId: null };
  const holds = requests.map((r) => ({ reservationId: newId('res'), orderId: r.orderId, quantity: r.q, expiresAt: r.expiresAt }));
  try {
    return await inventoryWrite(ctx, async (em, _part, events) => {
      const outcomes = await holdGroup(em, part, productId, holds);
      if (!outcomes) return requests.map(() => ({ status: 'fulfilled', value: null }) as const);
      const results: PromiseSettledResult<ReservationView | null>[] = [];
      for (const [i, o] of outcomes.entries()) {
        const h = holds[i];
        if (o.outcome === 'held') {
          await events.crossings(em, part, item, { ...o.after, reserved: o.after.reserved - h.quantity }, o.after, null);
          results.push({ status: 'fulfilled', value: view(heldRow(h.reservationId, item, h.quantity, h.orderId, h.expiresAt, o.createdAt)) });
        } else if (o.outcome === 'existing') {
          const e = o.reservation;
          const row: ReservationRow = { ...e, productId, variantId: null, orderId: h.orderId, status: e.status as ReservationStatus };
          try {
            sameOrder(row, h.quantity);
            results.push({ status: 'fulfilled', value: view(row) });
          } catch (reason) {
            results.push({ status: 'rejected', reason });
          }
        } else {
          results.push({ status: 'rejected', reason: refusalOf(o.after, item, h.quantity, 'quantity') });
        }
      }
      return results;
    });
  } catch (err) {
    ctx.log.warn('reservation group failed; its requests take the per-request path', { err, productId, size: requests.length });
    return requests.map(() => ({ status: 'fulfilled', value: null }));
  }
}

/** A bundle: one parent row and one held row per required component (ids in order, so bundles sharing components cannot deadlock). */
async function reserveBundle(ctx: CatalogContext, bundleId: string, q: number, orderId: string, expiresAt: Date): Promise<ReservationView> {
  const bundle = await liveProduct(ctx, bundleId);
  const items = (bundle.bundleItems ?? []).map((c, i) => ({ ...c, i })).filter((c) => c.required);
  items.sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
  return onceMore(() =>
    inventoryWrite(ctx, async (em, part, events) => {
      await releaseExpired(em, part, { productId: bundleId, variantId: null });
      const existing = await liveReservation(em, bundleId, orderId);
      if (existing) {
        sameOrder(existing, q);
        return view(existing, await em.find(ReservationEntity, { parentId: existing.id }, { orderBy: { productId: 'asc' } }));
      }
      const parent = em.create(ReservationEntity, { ...part, itemId: bundleId, productId: bundleId, variantId: null, parentId: null, isBundle: true, orderId, quantity: q, status: 'active', expiresAt });
      await em.flush();
      const children: ReservationRow[] = [];
      for (const c of items) {
        children.push(await holdItem(em, part, events, { productId: c.productId, variantId: null }, q * c.quantity, orderId, expiresAt, parent.id, `bundle_items[${c.i}].quantity`));
      }
      return view(parent, children);
    }),
  );
}

async function findReservation(em: EntityManager, id: string): Promise<ReservationEntity> {
  const r = await em.findOne(ReservationEntity, { id, parentId: null }, { refresh: true });
  if (!r) throw new DomainError('RESERVATION_NOT_FOUND', `Reservation ${id} not found`, { parameter: 'reservationId' });
  return r;
}

async function reload(em: EntityManager, id: string): Promise<ReservationView> {
  const r = await findReservation(em, id);
  const children = r.isBundle ? await em.find(ReservationEntity, { parentId: r.id }, { orderBy: { productId: 'asc' }, refresh: true }) : null;
  return view(r, children);
}

/** DELETE /v1/inventory/reservations/:id: an active or committed reservation gives its stock back; releasing again answers it unchanged. */
export async function release(ctx: CatalogContext, id: string): Promise<ReservationView> {
  return inventoryWrite(ctx, async (em, part) => {
    await findReservation(em, id);
    for (const [from, counter] of [['active', 'reserved'], ['committed', 'committed']] as const) {
      for (const r of await move(em, part, id, from, 'released', false)) {
        if (!r.isBundle) await changeCounters(em, part, { productId: r.productId, variantId: r.variantId }, { [counter]: -r.quantity }, false);
      }
    }
    return reload(em, id);
  });
}

/** The order is paid: reserved → committed (on hand, not available, no longer expiring). Committing again answers it unchanged. */
export async function commit(ctx: CatalogContext, id: string): Promise<ReservationView> {
  return inventoryWrite(ctx, async (em, part) => {
    const r = await findReservation(em, id);
    const moved = await move(em, part, id, 'active', 'committed', true);
    if (!moved.length) {
      if (r.status === 'committed') return reload(em, id);
      const why = r.status === 'active' ? 'expired' : r.status;
      throw new DomainError('RESERVATION_NOT_ACTIVE', `Reservation ${id} is ${why}; only an active reservation can be committed`, { parameter: 'reservationId' });
    }
    for (const m of moved) {
      if (!m.isBundle) await changeCounters(em, part, { productId: m.productId, variantId: m.variantId }, { reserved: -m.quantity, committed: m.quantity }, false);
    }
    return reload(em, id);
  });
}

/** The order ships: committed stock leaves `locationId` (the default location when absent), written to the ledger as `fulfillment`. */
export async function fulfill(ctx: CatalogContext, id: string, locationId?: string | null): Promise<ReservationView> {
  return inventoryWrite(ctx, async (em, part, events) => {
    const r = await findReservation(em, id);
    if (locationId) await locationsById(em, [locationId], () => 'locationId');
    const moved = await move(em, part, id, 'committed', 'fulfilled', false);
    if (!moved.length) {
      if (r.status === 'fulfilled') return reload(em, id);
      throw new DomainError('RESERVATION_NOT_ACTIVE', `Reservation ${id} is ${r.status}; commit it (the order is paid) before fulfilling`, { parameter: 'reservationId' });
    }
    const loc = locationId ?? (await defaultLocation(em, part)).id;
    for (const m of moved) {
      if (m.isBundle) continue;
      const item = { productId: m.productId, variantId: m.variantId };
      const before = await lockForLevels(em, part, item);
      await applyLevelChange(ctx, em, part, events, item, before, { locationId: loc, delta: -m.quantity, committed: -m.quantity, reason: 'fulfillment', reference: m.orderId, parameter: 'locationId' });
    }
    return reload(em, id);
  });
}

/** GET /v1/inventory/reservations/:id */
export async function getReservation(ctx: CatalogContext, id: string): Promise<ReservationView> {
  return reload(ctx.em, id);
}
