// Stock levels of a product or variant: read (GET /inventory), set absolute levels per location
// (PUT), apply deltas with a reason (POST /adjust), list the ledger. Every level write locks the
// item's row first, changes the level and the item's total each in one conditional statement,
// appends a ledger row, and records inventory.adjusted plus any low/out-of-stock crossing.
import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { checkPage } from '../request.js';
import { defaultLocation, locationsById } from '../locations/location.service.js';
import { LocationEntity } from '../locations/location.entity.js';
import { InventoryAdjustmentEntity, InventoryLevelEntity } from './inventory.entities.js';
import { InventoryEvents } from './inventory.events.js';
import { addToLevel, availableOf, changeCounters, heldNow, itemIdOf, levelsOfItem, lockItem, readItem, type ItemRef, type ItemState } from './inventory.repository.js';
import { checkInt, checkText } from './inventory.rules.js';

export interface LevelView {
  locationId: string;
  name: string;
  quantity: number;
  available: number;
}

export interface InventoryView {
  productId: string;
  variantId: string | null;
  totalQuantity: number;
  available: number;
  reserved: number;
  committed: number;
  inStock: boolean;
  lowStock: boolean;
  locations: LevelView[];
  updatedAt: Date;
}

/** Runs an inventory write in one transaction; its events are published after commit. */
export async function inventoryWrite<T>(ctx: CatalogContext, fn: (em: EntityManager, part: AppPartition, events: InventoryEvents) => Promise<T>): Promise<T> {
  const part = await appPartition(ctx);
  const events = new InventoryEvents(ctx);
  const result = await ctx.em.transactional((em) => fn(em as EntityManager, part, events));
  await events.publish(ctx, part);
  return result;
}

/** a product as the product aggregate's `productById` loader gives it */
type LiveProduct = NonNullable<Awaited<ReturnType<CatalogContext['loaders']['productById']['load']>>>;

/**
 * A live product a request names, read through the product aggregate's loader (`ctx.loaders`: the
 * inventory imports no other aggregate); 404 PRODUCT_NOT_FOUND otherwise.
 */
