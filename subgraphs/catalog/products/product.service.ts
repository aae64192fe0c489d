// One service per aggregate; every method takes the request context first.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from '../../../lib/errors.js';
import { topics, type ProductEventName, type ProductEventPayload } from '../../../lib/events.js';
import type { CatalogContext } from '../context.js';
import { PRODUCT_STATUSES, PRODUCT_TYPES, ProductEntity, type ProductKind, type ProductStatus } from './product.entity.js';
import type { CreateProductInput } from './product.inputs.js';
import { appPartition } from '../../../lib/tenant-entity.js';

export const MAX_PAGE_SIZE = 100;

export async function createProduct(ctx: CatalogContext, input: CreateProductInput): Promise<ProductEntity> {
  const { appId, environment } = await appPartition(ctx);
  const name = input.name?.trim();
  if (!name) throw new DomainError('VALIDATION_FAILED', 'name must not be empty', { parameter: 'name' });
  if (name.length > 500) throw new DomainError('VALIDATION_FAILED', 'name is longer than 500 characters', { parameter: 'name' });
  const sku = input.sku?.trim();
  if (!sku) throw new DomainError('VALIDATION_FAILED', 'sku must not be empty', { parameter: 'sku' });
  if (sku.length > 200) throw new DomainError('VALIDATION_FAILED', 'sku is longer than 200 characters', { parameter: 'sku' });
  const status = oneOf(input.status ?? 'draft', PRODUCT_STATUSES, 'status') as ProductStatus;
  const type = oneOf(input.type ?? 'physical', PRODUCT_TYPES, 'type') as ProductKind;
  if (input.price) {
    const { amount, currency, compareAt } = input.price;
    if (!Number.isSafeInteger(amount) || amount < 0) throw new DomainError('INVALID_PRICE', 'price.amount must be a non-negative integer in cents', { parameter: 'price.amount' });
    if (!/^[A-Z]{3}$/.test(currency)) throw new DomainError('INVALID_PRICE', 'price.currency must be an ISO 4217 code such as USD', { parameter: 'price.currency' });
    if (compareAt != null && (!Number.isSafeInteger(compareAt) || compareAt < 0)) throw new DomainError('INVALID_PRICE', 'price.compare_at must be a non-negative integer in cents', { parameter: 'price.compare_at' });
  }
  const product = ctx.em.create(ProductEntity, {
    appId,
    environment,
    name,
    sku,
    description: input.description,
    status,
    type,
    priceAmount: input.price?.amount,
    priceCurrency: input.price?.currency,
    compareAtAmount: input.price?.compareAt ?? undefined,
    attributes: input.attributes,
    metadata: input.metadata,
  });
  try {
    await ctx.em.flush();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) {
      throw new DomainError('SKU_ALREADY_EXISTS', `SKU "${sku}" is already in use`, { parameter: 'sku' });
    }
    throw e;
  }
  // After commit: the flush above has committed, so subscribers never see an event for a rolled-back row.
  await publish(ctx, 'product.created', product);
  if (product.status === 'active') await publish(ctx, 'product.published', product);
  return product;
}

export async function getProduct(ctx: CatalogContext, id: string): Promise<ProductEntity> {
  const p = await ctx.loaders.productById.load(id);
  if (!p) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${id} not found`, { parameter: 'id' });
  return p;
}

export async function listProducts(ctx: CatalogContext, page = 1, pageSize = 20): Promise<{ items: ProductEntity[]; total: number }> {
  if (!Number.isInteger(page) || page < 1) throw new DomainError('BAD_REQUEST', 'page[number] must be an integer >= 1', { parameter: 'page[number]' });
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new DomainError('BAD_REQUEST', `page[size] must be an integer from 1 to ${MAX_PAGE_SIZE}`, { parameter: 'page[size]' });
  }
  const [items, total] = await ctx.em.findAndCount(
    ProductEntity,
    { deletedAt: null },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize },
  );
  return { items, total };
}


function oneOf(value: string, allowed: readonly string[], parameter: string): string {
  if (!allowed.includes(value)) throw new DomainError('VALIDATION_FAILED', `${parameter} must be one of ${allowed.join(', ')}`, { parameter });
  return value;
}

async function publish(ctx: CatalogContext, event: ProductEventName, p: ProductEntity): Promise<void> {
  const payload: ProductEventPayload = { event, occurredAt: new Date().toISOString(), productId: p.id };
  await ctx.pubsub.publish(topics.productEvents(p.appId, p.environment), payload);
}
