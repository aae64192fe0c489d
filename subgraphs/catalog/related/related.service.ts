// Related products (cross-sells, up-sells, accessories): PUT replaces the lists it names, GET reads
// them in order. Soft-deleted products drop out of reads; permanent deletes cascade.
import { LockMode } from '@mikro-orm/core';
import { DomainError } from '../../../lib/errors.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { ProductEntity } from '../products/product.entity.js';
import { RELATION_TYPES, ProductRelationEntity, type RelationType } from './related.entity.js';

export const MAX_RELATED = 50;

export type RelatedLists = Partial<Record<RelationType, string[]>>;

export interface RelatedProduct {
  type: RelationType;
  product: ProductEntity;
}

function checkList(type: RelationType, ids: unknown, productId: string): string[] {
  if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string')) throw new DomainError('VALIDATION_FAILED', `${type} must be an array of product ids`, { parameter: type });
  if (ids.length > MAX_RELATED) throw new DomainError('VALIDATION_FAILED', `${type} holds at most ${MAX_RELATED} products`, { parameter: type });
  const unique = [...new Set(ids as string[])];
  if (unique.includes(productId)) throw new DomainError('VALIDATION_FAILED', `a product cannot be related to itself`, { parameter: type });
  return unique;
}

export async function setRelated(ctx: CatalogContext, productId: string, lists: RelatedLists): Promise<RelatedProduct[]> {
  const given = RELATION_TYPES.filter((t) => lists[t] !== undefined && lists[t] !== null);
  if (!given.length) throw new DomainError('VALIDATION_FAILED', `give at least one of ${RELATION_TYPES.join(', ')}`, { parameter: 'data' });
  const checked = Object.fromEntries(given.map((t) => [t, checkList(t, lists[t], productId)])) as Record<RelationType, string[]>;
  const part = await appPartition(ctx);
  await ctx.em.transactional(async (em) => {
    const product = await em.findOne(ProductEntity, { id: productId, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!product) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} not found`, { parameter: 'id' });
    const all = [...new Set(given.flatMap((t) => checked[t]))];
    const found = all.length ? await em.find(ProductEntity, { id: { $in: all }, deletedAt: null }, { fields: ['id'] }) : [];
    for (const t of given) {
      const missing = checked[t].find((id) => !found.some((f) => f.id === id));
      if (missing) throw new DomainError('PRODUCT_NOT_FOUND', `No such product: ${missing}`, { parameter: t });
    }
    await em.nativeDelete(ProductRelationEntity, { productId, type: { $in: given } });
    for (const t of given) {
      checked[t].forEach((relatedId, position) => em.create(ProductRelationEntity, { ...part, productId, type: t, relatedId, position }));
    }
    await em.flush();
  });
  return getRelated(ctx, productId, undefined, MAX_RELATED * RELATION_TYPES.length);
}

export async function getRelated(ctx: CatalogContext, productId: string, type: string | undefined | null, limit: number): Promise<RelatedProduct[]> {
  if (type != null && !(RELATION_TYPES as readonly string[]).includes(type)) {
    throw new DomainError('BAD_REQUEST', `type must be one of ${RELATION_TYPES.join(', ')}`, { parameter: 'type' });
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RELATED * RELATION_TYPES.length) {
    throw new DomainError('BAD_REQUEST', `limit must be an integer from 1 to ${MAX_RELATED * RELATION_TYPES.length}`, { parameter: 'limit' });
  }
  const product = await ctx.loaders.productById.load(productId);
  if (!product) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} not found`, { parameter: 'id' });
  return relatedOf(ctx, [productId], type as RelationType | undefined, limit).then((m) => m.get(productId) ?? []);
}

/** Related products of many products in one statement (get with include=related batches through it). */
export async function relatedOf(ctx: CatalogContext, productIds: string[], type: RelationType | undefined, limitPerProduct: number): Promise<Map<string, RelatedProduct[]>> {
  const rows = await ctx.em.find(
    ProductRelationEntity,
    { productId: { $in: productIds }, ...(type ? { type } : {}) },
    { orderBy: { productId: 'asc', type: 'asc', position: 'asc' } },
  );
  const ids = [...new Set(rows.map((r) => r.relatedId))];
  const live = ids.length ? await ctx.em.find(ProductEntity, { id: { $in: ids }, deletedAt: null }) : [];
  const byId = new Map(live.map((p) => [p.id, p]));
  const out = new Map<string, RelatedProduct[]>();
  for (const r of rows) {
    const p = byId.get(r.relatedId);
    if (!p) continue;
    const list = out.get(r.productId) ?? [];
    if (list.length < limitPerProduct) list.push({ type: r.type, product: p });
    out.set(r.productId, list);
  }
  return out;
}
