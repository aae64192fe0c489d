// Categories: a tree per app partition. Every change to the tree's shape (create, move, reorder,
// delete) runs in one transaction holding the partition's advisory lock, so two concurrent moves
// can never build a cycle and sibling positions stay dense (0, 1, 2, ...).
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import type { CatalogContext } from '../context.js';
import { ProductEntity } from '../products/product.entity.js';
import { appPartition, type AppPartition } from '../../../lib/tenant-entity.js';
import { checkDescription, checkPage, checkSeo, checkSlug, requiredText, slugify } from '../request.js';
import { lockPartition } from '../sql.js';
import { enqueueProductIndexing } from '../products/product.indexing-queue.js';
import { EventLog } from '../events/catalog.events.js';
import { CategoryEntity, ProductCategoryEntity } from './category.entity.js';
import type { CreateCategoryInput, UpdateCategoryInput } from './category.inputs.js';
import * as repo from './category.repository.js';

export const MAX_POSITION = 1_000_000;
export const MAX_ASSIGN = 500;

export async function getCategory(ctx: CatalogContext, id: string, parameter = 'id'): Promise<CategoryEntity> {
  const c = await ctx.em.findOne(CategoryEntity, { id });
  if (!c) throw new DomainError('CATEGORY_NOT_FOUND', `Category ${id} not found`, { parameter });
  return c;
}

export async function getCategoryBySlug(ctx: CatalogContext, slug: string): Promise<CategoryEntity> {
  const c = await ctx.em.findOne(CategoryEntity, { slug });
  if (!c) throw new DomainError('CATEGORY_NOT_FOUND', `No category has the slug "${slug}"`, { parameter: 'slug' });
  return c;
}

export interface CategoryListQuery {
  /** undefined: every category; null: roots only; an id: that category's children */
  parentId?: string | null;
  page: number;
  pageSize: number;
}

