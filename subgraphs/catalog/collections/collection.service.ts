// Collections: manual ones hold an ordered product list; automated ones hold rules evaluated in SQL
// on every read (collection.repository.ts). Writes to a manual collection's list run under the
// collection's row lock, so concurrent appends get distinct positions.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from '../../../lib/errors.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import { missingProducts, productsNotFound } from '../categories/category.service.js';
import type { CatalogContext } from '../context.js';
import type { ProductEntity } from '../products/product.entity.js';
import { checkDescription, checkPage, checkSeo, checkSlug, oneOf, requiredText, slugify } from '../request.js';
import { COLLECTION_STATUSES, COLLECTION_TYPES, CollectionEntity, type CollectionStatus } from './collection.entity.js';
import type { CreateCollectionInput, UpdateCollectionInput } from './collection.inputs.js';
import * as repo from './collection.repository.js';
import { parseRules } from './collection.rules.js';

export const MAX_ADD = 500;

export async function getCollection(ctx: CatalogContext, id: string): Promise<CollectionEntity> {
  const c = await ctx.em.findOne(CollectionEntity, { id });
  if (!c) throw new DomainError('COLLECTION_NOT_FOUND', `Collection ${id} not found`, { parameter: 'id' });
  return c;
}

export interface CollectionListQuery {
  page: number;
  pageSize: number;
  type?: string | null;
  status?: string | null;
  /** only collections live now: status active and the present inside [start_date, end_date) */
  activeOnly?: boolean;
}

export async function listCollections(ctx: CatalogContext, q: CollectionListQuery): Promise<{ items: CollectionEntity[]; total: number }> {
  const { page, pageSize } = checkPage(q.page, q.pageSize);
  const where: Record<string, unknown> = {};
  if (q.type) where.type = oneOf(q.type, COLLECTION_TYPES, 'type');
  if (q.status) where.status = oneOf(q.status, COLLECTION_STATUSES, 'status');
  if (q.activeOnly) {
    const now = new Date();
    where.status = 'active';
    where.$and = [{ $or: [{ startDate: null }, { startDate: { $lte: now } }] }, { $or: [{ endDate: null }, { endDate: { $gt: now } }] }];
  }
  const [items, total] = await ctx.em.findAndCount(CollectionEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize });
  return { items, total };
}

function checkWindow(start: Date | null | undefined, end: Date | null | undefined): void {
  if (start && end && !(end.getTime() > start.getTime())) throw new DomainError('VALIDATION_FAILED', 'end_date must be after start_date', { parameter: 'endDate' });
}

async function saving<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw new DomainError('SLUG_ALREADY_EXISTS', 'Another collection of this app has that slug', { parameter: 'slug' });
    throw e;
  }
}

export async function createCollection(ctx: CatalogContext, input: CreateCollectionInput): Promise<CollectionEntity> {
  const part = await appPartition(ctx);
  const name = requiredText(input.name, 'name', 200);
  const slug = input.slug != null ? checkSlug(input.slug.trim()) : slugify(name);
  const type = oneOf(input.type ?? 'manual', COLLECTION_TYPES, 'type');
  const status = oneOf(input.status ?? 'active', COLLECTION_STATUSES, 'status') as CollectionStatus;
  checkWindow(input.startDate, input.endDate);
  let rules = null;
  if (type === 'automated') {
    if (input.rules == null) throw new DomainError('VALIDATION_FAILED', 'an automated collection needs rules { match, conditions }', { parameter: 'rules' });
    rules = parseRules(input.rules);
  } else if (input.rules != null) {
    throw new DomainError('VALIDATION_FAILED', 'a manual collection has no rules (its products are added with POST /collections/:id/products)', { parameter: 'rules' });
  }
  const c = ctx.em.create(CollectionEntity, {
    ...part,
    name,
    slug,
    description: checkDescription(input.description) ?? null,
    type,
    status,
    startDate: input.startDate ?? null,
    endDate: input.endDate ?? null,
    rules,
    seo: checkSeo(input.seo) ?? null,
  });
  await saving(() => ctx.em.flush());
  return c;
}

