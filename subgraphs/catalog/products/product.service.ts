// Products: create, read (by id, by SKU), PATCH, soft delete, restore, permanent delete. Every write
// runs in one transaction with its SKU registry rows, category assignments and outbox events;
// subscription events go out after commit.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { EventLog, publishEvents } from '../events/catalog.events.js';
import type { CatalogEventName } from '../event-types.js';
import { enqueueProductIndexing } from './product.indexing-queue.js';
import { checkBundle, productValues } from './product.checks.js';
import { ProductEntity } from './product.entity.js';
import type { CreateProductInput, UpdateProductInput } from './product.inputs.js';
import { primePage, relationColumns, type PageSelection } from './product.page.js';
import { deleteVariantSkus, linkCategories, productPage, productRows, type ListQuery } from './product.repository.js';
import type { ProductData } from './product.type.js';
import { SkuEntity } from './sku.entity.js';
import { alignDefaultLevel } from '../inventory/inventory.levels.js';

/** The webhook `data` of a product event: a snapshot in the REST field names. */
export function productEventData(p: ProductEntity): Record<string, unknown> {
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    status: p.status,
    type: p.type,
    price: p.priceAmount != null ? { amount: Number(p.priceAmount), currency: p.priceCurrency } : null,
    updated_at: p.updatedAt.toISOString(),
  };
}

function skuTaken(sku: string | undefined): DomainError {
  return new DomainError('SKU_ALREADY_EXISTS', `SKU "${sku}" is already in use`, { parameter: 'sku' });
}

/**
 * Runs a product write in one transaction; the events it records are published after commit and
 * its products re-indexed for search. A unique violation is a SKU taken (the only unique keys).
 */
export async function productWrite<T>(
  ctx: CatalogContext,
  sku: string | undefined,
  fn: (em: EntityManager, part: AppPartition, events: EventLog) => Promise<T>,
): Promise<T> {
  const part = await appPartition(ctx);
  const events = new EventLog(ctx.runtime.webhooks.outbox);
  let result: T;
  try {
    result = await ctx.em.transactional(async (em) => {
      const r = await fn(em, part, events);
      const ids = [...new Set(events.recorded.map((e) => e.productId).filter((x): x is string => !!x))];
      if (ids.length) await enqueueProductIndexing(em, part, ids);
      return r;
    });
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw skuTaken(sku);
    throw e;
  }
  ctx.runtime.webhooks.kick();
  await publishEvents(ctx, part, events.recorded);
  return result;
}

/** Record `event` for `p` in the outbox and remember it for the after-commit publish. */
export async function productEvent(em: EntityManager, part: AppPartition, events: EventLog, event: CatalogEventName, p: ProductEntity, extra: Record<string, unknown> = {}): Promise<void> {
  await events.record(em, part, event, { ...productEventData(p), ...extra }, p.id);
}

export async function reserveSku(em: EntityManager, part: AppPartition, sku: string, ownerId: string): Promise<void> {
  await em.insert(SkuEntity, { ...part, sku, ownerId, createdAt: new Date() });
}

export async function releaseSku(em: EntityManager, sku: string, ownerId: string): Promise<void> {
  await em.nativeDelete(SkuEntity, { sku, ownerId });
}

/**
 * The categories a new product goes in, each read through the category aggregate's loader (before
 * the write's transaction: no second connection held while it is open); CATEGORY_NOT_FOUND naming
 * the unknown ones.
 */
async function knownCategories(ctx: CatalogContext, categoryIds: readonly string[]): Promise<string[]> {
  const ids = [...new Set(categoryIds)];
  const found = await Promise.all(ids.map((id) => ctx.loaders.categoryById.load(id)));
  const missing = ids.filter((_, i) => !found[i]);
  if (missing.length) throw new DomainError('CATEGORY_NOT_FOUND', `No such category: ${missing.join(', ')}`, { parameter: 'relationships.categories' });
  return ids;
}

/** The id of the category an id or a slug names (the list's filter.category); CATEGORY_NOT_FOUND naming `parameter`. */
async function categoryIdOf(ctx: CatalogContext, ref: string, parameter: string): Promise<string> {
  const c = await ctx.loaders.categoryByRef.load(ref);
  if (!c) throw new DomainError('CATEGORY_NOT_FOUND', `No category has the id or slug "${ref}"`, { parameter });
  return c.id;
}

export async function createProduct(ctx: CatalogContext, input: CreateProductInput): Promise<ProductEntity> {
  const values = productValues(input, true);
  const categoryIds = input.categoryIds?.length ? await knownCategories(ctx, input.categoryIds) : [];
  return productWrite(ctx, values.sku, async (em, part, events) => {
    const p = em.create(ProductEntity, { ...part, ...values, name: values.name!, sku: values.sku! });
    await checkBundle(em, p);
    await reserveSku(em, part, p.sku, p.id);
    await em.flush();
    if (categoryIds.length) await linkCategories(em, part, p.id, categoryIds);
    await productEvent(em, part, events, 'product.created', p);
    if (p.status === 'active') await productEvent(em, part, events, 'product.published', p);
    return p;
  });
}

