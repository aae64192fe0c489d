// Variants and options of a product. Variant SKUs live in the product SKU namespace (the shared
// registry), options are checked against the product's (INVALID_OPTION_VALUES naming the option),
// and two variants of a product cannot have the same option combination.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { productWrite, releaseSku, reserveSku } from '../products/product.service.js';
import { checkSku } from '../products/product.checks.js';
import { ProductEntity, type ProductOption } from '../products/product.entity.js';
import { checkOptions, checkVariantOptions, checkWeight } from '../products/product.rules.js';
import type { EventLog } from '../events/catalog.events.js';
import { requiredText } from '../request.js';
import { MODIFIER_TYPES, VariantEntity, type ModifierType } from './variant.entity.js';
import type { CreateVariantInput, PriceModifierInput, UpdateVariantInput } from './variant.inputs.js';
import { alignDefaultLevel } from '../inventory/inventory.levels.js';

export const MAX_VARIANTS = 100;

async function lockLiveProduct(em: EntityManager, id: string): Promise<ProductEntity> {
  const p = await em.findOne(ProductEntity, { id, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!p) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${id} not found`, { parameter: 'productId' });
  return p;
}

function checkModifier(m: PriceModifierInput | null | undefined): { priceModifierType: ModifierType | null; priceModifierAmount: number | null } | undefined {
  if (m === undefined) return undefined;
  if (m === null) return { priceModifierType: null, priceModifierAmount: null };
  if (!(MODIFIER_TYPES as readonly string[]).includes(m.type)) throw new DomainError('VALIDATION_FAILED', `price_modifier.type must be one of ${MODIFIER_TYPES.join(', ')}`, { parameter: 'priceModifier.type' });
  if (!Number.isSafeInteger(m.amount) || (m.type === 'percentage' && (m.amount < -100 || m.amount > 1000))) {
    throw new DomainError('INVALID_PRICE', m.type === 'percentage' ? 'price_modifier.amount must be a whole percent from -100 to 1000' : 'price_modifier.amount must be an integer in minor units', { parameter: 'priceModifier.amount' });
  }
  return { priceModifierType: m.type as ModifierType, priceModifierAmount: m.amount };
}

function checkPosition(p: number | null | undefined): number | undefined {
  if (p == null) return undefined;
  if (!Number.isInteger(p) || p < 0 || p > 10_000) throw new DomainError('VALIDATION_FAILED', 'position must be an integer from 0 to 10000', { parameter: 'position' });
  return p;
}

function checkQuantity(q: number | null | undefined): number | undefined {
  if (q == null) return undefined;
  if (!Number.isSafeInteger(q) || q < 0) throw new DomainError('VALIDATION_FAILED', 'inventory.quantity must be an integer >= 0', { parameter: 'inventory.quantity' });
  return q;
}

function sameCombination(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

async function refuseDuplicateCombination(em: EntityManager, productId: string, options: Record<string, string>, exceptId?: string): Promise<void> {
  const siblings = await em.find(VariantEntity, { productId });
  const clash = siblings.find((s) => s.id !== exceptId && sameCombination(s.options, options));
  if (clash) {
    const first = Object.keys(options)[0];
    throw new DomainError('INVALID_OPTION_VALUES', `variant ${clash.id} already has these option values`, { parameter: first ? `options.${first}` : 'options' });
  }
}

async function variantEvent(em: EntityManager, part: AppPartition, events: EventLog, event: 'variant.created' | 'variant.updated', v: VariantEntity): Promise<void> {
  await events.record(em, part, event, { id: v.id, product_id: v.productId, sku: v.sku, name: v.name, options: v.options }, v.productId);
}

export async function createVariant(ctx: CatalogContext, productId: string, input: CreateVariantInput): Promise<VariantEntity> {
  const sku = checkSku(input.sku);
  const modifier = checkModifier(input.priceModifier);
  const weight = checkWeight(input.weight);
  const position = checkPosition(input.position);
  const quantity = checkQuantity(input.inventory?.quantity);
  if (input.options === null || typeof input.options !== 'object' || Array.isArray(input.options)) {
    throw new DomainError('INVALID_OPTION_VALUES', 'options must be an object of option name → value', { parameter: 'options' });
  }
  return productWrite(ctx, sku, async (em, part, events) => {
    const product = await lockLiveProduct(em, productId);
    const options = checkVariantOptions(product.options ?? [], input.options);
    await refuseDuplicateCombination(em, product.id, options);
    const count = await em.count(VariantEntity, { productId: product.id });
    if (count >= MAX_VARIANTS) throw new DomainError('VALIDATION_FAILED', `a product has at most ${MAX_VARIANTS} variants`, { parameter: 'productId' });
    const name = input.name != null ? requiredText(input.name, 'name', 500) : Object.values(options).join(' / ') || product.name;
    const v = em.create(VariantEntity, {
      ...part,
      productId: product.id,
      name,
      sku,
      options,
      ...(modifier ?? {}),
      inventoryQuantity: quantity ?? 0,
      trackStock: input.inventory?.trackStock ?? true,
      weight: weight ?? null,
      position: position ?? count,
    });
    await reserveSku(em, part, sku, v.id);
    await em.flush();
    await variantEvent(em, part, events, 'variant.created', v);
    return v;
  });
}

export async function listVariants(ctx: CatalogContext, productId: string): Promise<VariantEntity[]> {
  const product = await ctx.loaders.productById.load(productId);
  if (!product) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${productId} not found`, { parameter: 'productId' });
  return ctx.em.find(VariantEntity, { productId }, { orderBy: { position: 'asc', createdAt: 'asc' } });
}