export async function updateCollection(ctx: CatalogContext, id: string, input: UpdateCollectionInput): Promise<CollectionEntity> {
  const c = await getCollection(ctx, id);
  if (input.name != null) c.name = requiredText(input.name, 'name', 200);
  if (input.slug != null) c.slug = checkSlug(input.slug.trim());
  if (input.description !== undefined) c.description = checkDescription(input.description) ?? null;
  if (input.status != null) c.status = oneOf(input.status, COLLECTION_STATUSES, 'status');
  if (input.startDate !== undefined) c.startDate = input.startDate;
  if (input.endDate !== undefined) c.endDate = input.endDate;
  checkWindow(c.startDate, c.endDate);
  if (input.rules !== undefined) {
    if (c.type === 'manual') throw new DomainError('VALIDATION_FAILED', 'a manual collection has no rules', { parameter: 'rules' });
    if (input.rules === null) throw new DomainError('VALIDATION_FAILED', 'an automated collection needs rules', { parameter: 'rules' });
    c.rules = parseRules(input.rules);
  }
  if (input.seo !== undefined) c.seo = checkSeo(input.seo) ?? null;
  await saving(() => ctx.em.flush());
  return c;
}

/** Delete a collection; its product list goes with it, the products stay. */
export async function deleteCollection(ctx: CatalogContext, id: string): Promise<CollectionEntity> {
  const c = await getCollection(ctx, id);
  await ctx.em.remove(c).flush();
  return c;
}

export function checkSort(sort: string | null | undefined, c: CollectionEntity): repo.CollectionSort {
  const s = sort || (c.type === 'manual' ? 'position' : '-created_at');
  const v = oneOf(s, repo.COLLECTION_SORTS, 'sort');
  if (v === 'position' && c.type !== 'manual') throw new DomainError('BAD_REQUEST', 'sort=position applies to manual collections only', { parameter: 'sort' });
  return v;
}

/** GET /collections/:id/products: the collection's live products, paged. */
export async function collectionProducts(
  ctx: CatalogContext,
  id: string,
  q: { page: number; pageSize: number; sort?: string | null },
): Promise<{ items: ProductEntity[]; total: number }> {
  const { page, pageSize } = checkPage(q.page, q.pageSize);
  const c = await getCollection(ctx, id);
  return repo.memberPage(ctx.em, await appPartition(ctx), c, { page, pageSize, sort: checkSort(q.sort, c) });
}

/**
 * POST /collections/:id/products: append products to a manual collection, in the order given.
 * All or nothing (one unknown id → PRODUCT_NOT_FOUND naming product_ids); members stay in place.
 */
export async function addProducts(ctx: CatalogContext, id: string, productIds: string[]): Promise<{ collection: CollectionEntity; added: number }> {
  if (!Array.isArray(productIds) || productIds.length === 0) throw new DomainError('VALIDATION_FAILED', 'product_ids must be a non-empty array of product ids', { parameter: 'productIds' });
  if (productIds.length > MAX_ADD) throw new DomainError('VALIDATION_FAILED', `at most ${MAX_ADD} product ids per call`, { parameter: 'productIds' });
  const ids = [...new Set(productIds)];
  const part = await appPartition(ctx);
  return ctx.em.transactional(async (em) => {
    const c = await em.findOne(CollectionEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!c) throw new DomainError('COLLECTION_NOT_FOUND', `Collection ${id} not found`, { parameter: 'id' });
    if (c.type !== 'manual') throw new DomainError('VALIDATION_FAILED', 'an automated collection takes its products from its rules', { parameter: 'productIds' });
    const missing = await missingProducts(em, ids);
    if (missing.length) throw productsNotFound(missing);
    return { collection: c, added: await repo.appendMembers(em, part, c.id, ids) };
  });
}

/** DELETE /collections/:id/products/:product_id (manual collections). */
export async function removeProduct(ctx: CatalogContext, id: string, productId: string): Promise<CollectionEntity> {
  const part = await appPartition(ctx);
  return ctx.em.transactional(async (em) => {
    const c = await em.findOne(CollectionEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!c) throw new DomainError('COLLECTION_NOT_FOUND', `Collection ${id} not found`, { parameter: 'id' });
    if (c.type !== 'manual') throw new DomainError('VALIDATION_FAILED', 'an automated collection takes its products from its rules', { parameter: 'productId' });
    if (!(await repo.removeMember(em, part, c.id, productId))) {
      throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} is not in collection ${id}`, { parameter: 'productId' });
    }
    return c;
  });
}