/** A live product of the caller's app; PRODUCT_NOT_FOUND naming `parameter` otherwise. */
export async function getProduct(ctx: CatalogContext, id: string, parameter = 'id'): Promise<ProductEntity> {
  const p = await ctx.loaders.productById.load(id);
  if (!p) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${id} not found`, { parameter });
  return p;
}

/**
 * A page of products and the total (GET /v1/products). The relations `selection` names are read in
 * the page's own statement and prime their loaders (product.page.ts).
 */
export async function listProducts(ctx: CatalogContext, q: Omit<ListQuery, 'columns' | 'categoryId'>, selection?: PageSelection): Promise<{ items: ProductData[]; total: number }> {
  const columns = selection ? relationColumns(ctx, selection.relations) : '';
  const { rows, total } = await productPage(ctx, { ...q, columns, categoryId: (ref, parameter) => categoryIdOf(ctx, ref, parameter) });
  const items = rows.map(productRows(ctx.em));
  if (selection) await primePage(ctx, rows, items, selection);
  return { items, total };
}

export async function getProductBySku(ctx: CatalogContext, sku: string): Promise<ProductEntity> {
  const p = await ctx.em.findOne(ProductEntity, { sku, deletedAt: null });
  if (!p) throw new DomainError('PRODUCT_NOT_FOUND', `No product has the SKU "${sku}"`, { parameter: 'sku' });
  return p;
}

async function lockProduct(em: EntityManager, id: string, deleted: boolean | null = false): Promise<ProductEntity> {
  const where = deleted === null ? { id } : { id, deletedAt: deleted ? { $ne: null } : null };
  const p = await em.findOne(ProductEntity, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!p) throw new DomainError('PRODUCT_NOT_FOUND', deleted ? `Product ${id} is not deleted` : `Product ${id} not found`, { parameter: 'id' });
  return p;
}

/** Bundles that list `id` as a component (it must stay a physical product while they do). */
async function bundlesContaining(em: EntityManager, id: string): Promise<string[]> {
  const rows = await em.find(ProductEntity, { type: 'bundle', bundleItems: { $contains: [{ productId: id }] } } as never, { fields: ['id'] });
  return rows.map((r) => r.id);
}

export async function updateProduct(ctx: CatalogContext, id: string, input: UpdateProductInput): Promise<ProductEntity> {
  const values = productValues(input, false);
  return productWrite(ctx, values.sku, async (em, part, events) => {
    const p = await lockProduct(em, id);
    const wasActive = p.status === 'active';
    if (values.type && values.type !== 'physical' && p.type === 'physical') {
      const bundles = await bundlesContaining(em, p.id);
      if (bundles.length) throw new DomainError('BUNDLE_INVALID', `product is a component of bundle ${bundles.join(', ')}; it stays physical while it is`, { parameter: 'type' });
    }
    if (values.sku && values.sku !== p.sku) {
      await releaseSku(em, p.sku, p.id);
      await reserveSku(em, part, values.sku, p.id);
    }
    em.assign(p, values);
    if (values.type && values.type !== 'bundle' && !('bundleItems' in values)) p.bundleItems = null;
    await checkBundle(em, p);
    p.updatedAt = new Date();
    await em.flush();
    if (values.inventoryQuantity !== undefined) await alignDefaultLevel(em, part, { productId: p.id, variantId: null }, values.inventoryQuantity);
    await productEvent(em, part, events, 'product.updated', p);
    if (!wasActive && p.status === 'active') await productEvent(em, part, events, 'product.published', p);
    return p;
  });
}

/**
 * Soft delete (hidden from reads and lists, SKU kept reserved, restorable), or `permanent`: the row,
 * its variants, relations, category assignments and SKUs are gone. A soft-deleted product can be
 * deleted permanently.
 */
export async function deleteProduct(ctx: CatalogContext, id: string, permanent: boolean): Promise<ProductEntity> {
  return productWrite(ctx, undefined, async (em, part, events) => {
    const p = await lockProduct(em, id, permanent ? null : false);
    await productEvent(em, part, events, 'product.deleted', p, { permanent });
    if (permanent) {
      await em.nativeDelete(SkuEntity, { ownerId: p.id });
      await deleteVariantSkus(em, part, p.id);
      await em.nativeDelete(ProductEntity, { id: p.id });
    } else {
      p.deletedAt = new Date();
      await em.flush();
    }
    return p;
  });
}

export async function restoreProduct(ctx: CatalogContext, id: string): Promise<ProductEntity> {
  return productWrite(ctx, undefined, async (em, part, events) => {
    const p = await lockProduct(em, id, true);
    p.deletedAt = null;
    p.updatedAt = new Date();
    await em.flush();
    await productEvent(em, part, events, 'product.updated', p, { restored: true });
    return p;
  });
}
