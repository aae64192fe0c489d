// Pricing: per-currency base prices, quantity tiers, customer and customer-group prices and
// scheduled prices, and THE effective-price function: the only place a price is computed.
//
// How to price products from other code (product reads, variants, bundles, search):
//   - many products, one statement:  `await effectivePrices(ctx, [{ productId, quantity }], { currency, customerId?, customerGroupIds?, at? })`
//     → one outcome per request, in order: `{ ok: true, price }` or `{ ok: false, error }` (a DomainError:
//     PRODUCT_NOT_FOUND, or INVALID_PRICE naming `currency` when the product has no price in it).
//   - one product, throwing:          `await effectivePrice(ctx, productId, query)`.
//   - from a field resolver:          `ctx.loaders.effectivePrice(query).load({ productId, quantity })`
//     batches a whole page into one statement (Product.effectivePrice uses it; pricing.loaders.ts).
//   A variant or bundle price starts from its product's effective price (`price.amount`) and applies
//   its own modifier on top. Precedence: customer > customer_group > scheduled > tier > base
//   (pricing.rules.ts pickPrice); windows are [starts_at, ends_at); tiers [min_quantity, max_quantity].
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { CatalogContext } from '../context.js';
import { ProductEntity } from '../products/product.entity.js';
import { formatMoney } from '../products/product.type.js';
import { CustomerPriceEntity, PriceTierEntity, ProductPriceEntity, ScheduledPriceEntity } from './price.entity.js';
import * as repo from './pricing.repository.js';
import {
  checkCurrency,
  checkCurrencyPrices,
  checkCustomerPrices,
  checkRequestQuantity,
  checkScheduledPrice,
  checkTiers,
  pickPrice,
  type CurrencyPriceRow,
  type CustomerPriceRow,
  type ScheduledPriceRow,
  type TierRow,
} from './pricing.rules.js';

/** At most this many products per effective-price call. */
export const MAX_PRICE_BATCH = 100;

export interface PriceQuery {
  currency: string;
  customerId?: string | null;
  /** the customer's groups; the lowest group price applies when several have one */
  customerGroupIds?: string[] | null;
  /** default: now */
  at?: Date | null;
}

export interface PriceRequest {
  productId: string;
  /** default 1 */
  quantity?: number;
}

export interface EffectivePriceValue {
  productId: string;
  quantity: number;
  currency: string;
  amount: number;
  compareAt: number | null;
  total: number;
  source: string;
  sourceId: string | null;
  at: Date;
  formatted: string;
  compareAtFormatted: string | null;
  totalFormatted: string;
}

export type PriceOutcome = { ok: true; price: EffectivePriceValue } | { ok: false; productId: string; error: DomainError };

function normaliseQuery(q: PriceQuery): repo.CandidateQuery {
  const currency = checkCurrency(q.currency, 'currency');
  const groups = (q.customerGroupIds ?? []).map((g) => g.trim()).filter(Boolean);
  const at = q.at ?? new Date();
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new DomainError('VALIDATION_FAILED', 'at must be an ISO 8601 date-time', { parameter: 'at' });
  return { currency, customerId: q.customerId?.trim() || null, customerGroupIds: [...new Set(groups)], at };
}

/** THE effective-price function: one statement for every request (see the how-to above). */
export async function effectivePrices(ctx: CatalogContext, requests: PriceRequest[], query: PriceQuery): Promise<PriceOutcome[]> {
  if (requests.length > MAX_PRICE_BATCH) throw new DomainError('VALIDATION_FAILED', `at most ${MAX_PRICE_BATCH} products per call`, { parameter: 'productIds' });
  const q = normaliseQuery(query);
  const reqs = requests.map((r) => ({ productId: r.productId, quantity: checkRequestQuantity(r.quantity ?? 1) }));
  const rows = await repo.loadCandidates(ctx.em, await appPartition(ctx), reqs, q);
  const out: PriceOutcome[] = [];
  for (const row of rows) {
    if (!row.found) {
      out.push({ ok: false, productId: row.productId, error: new DomainError('PRODUCT_NOT_FOUND', `Product ${row.productId} not found`, { parameter: 'productId' }) });
      continue;
    }
    const picked = pickPrice(row.candidates);
    if (!picked) {
      const known = await repo.currenciesOf(ctx.em, row.productId);
      const has = known.length ? `it has prices in ${known.join(', ')}` : 'it has no price at all';
      out.push({
        ok: false,
        productId: row.productId,
        error: new DomainError('INVALID_PRICE', `Product ${row.productId} has no price in ${q.currency} (${has})`, { parameter: 'currency', meta: { currencies: known } }),
      });
      continue;
    }
    const total = picked.amount * row.quantity;
    out.push({
      ok: true,
      price: {
        productId: row.productId,
        quantity: row.quantity,
        currency: q.currency,
        amount: picked.amount,
        compareAt: picked.compareAt,
        total,
        source: picked.source,
        sourceId: picked.sourceId,
        at: q.at,
        formatted: formatMoney(picked.amount, q.currency),
        compareAtFormatted: picked.compareAt == null ? null : formatMoney(picked.compareAt, q.currency),
        totalFormatted: formatMoney(total, q.currency),
      },
    });
  }
  return out;
}

