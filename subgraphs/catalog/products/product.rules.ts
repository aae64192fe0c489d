// Pure product rules: money formatting, stock flags, and the checks of the free-form parts of a
// product (weights, dimensions, SEO, options, bundle items). No database, no GraphQL.
import { DomainError } from '../../../lib/errors.js';
import type { BundleItem, Dimensions, ProductOption, ProductSeo, Weight } from './product.entity.js';

/** One formatter per currency, with its minor-unit digits (resolvedOptions allocates on every call). */
const formatters = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function formatterOf(currency: string): { format: Intl.NumberFormat; digits: number } {
  let f = formatters.get(currency);
  if (!f) {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    f = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    formatters.set(currency, f);
  }
  return f;
}

/** formatted amounts by currency and amount: a page formats every price, Intl takes microseconds a call */
const formatted = new Map<string, Map<number, string>>();
const FORMATTED_KEPT = 10_000;

/** `amount` minor units of `currency`, formatted with that currency's own digits (JPY none, KWD three). */
export function formatMoney(amount: number, currency: string): string {
  let byAmount = formatted.get(currency);
  let text = byAmount?.get(amount);
  if (text !== undefined) return text;
  const f = formatterOf(currency);
  text = f.format.format(amount / 10 ** f.digits);
  if (!byAmount) formatted.set(currency, (byAmount = new Map()));
  else if (byAmount.size >= FORMATTED_KEPT) byAmount.clear();
  byAmount.set(amount, text);
  return text;
}

/** Minor-unit digits of a currency (USD 2, JPY 0, KWD 3). */
export function currencyDigits(currency: string): number {
  return formatterOf(currency).digits;
}

/** An ISO 4217 code Intl knows, or INVALID_PRICE naming `parameter`. */
export function checkCurrencyCode(currency: unknown, parameter: string): string {
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency) || !Intl.supportedValuesOf('currency').includes(currency)) {
    throw new DomainError('INVALID_PRICE', `${parameter} must be an ISO 4217 currency code such as USD`, { parameter });
  }
  return currency;
}

/** A non-negative integer amount of minor units, or INVALID_PRICE naming `parameter`. */
export function checkAmount(amount: unknown, parameter: string): number {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) {
    throw new DomainError('INVALID_PRICE', `${parameter} must be a non-negative integer in the currency's smallest unit (cents)`, { parameter });
  }
  return amount;
}

export interface StockRow {
  inventoryQuantity: number;
  inventoryReserved: number;
  /** held by paid orders until fulfilled (inventory/) */
  inventoryCommitted?: number;
  trackStock: boolean;
  allowBackorder: boolean;
  lowStockThreshold?: number | null;
}

/** available = quantity - reserved - committed (never below 0); in stock unless tracked, exhausted and no backorders. */
export function inventoryFlags(r: StockRow): { available: number; inStock: boolean; lowStock: boolean } {
  const available = Math.max(0, r.inventoryQuantity - r.inventoryReserved - (r.inventoryCommitted ?? 0));
  const inStock = !r.trackStock || r.allowBackorder || available > 0;
  const lowStock = r.trackStock && r.lowStockThreshold != null && available < r.lowStockThreshold;
  return { available, inStock, lowStock };
}

export const WEIGHT_UNITS = ['g', 'kg', 'lb', 'oz'] as const;
export const LENGTH_UNITS = ['mm', 'cm', 'm', 'in', 'ft'] as const;

function positiveNumber(v: unknown, parameter: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new DomainError('VALIDATION_FAILED', `${parameter} must be a number >= 0`, { parameter });
  return v;
}

function unitOf(v: unknown, allowed: readonly string[], parameter: string): string {
  if (typeof v !== 'string' || !allowed.includes(v)) throw new DomainError('VALIDATION_FAILED', `${parameter} must be one of ${allowed.join(', ')}`, { parameter });
  return v;
}

export function checkWeight(w: Weight | null | undefined, parameter = 'weight'): Weight | null | undefined {
  if (w == null) return w;
  return { value: positiveNumber(w.value, `${parameter}.value`), unit: unitOf(w.unit, WEIGHT_UNITS, `${parameter}.unit`) };
}