export async function liveProduct(ctx: CatalogContext, id: string): Promise<LiveProduct> {
  const p = await ctx.loaders.productById.load(id);
  if (!p) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${id} not found`, { parameter: 'id' });
  return p;
}

/** The product (and variant) a request names; 404 PRODUCT_NOT_FOUND / VARIANT_NOT_FOUND. */
export async function resolveItem(ctx: CatalogContext, productId: string, variantId?: string | null): Promise<{ item: ItemRef; bundle: boolean }> {
  const p = await liveProduct(ctx, productId);
  if (variantId) {
    const v = (await ctx.loaders.variantsByProduct.load(p.id)).find((x) => x.id === variantId);
    if (!v) throw new DomainError('VARIANT_NOT_FOUND', `Variant ${variantId} not found on product ${p.id}`, { parameter: 'variantId' });
    return { item: { productId: p.id, variantId: v.id }, bundle: false };
  }
  return { item: { productId: p.id, variantId: null }, bundle: p.type === 'bundle' };
}

function noBundleStock(): DomainError {
  return new DomainError('BUNDLE_INVALID', "a bundle holds no stock of its own: set its components' levels", { parameter: 'id' });
}

export function actorOf(ctx: CatalogContext): string {
  const t = ctx.tenant;
  if (t.keyId) return `key:${t.keyId}`;
  if (t.userId) return `user:${t.userId}`;
  return t.kind;
}

/** Before the first level write of an item: its whole quantity sits at the default location. */
async function ensureLevels(em: EntityManager, part: AppPartition, item: ItemRef, s: ItemState): Promise<void> {
  if ((await levelsOfItem(em, part, item)).length) return;
  const loc = await defaultLocation(em, part);
  await em.insert(InventoryLevelEntity, { id: newId('lvl'), ...part, itemId: itemIdOf(item), productId: item.productId, variantId: item.variantId, locationId: loc.id, quantity: s.quantity, updatedAt: new Date() });
}

export interface LevelChange {
  locationId: string;
  delta: number;
  reason: string;
  reference: string | null;
  /** fulfilment: committed stock leaves with it */
  committed?: number;
  parameter: string;
}

/**
 * One level change under the item's lock: the level (never below 0 unless backorders), then the
 * item's total (never below what is reserved and committed unless backorders), the ledger row and
 * the events. Answers the item's counters after it.
 */
export async function applyLevelChange(ctx: CatalogContext, em: EntityManager, part: AppPartition, events: InventoryEvents, item: ItemRef, before: ItemState, c: LevelChange): Promise<ItemState> {
  const loose = !before.trackStock || before.allowBackorder;
  const level = await addToLevel(em, part, item, newId('lvl'), c.locationId, c.delta, loose);
  if (!level) throw new DomainError('INSUFFICIENT_INVENTORY', `location ${c.locationId} holds less than ${-c.delta}`, { parameter: c.parameter });
  const after = await changeCounters(em, part, item, { quantity: c.delta, committed: c.committed ?? 0 }, c.delta < 0 && !c.committed);
  if (!after) {
    throw new DomainError('INSUFFICIENT_INVENTORY', `the change would leave less on hand than is reserved (${before.reserved}) and committed (${before.committed})`, { parameter: c.parameter });
  }
  await em.insert(InventoryAdjustmentEntity, {
    id: newId('adj'),
    ...part,
    itemId: itemIdOf(item),
    productId: item.productId,
    variantId: item.variantId,
    locationId: c.locationId,
    delta: c.delta,
    quantityBefore: level[0],
    quantityAfter: level[1],
    reason: c.reason,
    reference: c.reference,
    actor: actorOf(ctx),
    // the database's clock to the microsecond: the lines of one request (written one after the
    // other) keep their order in the ledger, where milliseconds tied and the random id decided
    createdAt: raw<Date>('clock_timestamp()'),
  });
  await events.adjusted(em, part, item, after, { locationId: c.locationId, delta: c.delta, levelBefore: level[0], levelAfter: level[1], reason: c.reason, reference: c.reference });
  await events.crossings(em, part, item, before, after, c.locationId);
  return after;
}

/** Lock the item for a level write and make sure its levels exist. */
export async function lockForLevels(em: EntityManager, part: AppPartition, item: ItemRef): Promise<ItemState> {
  const s = await lockItem(em, part, item);
  if (!s) throw item.variantId ? new DomainError('VARIANT_NOT_FOUND', `Variant ${item.variantId} not found`, { parameter: 'variantId' }) : new DomainError('PRODUCT_NOT_FOUND', `Product ${item.productId} not found`, { parameter: 'id' });
  await ensureLevels(em, part, item, s);
  return s;
}

export interface AdjustmentInput {
  locationId?: string | null;
  quantity: number;
  reason: string;
  reference?: string | null;
}

export async function adjustInventory(ctx: CatalogContext, productId: string, variantId: string | null | undefined, adjustments: AdjustmentInput[]): Promise<InventoryView> {
  if (!adjustments.length || adjustments.length > 100) throw new DomainError('VALIDATION_FAILED', 'adjustments must hold 1 to 100 entries', { parameter: 'adjustments' });
  const checked = adjustments.map((a, i) => ({
    locationId: a.locationId ?? null,
    delta: checkInt(a.quantity, `adjustments[${i}].quantity`, -1_000_000_000),
    reason: checkText(a.reason, `adjustments[${i}].reason`, 200, true)!,
    reference: checkText(a.reference, `adjustments[${i}].reference`, 200, false),
    parameter: `adjustments[${i}].quantity`,
    i,
  }));
  checked.forEach((a) => {
    if (a.delta === 0) throw new DomainError('VALIDATION_FAILED', 'quantity must be a non-zero integer delta', { parameter: a.parameter });
  });
  const { item, bundle } = await resolveItem(ctx, productId, variantId);
  if (bundle) throw noBundleStock();
  await inventoryWrite(ctx, async (em, part, events) => {
    const named = checked.filter((a) => a.locationId);
    await locationsById(em, named.map((a) => a.locationId!), (k) => `adjustments[${named[k].i}].location_id`);
    let state = await lockForLevels(em, part, item);
    const dflt = checked.some((a) => !a.locationId) ? (await defaultLocation(em, part)).id : '';
    for (const a of checked) state = await applyLevelChange(ctx, em, part, events, item, state, { ...a, locationId: a.locationId ?? dflt });
  });
  return getInventory(ctx, productId, variantId);
}

export interface LevelInput {
  locationId: string;
  quantity: number;
}

export async function setInventoryLevels(ctx: CatalogContext, productId: string, variantId: string | null | undefined, levels: LevelInput[]): Promise<InventoryView> {
  if (!levels.length || levels.length > 100) throw new DomainError('VALIDATION_FAILED', 'locations must hold 1 to 100 entries', { parameter: 'locations' });
  levels.forEach((l, i) => checkInt(l.quantity, `locations[${i}].quantity`, 0));
  const ids = levels.map((l) => l.locationId);
  const dup = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (dup >= 0) throw new DomainError('VALIDATION_FAILED', `location ${ids[dup]} is listed twice`, { parameter: `locations[${dup}].locationId` });
  const { item, bundle } = await resolveItem(ctx, productId, variantId);
  if (bundle) throw noBundleStock();
  await inventoryWrite(ctx, async (em, part, events) => {
    await locationsById(em, ids, (i) => `locations[${i}].location_id`);
    let state = await lockForLevels(em, part, item);
    const current = new Map((await levelsOfItem(em, part, item)).map((l) => [l.locationId, l.quantity]));
    for (const [i, l] of levels.entries()) {
      const delta = l.quantity - (current.get(l.locationId) ?? 0);
      if (delta === 0) continue;
      state = await applyLevelChange(ctx, em, part, events, item, state, { locationId: l.locationId, delta, reason: 'set', reference: null, parameter: `locations[${i}].quantity` });
    }
  });
  return getInventory(ctx, productId, variantId);
}

/**
 * The inventory resource. `reserved` counts active reservations whose expires_at is still ahead,
 * whether or not the expiry job has run; a location's `available` is what it holds, capped by the
 * item's available. A bundle answers what its required components allow (bundle_available).
 */
export async function getInventory(ctx: CatalogContext, productId: string, variantId?: string | null): Promise<InventoryView> {
  const { item, bundle } = await resolveItem(ctx, productId, variantId);
  const part = await appPartition(ctx);
  if (bundle) return bundleInventory(ctx, part, productId);
  const s = await readItem(ctx.em, part, item);
  if (!s) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} not found`, { parameter: 'id' });
  const reserved = (await heldNow(ctx.em, part, [itemIdOf(item)])).get(itemIdOf(item)) ?? 0;
  const live: ItemState = { ...s, reserved };
  const available = availableOf(live);
  let rows = await levelsOfItem(ctx.em, part, item);
  if (!rows.length) rows = [{ locationId: (await defaultLocation(ctx.em, part)).id, quantity: s.quantity }];
  const locs = await ctx.em.find(LocationEntity, { id: { $in: rows.map((r) => r.locationId) } });
  const names = new Map(locs.map((l) => [l.id, l.name]));
  const levelRows = await ctx.em.find(InventoryLevelEntity, { itemId: itemIdOf(item) }, { fields: ['updatedAt'], orderBy: { updatedAt: 'desc' }, limit: 1 });
  return {
    productId: item.productId,
    variantId: item.variantId,
    totalQuantity: s.quantity,
    available,
    reserved,
    committed: s.committed,
    inStock: !s.trackStock || s.allowBackorder || available > 0,
    lowStock: s.trackStock && s.threshold != null && available < s.threshold,
    locations: rows.map((r) => ({ locationId: r.locationId, name: names.get(r.locationId) ?? '', quantity: r.quantity, available: Math.max(0, Math.min(r.quantity, available)) })),
    updatedAt: levelRows[0]?.updatedAt ?? new Date(),
  };
}