export async function listCategories(ctx: CatalogContext, q: CategoryListQuery): Promise<{ items: CategoryEntity[]; total: number }> {
  const { page, pageSize } = checkPage(q.page, q.pageSize);
  const where = q.parentId === undefined ? {} : { parentId: q.parentId };
  const [items, total] = await ctx.em.findAndCount(CategoryEntity, where, {
    orderBy: { position: 'asc', createdAt: 'asc', id: 'asc' },
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return { items, total };
}

/** The whole tree (or the subtree under rootId), depth-first, in one statement. */
export async function categoryTree(ctx: CatalogContext, rootId?: string): Promise<repo.TreeRow[]> {
  if (rootId) await getCategory(ctx, rootId, 'rootId');
  return repo.loadTree(ctx.em, await appPartition(ctx), rootId);
}

function checkPosition(p: number | undefined): number | undefined {
  if (p === undefined || p === null) return undefined;
  if (!Number.isInteger(p) || p < 0 || p > MAX_POSITION) throw new DomainError('VALIDATION_FAILED', `position must be an integer from 0 to ${MAX_POSITION}`, { parameter: 'position' });
  return p;
}

async function requireParent(em: EntityManager, parentId: string): Promise<void> {
  if (!(await em.findOne(CategoryEntity, { id: parentId }))) {
    throw new DomainError('CATEGORY_NOT_FOUND', `Parent category ${parentId} not found`, { parameter: 'parentId' });
  }
}

/**
 * Runs a tree change under the partition lock; a duplicate slug becomes SLUG_ALREADY_EXISTS. The
 * events it records reach the webhook outbox in the same transaction (category events are not on
 * the productEvents subscription).
 */
async function treeChange<T>(ctx: CatalogContext, fn: (em: EntityManager, part: AppPartition, events: EventLog) => Promise<T>): Promise<T> {
  const part = await appPartition(ctx);
  const events = new EventLog(ctx.runtime.webhooks.outbox);
  let result: T;
  try {
    result = await ctx.em.transactional(async (em) => {
      await lockPartition(em, 'categories', part.appId, part.environment);
      return fn(em, part, events);
    });
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw new DomainError('SLUG_ALREADY_EXISTS', 'Another category of this app has that slug', { parameter: 'slug' });
    throw e;
  }
  if (events.recorded.length) ctx.runtime.webhooks.kick();
  return result;
}

/** `category.updated` data: the category as it is after the change, and what changed. */
function categoryEventData(c: CategoryEntity, change: Record<string, unknown>): Record<string, unknown> {
  return { id: c.id, name: c.name, slug: c.slug, parent_id: c.parentId ?? null, position: c.position, ...change };
}

/**
 * Re-index the products of a category whose indexed fields changed (its name is in every product's
 * search document): one job per 1,000 products, in the change's transaction.
 */
async function reindexCategoryProducts(em: EntityManager, part: AppPartition, categoryId: string): Promise<void> {
  const ids = await repo.productIdsOf(em, part, categoryId);
  for (let i = 0; i < ids.length; i += 1000) await enqueueProductIndexing(em, part, ids.slice(i, i + 1000));
}

export async function createCategory(ctx: CatalogContext, input: CreateCategoryInput): Promise<CategoryEntity> {
  const name = requiredText(input.name, 'name', 200);
  const slug = input.slug != null ? checkSlug(input.slug.trim()) : slugify(name);
  const description = checkDescription(input.description);
  const seo = checkSeo(input.seo);
  const wanted = checkPosition(input.position);
  const parentId = input.parentId ?? null;
  return treeChange(ctx, async (em, part) => {
    if (parentId) await requireParent(em, parentId);
    const next = await repo.nextPosition(em, part, parentId);
    const position = Math.min(wanted ?? next, next);
    if (position < next) await repo.shiftSiblings(em, part, parentId, position, 1);
    const c = em.create(CategoryEntity, { ...part, name, slug, description, parentId, position, seo, metadata: input.metadata ?? null });
    await em.flush();
    return c;
  });
}

export async function updateCategory(ctx: CatalogContext, id: string, input: UpdateCategoryInput): Promise<CategoryEntity> {
  const name = input.name != null ? requiredText(input.name, 'name', 200) : undefined;
  const slug = input.slug != null ? checkSlug(input.slug.trim()) : undefined;
  const description = checkDescription(input.description);
  const seo = checkSeo(input.seo);
  const wanted = checkPosition(input.position);
  return treeChange(ctx, async (em, part, events) => {
    const c = await em.findOne(CategoryEntity, { id });
    if (!c) throw new DomainError('CATEGORY_NOT_FOUND', `Category ${id} not found`, { parameter: 'id' });
    const before = { name: c.name, slug: c.slug, description: c.description ?? null, parentId: c.parentId ?? null, position: c.position };
    const oldParent = c.parentId ?? null;
    const newParent = input.parentId === undefined ? oldParent : input.parentId;
    if (newParent !== oldParent && newParent !== null) {
      await requireParent(em, newParent);
      if (await repo.isSelfOrDescendant(em, part, c.id, newParent)) {
        throw new DomainError('VALIDATION_FAILED', 'A category cannot move under itself or one of its descendants', { parameter: 'parentId' });
      }
    }
    if (newParent !== oldParent || (wanted !== undefined && wanted !== c.position)) {
      await repo.shiftSiblings(em, part, oldParent, c.position + 1, -1, c.id);
      const next = await repo.nextPosition(em, part, newParent, c.id);
      const position = Math.min(wanted ?? next, next);
      await repo.shiftSiblings(em, part, newParent, position, 1, c.id);
      c.parentId = newParent;
      c.position = position;
    }
    if (name !== undefined) c.name = name;
    if (slug !== undefined) c.slug = slug;
    if (description !== undefined) c.description = description;
    if (seo !== undefined) c.seo = seo;
    if (input.metadata !== undefined) c.metadata = input.metadata;
    c.updatedAt = new Date();
    await em.flush();
    const changed = (Object.keys(before) as (keyof typeof before)[]).filter((k) => before[k] !== (c[k] ?? null));
    if (input.seo !== undefined) changed.push('seo' as never);
    if (input.metadata !== undefined) changed.push('metadata' as never);
    if (before.name !== c.name) await reindexCategoryProducts(em, part, c.id);
    await events.record(em, part, 'category.updated', categoryEventData(c, { changes: changed.map(snake) }));
    return c;
  });
}

function snake(k: string): string {
  return k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
}

/** Delete a leaf category (its product assignments go with it); one with children → 409 CONFLICT. */
export async function deleteCategory(ctx: CatalogContext, id: string): Promise<CategoryEntity> {
  return treeChange(ctx, async (em, part, events) => {
    const c = await em.findOne(CategoryEntity, { id });
    if (!c) throw new DomainError('CATEGORY_NOT_FOUND', `Category ${id} not found`, { parameter: 'id' });
    if (await repo.hasChildren(em, part, id)) {
      throw new DomainError('CONFLICT', `Category ${id} has subcategories: move or delete them first`, { parameter: 'id' });
    }
    // its products lose the category from their search documents
    await reindexCategoryProducts(em, part, c.id);
    em.remove(c);
    await em.flush();
    await repo.shiftSiblings(em, part, c.parentId ?? null, c.position + 1, -1);
    await events.record(em, part, 'category.updated', categoryEventData(c, { deleted: true, changes: ['deleted'] }));
    return c;
  });
}

function checkProductIds(ids: string[]): string[] {
  if (!Array.isArray(ids) || ids.length === 0) throw new DomainError('VALIDATION_FAILED', 'product_ids must be a non-empty array of product ids', { parameter: 'productIds' });
  if (ids.length > MAX_ASSIGN) throw new DomainError('VALIDATION_FAILED', `at most ${MAX_ASSIGN} product ids per call`, { parameter: 'productIds' });
  ids.forEach((v, i) => {
    if (typeof v !== 'string' || !v.trim()) throw new DomainError('VALIDATION_FAILED', 'product ids must be non-empty strings', { parameter: `productIds[${i}]` });
  });
  return [...new Set(ids)];
}

/** The ids among `ids` that name no live product of the app (one statement). */
export async function missingProducts(em: EntityManager, ids: string[]): Promise<string[]> {
  const found = await em.find(ProductEntity, { id: { $in: ids }, deletedAt: null }, { fields: ['id'] });
  const have = new Set(found.map((p) => p.id));
  return ids.filter((id) => !have.has(id));
}

export function productsNotFound(missing: string[]): DomainError {
  const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? `, and ${missing.length - 5} more` : '');
  return new DomainError('PRODUCT_NOT_FOUND', `No such product: ${shown}`, { parameter: 'productIds', meta: { missing } });
}

/**
 * Assign products to a category (POST /categories/:id/products). All or nothing: one unknown or
 * deleted product id → PRODUCT_NOT_FOUND naming product_ids and nothing assigned. Products already
 * in the category stay (idempotent).
 */
export async function assignProducts(ctx: CatalogContext, id: string, productIds: string[]): Promise<{ category: CategoryEntity; added: number }> {
  const ids = checkProductIds(productIds);
  const part = await appPartition(ctx);
  const category = await getCategory(ctx, id);
  const missing = await missingProducts(ctx.em, ids);
  if (missing.length) throw productsNotFound(missing);
  // the assignment and the search re-indexing of its products commit together
  const events = new EventLog(ctx.runtime.webhooks.outbox);
  const added = await ctx.em.transactional(async (em) => {
    const n = await repo.insertAssignments(em, part, category.id, ids);
    await enqueueProductIndexing(em, part, ids);
    if (n > 0) await events.record(em, part, 'category.updated', categoryEventData(category, { changes: ['products'], products_added: ids }));
    return n;
  });
  if (events.recorded.length) ctx.runtime.webhooks.kick();
  return { category, added };
}

/** Remove one product from a category; PRODUCT_NOT_FOUND when it is not in it. */
export async function unassignProduct(ctx: CatalogContext, id: string, productId: string): Promise<CategoryEntity> {
  const category = await getCategory(ctx, id);
  const part = await appPartition(ctx);
  const events = new EventLog(ctx.runtime.webhooks.outbox);
  await ctx.em.transactional(async (em) => {
    const n = await em.nativeDelete(ProductCategoryEntity, { categoryId: category.id, productId });
    if (n === 0) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} is not in category ${id}`, { parameter: 'productId' });
    await enqueueProductIndexing(em, part, [productId]);
    await events.record(em, part, 'category.updated', categoryEventData(category, { changes: ['products'], products_removed: [productId] }));
  });
  ctx.runtime.webhooks.kick();
  return category;
}