export function checkDimensions(d: Dimensions | null | undefined): Dimensions | null | undefined {
  if (d == null) return d;
  return {
    length: positiveNumber(d.length, 'dimensions.length'),
    width: positiveNumber(d.width, 'dimensions.width'),
    height: positiveNumber(d.height, 'dimensions.height'),
    unit: unitOf(d.unit, LENGTH_UNITS, 'dimensions.unit'),
  };
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function checkSeo(seo: ProductSeo | null | undefined): ProductSeo | null | undefined {
  if (seo == null) return seo;
  const out: ProductSeo = {};
  if (seo.title != null) {
    if (seo.title.length > 200) throw new DomainError('VALIDATION_FAILED', 'seo.title is longer than 200 characters', { parameter: 'seo.title' });
    out.title = seo.title;
  }
  if (seo.description != null) {
    if (seo.description.length > 1000) throw new DomainError('VALIDATION_FAILED', 'seo.description is longer than 1000 characters', { parameter: 'seo.description' });
    out.description = seo.description;
  }
  if (seo.slug != null) {
    if (seo.slug.length > 200 || !SLUG.test(seo.slug)) throw new DomainError('VALIDATION_FAILED', 'seo.slug must be lower-case letters, digits and single hyphens', { parameter: 'seo.slug' });
    out.slug = seo.slug;
  }
  return out;
}

export const MAX_OPTIONS = 3;
export const MAX_OPTION_VALUES = 100;

/** Option names unique (case-insensitive), at most 3 (Shopify's limit), each with 1..100 distinct values. */
export function checkOptions(options: ProductOption[]): ProductOption[] {
  if (options.length > MAX_OPTIONS) throw new DomainError('VALIDATION_FAILED', `at most ${MAX_OPTIONS} options`, { parameter: 'options' });
  const seen = new Set<string>();
  return options.map((o, i) => {
    const name = o.name?.trim();
    if (!name || name.length > 100) throw new DomainError('VALIDATION_FAILED', `options[${i}].name must be 1 to 100 characters`, { parameter: `options[${i}].name` });
    if (seen.has(name.toLowerCase())) throw new DomainError('VALIDATION_FAILED', `option "${name}" is defined twice`, { parameter: `options[${i}].name` });
    seen.add(name.toLowerCase());
    const values = (o.values ?? []).map((v) => v.trim());
    if (values.length < 1 || values.length > MAX_OPTION_VALUES || values.some((v) => !v || v.length > 100) || new Set(values).size !== values.length) {
      throw new DomainError('VALIDATION_FAILED', `options[${i}].values must be 1 to ${MAX_OPTION_VALUES} distinct non-empty strings`, { parameter: `options[${i}].values` });
    }
    return { name, values };
  });
}

/**
 * A variant's options against its product's: every product option given exactly once with an
 * allowed value, nothing else. INVALID_OPTION_VALUES naming `options.<name>` otherwise.
 */
export function checkVariantOptions(productOptions: ProductOption[], given: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(given)) {
    if (!productOptions.some((o) => o.name === key)) {
      const known = productOptions.map((o) => o.name).join(', ') || 'none (PUT /options first)';
      throw new DomainError('INVALID_OPTION_VALUES', `"${key}" is not an option of this product (options: ${known})`, { parameter: `options.${key}` });
    }
  }
  for (const o of productOptions) {
    const v = given[o.name];
    if (v === undefined) throw new DomainError('INVALID_OPTION_VALUES', `option "${o.name}" needs a value (one of ${o.values.join(', ')})`, { parameter: `options.${o.name}` });
    if (typeof v !== 'string' || !o.values.includes(v)) {
      throw new DomainError('INVALID_OPTION_VALUES', `"${String(v)}" is not a value of option "${o.name}" (one of ${o.values.join(', ')})`, { parameter: `options.${o.name}` });
    }
    out[o.name] = v;
  }
  return out;
}

/** Bundle items: 1..50 distinct products, quantity 1..1000. Existence and kinds are checked against the database. */
export function checkBundleItemShape(items: BundleItem[]): BundleItem[] {
  if (items.length < 1 || items.length > 50) throw new DomainError('BUNDLE_INVALID', 'a bundle needs 1 to 50 bundle_items', { parameter: 'bundleItems' });
  const seen = new Set<string>();
  return items.map((it, i) => {
    if (!Number.isInteger(it.quantity) || it.quantity < 1 || it.quantity > 1000) {
      throw new DomainError('BUNDLE_INVALID', `bundle_items[${i}].quantity must be an integer from 1 to 1000`, { parameter: `bundleItems[${i}].quantity` });
    }
    if (seen.has(it.productId)) throw new DomainError('BUNDLE_INVALID', `product ${it.productId} is listed twice`, { parameter: `bundleItems[${i}].productId` });
    seen.add(it.productId);
    return { productId: it.productId, quantity: it.quantity, required: it.required ?? true };
  });
}

/** A bundle's availability: the least of available/quantity over its required components. */
export function bundleAvailable(items: BundleItem[], availableOf: (productId: string) => number): number {
  const required = items.filter((i) => i.required);
  if (!required.length) return 0;
  return Math.min(...required.map((i) => Math.floor(availableOf(i.productId) / i.quantity)));
}

/** The variant price: base ± a fixed amount of minor units, or base × (1 + percent / 100) rounded, never below 0. */
export function variantPrice(base: number, modifier: { type: string; amount: number } | null | undefined): number {
  if (!modifier) return base;
  const v = modifier.type === 'percentage' ? base + Math.round((base * modifier.amount) / 100) : base + modifier.amount;
  return Math.max(0, v);
}