async function bundleInventory(ctx: CatalogContext, part: AppPartition, bundleId: string): Promise<InventoryView> {
  const b = await liveProduct(ctx, bundleId);
  const required = (b.bundleItems ?? []).filter((c) => c.required);
  const held = await heldNow(ctx.em, part, required.map((c) => c.productId));
  let allows: number | null = null;
  for (const c of required) {
    const s = await readItem(ctx.em, part, { productId: c.productId, variantId: null });
    if (!s || !s.trackStock || s.allowBackorder) continue;
    const n = Math.floor(availableOf({ ...s, reserved: held.get(c.productId) ?? 0 }) / c.quantity);
    allows = allows == null ? n : Math.min(allows, n);
  }
  const available = allows ?? 0;
  return {
    productId: b.id,
    variantId: null,
    totalQuantity: available,
    available,
    reserved: 0,
    committed: 0,
    inStock: allows == null || available > 0,
    lowStock: b.trackStock && b.lowStockThreshold != null && available < b.lowStockThreshold,
    locations: [],
    updatedAt: b.updatedAt,
  };
}

export async function listAdjustments(ctx: CatalogContext, productId: string, variantId: string | null | undefined, page: number, pageSize: number): Promise<{ items: InventoryAdjustmentEntity[]; total: number }> {
  checkPage(page, pageSize);
  const { item } = await resolveItem(ctx, productId, variantId);
  const where = variantId ? { itemId: itemIdOf(item) } : { productId: item.productId };
  const [items, total] = await ctx.em.findAndCount(InventoryAdjustmentEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize });
  return { items, total };
}