/** One product's effective price; its error thrown. Without a currency: the product's own price's currency. */
export async function effectivePrice(
  ctx: CatalogContext,
  productId: string,
  query: Omit<PriceQuery, 'currency'> & { currency?: string | null; quantity?: number },
): Promise<EffectivePriceValue> {
  let currency = query.currency;
  if (!currency) {
    currency = (await requireProduct(ctx.em, productId)).priceCurrency;
    if (!currency) throw new DomainError('INVALID_PRICE', `Product ${productId} has no price of its own: give a currency`, { parameter: 'currency' });
  }
  const [r] = await effectivePrices(ctx, [{ productId, quantity: query.quantity }], { ...query, currency });
  if (!r.ok) throw r.error;
  return r.price;
}

// ---------------------------------------------------------------------------------------------
// Price sets

export interface ProductPricingData {
  product: ProductEntity;
  prices: ProductPriceEntity[];
  tiers: PriceTierEntity[];
  customerPrices: CustomerPriceEntity[];
  scheduledPrices: ScheduledPriceEntity[];
}

async function requireProduct(em: EntityManager, id: string, lock = false): Promise<ProductEntity> {
  const p = await em.findOne(ProductEntity, { id, deletedAt: null }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!p) throw new DomainError('PRODUCT_NOT_FOUND', `Product ${id} not found`, { parameter: 'id' });
  return p;
}

async function loadPricing(em: EntityManager, product: ProductEntity): Promise<ProductPricingData> {
  const productId = product.id;
  const [prices, tiers, customerPrices, scheduledPrices] = await Promise.all([
    em.find(ProductPriceEntity, { productId }, { orderBy: { currency: 'asc' } }),
    em.find(PriceTierEntity, { productId }, { orderBy: { currency: 'asc', minQuantity: 'asc' } }),
    em.find(CustomerPriceEntity, { productId }, { orderBy: { customerId: 'asc', customerGroupId: 'asc', currency: 'asc' } }),
    em.find(ScheduledPriceEntity, { productId }, { orderBy: { startsAt: 'asc', id: 'asc' } }),
  ]);
  return { product, prices, tiers, customerPrices, scheduledPrices };
}

export async function getPricing(ctx: CatalogContext, productId: string): Promise<ProductPricingData> {
  return loadPricing(ctx.em, await requireProduct(ctx.em, productId));
}

/** Replace one kind of price rows of a product, under the product's row lock, atomically. */
async function replaceRows(ctx: CatalogContext, productId: string, write: (em: EntityManager, product: ProductEntity) => Promise<void>): Promise<ProductPricingData> {
  return ctx.em.transactional(async (em) => {
    const product = await requireProduct(em, productId, true);
    await write(em, product);
    await em.flush();
    return loadPricing(em, product);
  });
}

/** PUT /products/:id/prices: the product's base price per currency (replaces the set). */
export async function setPrices(ctx: CatalogContext, productId: string, rows: CurrencyPriceRow[]): Promise<ProductPricingData> {
  const clean = checkCurrencyPrices(rows);
  const part = await appPartition(ctx);
  return replaceRows(ctx, productId, async (em) => {
    await em.nativeDelete(ProductPriceEntity, { productId });
    for (const r of clean) em.create(ProductPriceEntity, { ...part, productId, currency: r.currency, amount: r.amount, compareAtAmount: r.compareAt ?? null });
  });
}

/** PUT /products/:id/price-tiers: replaces every tier of the product. */
export async function setTiers(ctx: CatalogContext, productId: string, rows: TierRow[]): Promise<ProductPricingData> {
  const clean = checkTiers(rows);
  const part = await appPartition(ctx);
  return replaceRows(ctx, productId, async (em) => {
    await em.nativeDelete(PriceTierEntity, { productId });
    for (const t of clean) em.create(PriceTierEntity, { ...part, productId, currency: t.currency, minQuantity: t.minQuantity, maxQuantity: t.maxQuantity ?? null, amount: t.amount });
  });
}

/** PUT /products/:id/customer-prices: replaces every customer and group price of the product. */
export async function setCustomerPrices(ctx: CatalogContext, productId: string, rows: CustomerPriceRow[]): Promise<ProductPricingData> {
  const clean = checkCustomerPrices(rows);
  const part = await appPartition(ctx);
  return replaceRows(ctx, productId, async (em) => {
    await em.nativeDelete(CustomerPriceEntity, { productId });
    for (const r of clean) em.create(CustomerPriceEntity, { ...part, productId, customerId: r.customerId ?? null, customerGroupId: r.customerGroupId ?? null, currency: r.currency, amount: r.amount });
  });
}

/** POST /products/:id/scheduled-prices: adds one scheduled price. */
export async function addScheduledPrice(ctx: CatalogContext, productId: string, row: ScheduledPriceRow): Promise<ScheduledPriceEntity> {
  const r = checkScheduledPrice(row);
  const part = await appPartition(ctx);
  await requireProduct(ctx.em, productId);
  const s = ctx.em.create(ScheduledPriceEntity, {
    ...part,
    productId,
    name: r.name ?? null,
    currency: r.currency,
    amount: r.amount,
    compareAtAmount: r.compareAt ?? null,
    startsAt: r.startsAt,
    endsAt: r.endsAt ?? null,
  });
  await ctx.em.flush();
  return s;
}

/** DELETE /products/:id/scheduled-prices/:scheduled_price_id. */
export async function deleteScheduledPrice(ctx: CatalogContext, productId: string, id: string): Promise<ScheduledPriceEntity> {
  await requireProduct(ctx.em, productId);
  const s = await ctx.em.findOne(ScheduledPriceEntity, { id, productId });
  if (!s) throw new DomainError('NOT_FOUND', `Scheduled price ${id} not found on product ${productId}`, { parameter: 'scheduledPriceId' });
  await ctx.em.remove(s).flush();
  return s;
}
