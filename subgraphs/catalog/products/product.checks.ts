// Validation of product inputs into row values (create and PATCH share it). Pure apart from the
// bundle components, which are looked up in the caller's transaction.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { requiredText } from '../request.js';
import { BUNDLE_PRICINGS, PRODUCT_STATUSES, PRODUCT_TYPES, ProductEntity, type BundleItem, type ProductKind, type ProductStatus } from './product.entity.js';
import type { CostInput, CreateProductInput, InventoryInput, MoneyInput, UpdateProductInput } from './product.inputs.js';
import { checkAmount, checkBundleItemShape, checkCurrencyCode, checkDimensions, checkSeo, checkWeight } from './product.rules.js';

export type ProductValues = Partial<
  Pick<
    ProductEntity,
    | 'name' | 'sku' | 'description' | 'shortDescription' | 'status' | 'type' | 'priceAmount' | 'priceCurrency' | 'compareAtAmount'
    | 'costAmount' | 'costCurrency' | 'inventoryQuantity' | 'trackStock' | 'allowBackorder' | 'lowStockThreshold' | 'weight'
    | 'dimensions' | 'attributes' | 'seo' | 'metadata' | 'bundleItems' | 'bundlePricing'
  >
>;

export const MAX_TEXT = 10_000;

function oneOf<T extends string>(value: string, allowed: readonly T[], parameter: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new DomainError('VALIDATION_FAILED', `${parameter} must be one of ${allowed.join(', ')}`, { parameter });
  return value as T;
}

function optionalText(v: string | null | undefined, parameter: string, max = MAX_TEXT): string | null | undefined {
  if (typeof v === 'string' && v.length > max) throw new DomainError('VALIDATION_FAILED', `${parameter} is longer than ${max} characters`, { parameter });
  return v;
}

function nonNegativeInt(v: number | null | undefined, parameter: string): number | null | undefined {
  if (v == null) return v;
  if (!Number.isSafeInteger(v) || v < 0) throw new DomainError('VALIDATION_FAILED', `${parameter} must be an integer >= 0`, { parameter });
  return v;
}

export function checkSku(sku: string | null | undefined, parameter = 'sku'): string {
  const v = requiredText(sku, parameter, 200);
  if (/[\s]/.test(v)) throw new DomainError('VALIDATION_FAILED', `${parameter} must not contain spaces`, { parameter });
  return v;
}

function priceValues(p: MoneyInput | null): ProductValues {
  if (p === null) return { priceAmount: null, priceCurrency: null, compareAtAmount: null };
  const compareAt = p.compareAt == null ? null : checkAmount(p.compareAt, 'price.compare_at');
  return { priceAmount: checkAmount(p.amount, 'price.amount'), priceCurrency: checkCurrencyCode(p.currency, 'price.currency'), compareAtAmount: compareAt };
}

function costValues(c: CostInput | null): ProductValues {
  if (c === null) return { costAmount: null, costCurrency: null };
  return { costAmount: checkAmount(c.amount, 'cost.amount'), costCurrency: checkCurrencyCode(c.currency, 'cost.currency') };
}

function inventoryValues(i: InventoryInput): ProductValues {
  const out: ProductValues = {};
  const q = nonNegativeInt(i.quantity, 'inventory.quantity');
  if (q != null) out.inventoryQuantity = q;
  if (i.trackStock != null) out.trackStock = i.trackStock;
  if (i.allowBackorder != null) out.allowBackorder = i.allowBackorder;
  if (i.lowStockThreshold !== undefined) out.lowStockThreshold = nonNegativeInt(i.lowStockThreshold, 'inventory.low_stock_threshold');
  return out;
}

function has<K extends string>(o: object, k: K): boolean {
  return Object.prototype.hasOwnProperty.call(o, k) && (o as Record<string, unknown>)[k] !== undefined;
}

/** The row values of a create or a PATCH: only what the input carries (null clears). */
export function productValues(input: CreateProductInput | UpdateProductInput, creating: boolean): ProductValues {
  const v: ProductValues = {};
  if (creating || has(input, 'name')) v.name = requiredText(input.name, 'name', 500);
  if (creating || has(input, 'sku')) v.sku = checkSku(input.sku);
  if (has(input, 'description')) v.description = optionalText(input.description, 'description');
  if (has(input, 'shortDescription')) v.shortDescription = optionalText(input.shortDescription, 'shortDescription', 1000);
  if (input.status != null) v.status = oneOf<ProductStatus>(input.status, PRODUCT_STATUSES, 'status');
  else if (has(input, 'status')) throw new DomainError('VALIDATION_FAILED', 'status cannot be null', { parameter: 'status' });
  if (input.type != null) v.type = oneOf<ProductKind>(input.type, PRODUCT_TYPES, 'type');
  else if (has(input, 'type')) throw new DomainError('VALIDATION_FAILED', 'type cannot be null', { parameter: 'type' });
  if (has(input, 'price')) Object.assign(v, priceValues(input.price ?? null));
  if (has(input, 'cost')) Object.assign(v, costValues(input.cost ?? null));
  if (input.inventory) Object.assign(v, inventoryValues(input.inventory));
  if (has(input, 'weight')) v.weight = checkWeight(input.weight);
  if (has(input, 'dimensions')) v.dimensions = checkDimensions(input.dimensions);
  if (has(input, 'attributes')) v.attributes = input.attributes;
  if (has(input, 'seo')) v.seo = checkSeo(input.seo as never);
  if (has(input, 'metadata')) v.metadata = input.metadata;
  if (has(input, 'bundleItems')) v.bundleItems = input.bundleItems ? checkBundleItemShape(input.bundleItems) : null;
  if (input.bundlePricing != null) v.bundlePricing = oneOf(input.bundlePricing, BUNDLE_PRICINGS, 'bundlePricing');
  return v;
}

/**
 * A bundle's final shape: type bundle needs items, other types take none; every component a live,
 * physical product of the app other than the bundle itself (no nesting, so no cycle can form).
 * BUNDLE_INVALID naming the item otherwise.
 */
export async function checkBundle(em: EntityManager, p: { id: string; type: ProductKind; bundleItems?: BundleItem[] | null }): Promise<void> {
  if (p.type !== 'bundle') {
    if (p.bundleItems?.length) throw new DomainError('BUNDLE_INVALID', 'bundle_items are only for products of type bundle', { parameter: 'bundleItems' });
    return;
  }
  const items = p.bundleItems ?? [];
  if (!items.length) throw new DomainError('BUNDLE_INVALID', 'a bundle needs bundle_items', { parameter: 'bundleItems' });
  const found = await em.find(ProductEntity, { id: { $in: items.map((i) => i.productId) }, deletedAt: null }, { fields: ['id', 'type'] });
  items.forEach((it, i) => {
    const parameter = `bundle_items[${i}].product_id`;
    if (it.productId === p.id) throw new DomainError('BUNDLE_INVALID', 'a bundle cannot contain itself', { parameter });
    const c = found.find((f) => f.id === it.productId);
    if (!c) throw new DomainError('BUNDLE_INVALID', `product ${it.productId} does not exist`, { parameter });
    if (c.type === 'bundle') throw new DomainError('BUNDLE_INVALID', `product ${it.productId} is a bundle; bundles do not nest`, { parameter });
    if (c.type !== 'physical') throw new DomainError('BUNDLE_INVALID', `product ${it.productId} is ${c.type}; bundle components carry physical inventory`, { parameter });
  });
}