async function lockVariant(em: EntityManager, productId: string, variantId: string): Promise<{ product: ProductEntity; variant: VariantEntity }> {
  const product = await lockLiveProduct(em, productId);
  const variant = await em.findOne(VariantEntity, { id: variantId, productId });
  if (!variant) throw new DomainError('VARIANT_NOT_FOUND', `Variant ${variantId} not found on product ${productId}`, { parameter: 'variantId' });
  return { product, variant };
}

export async function updateVariant(ctx: CatalogContext, productId: string, variantId: string, input: UpdateVariantInput): Promise<VariantEntity> {
  const sku = input.sku != null ? checkSku(input.sku) : undefined;
  const modifier = checkModifier(input.priceModifier);
  const position = checkPosition(input.position);
  const quantity = checkQuantity(input.inventory?.quantity);
  return productWrite(ctx, sku, async (em, part, events) => {
    const { product, variant } = await lockVariant(em, productId, variantId);
    if (input.options != null) {
      const options = checkVariantOptions(product.options ?? [], input.options);
      await refuseDuplicateCombination(em, product.id, options, variant.id);
      variant.options = options;
    }
    if (input.name != null) variant.name = requiredText(input.name, 'name', 500);
    if (sku && sku !== variant.sku) {
      await releaseSku(em, variant.sku, variant.id);
      await reserveSku(em, part, sku, variant.id);
      variant.sku = sku;
    }
    if (modifier) Object.assign(variant, modifier);
    if (input.weight !== undefined) variant.weight = checkWeight(input.weight) ?? null;
    if (position !== undefined) variant.position = position;
    if (quantity !== undefined) variant.inventoryQuantity = quantity;
    if (input.inventory?.trackStock != null) variant.trackStock = input.inventory.trackStock;
    variant.updatedAt = new Date();
    await em.flush();
    if (quantity !== undefined) await alignDefaultLevel(em, part, { productId: product.id, variantId: variant.id }, quantity);
    await variantEvent(em, part, events, 'variant.updated', variant);
    return variant;
  });
}

export async function deleteVariant(ctx: CatalogContext, productId: string, variantId: string): Promise<VariantEntity> {
  return productWrite(ctx, undefined, async (em, part, events) => {
    const { variant } = await lockVariant(em, productId, variantId);
    await releaseSku(em, variant.sku, variant.id);
    await em.nativeDelete(VariantEntity, { id: variant.id });
    await variantEvent(em, part, events, 'variant.updated', variant);
    return variant;
  });
}

/**
 * Replace the product's options (PUT /options). Existing variants must still match: a value or an
 * option they use cannot disappear (INVALID_OPTION_VALUES naming it), as Shopify refuses removing
 * an option value that variants use.
 */
export async function setOptions(ctx: CatalogContext, productId: string, options: ProductOption[]): Promise<ProductEntity> {
  const checked = checkOptions(options);
  return productWrite(ctx, undefined, async (em, part, events) => {
    const product = await lockLiveProduct(em, productId);
    const variants = await em.find(VariantEntity, { productId: product.id });
    for (const v of variants) {
      try {
        checkVariantOptions(checked, v.options);
      } catch (e) {
        if (e instanceof DomainError) throw new DomainError('INVALID_OPTION_VALUES', `variant ${v.id} (${v.sku}) would no longer match: ${e.message}`, { parameter: 'options' });
        throw e;
      }
    }
    product.options = checked;
    product.updatedAt = new Date();
    await em.flush();
    await events.record(em, part, 'product.updated', { id: product.id, sku: product.sku, name: product.name, options: checked }, product.id);
    return product;
  });
}
