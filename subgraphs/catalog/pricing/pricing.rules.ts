// Pure pricing rules: validation of the price sets a client writes, and THE precedence that picks a
// product's effective price from its candidate prices. No database: pricing.repository.ts fetches
// the candidates (one statement for any number of products), pricing.service.ts puts both together.
import { DomainError } from '../../../lib/errors.js';

/**
 * Precedence, highest first: a price for this customer, then for one of the customer's groups
 * (the lowest when several groups have one), then a scheduled price whose window contains the
 * instant (the latest started when windows overlap), then the quantity tier containing the
 * quantity, then the base price of the currency.
 */
export const PRICE_SOURCES = ['customer', 'customer_group', 'scheduled', 'tier', 'base'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export interface Candidate {
  id: string | null;
  amount: number;
  compareAt?: number | null;
}

/** What the database knows for one product, currency, quantity, customer and instant. */
export interface PriceCandidates {
  customer?: Candidate | null;
  customer_group?: Candidate | null;
  scheduled?: Candidate | null;
  tier?: Candidate | null;
  base?: Candidate | null;
}

export interface PickedPrice {
  source: PriceSource;
  sourceId: string | null;
  amount: number;
  /** the "was" price shown struck through, when there is one above the price */
  compareAt: number | null;
}

/**
 * The effective unit price, or null when no source has a price in the currency. Compare-at: a
 * scheduled price's own compare_at, the base price's own compare_at, otherwise the base amount
 * when it is above the price (a customer, group or tier price shows the regular price struck through).
 */
export function pickPrice(c: PriceCandidates): PickedPrice | null {
  for (const source of PRICE_SOURCES) {
    const hit = c[source];
    if (!hit) continue;
    const own = source === 'scheduled' || source === 'base' ? (hit.compareAt ?? null) : null;
    const regular = source !== 'base' && c.base && c.base.amount > hit.amount ? c.base.amount : null;
    return { source, sourceId: source === 'base' ? null : hit.id, amount: hit.amount, compareAt: own ?? regular };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Validation of what clients write

export const MAX_PRICE_ROWS = 200;
export const MAX_QUANTITY = 1_000_000_000;
const CURRENCY = /^[A-Z]{3}$/;

export function checkCurrency(currency: unknown, parameter: string): string {
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) throw new DomainError('INVALID_PRICE', `${parameter} must be an ISO 4217 code such as USD`, { parameter });
  return currency;
}

export function checkAmount(amount: unknown, parameter: string): number {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) {
    throw new DomainError('INVALID_PRICE', `${parameter} must be a non-negative integer in the currency's smallest unit`, { parameter });
  }
  return amount;
}

function checkRows<T>(rows: T[], parameter: string): T[] {
  if (!Array.isArray(rows)) throw new DomainError('VALIDATION_FAILED', `${parameter} must be an array`, { parameter });
  if (rows.length > MAX_PRICE_ROWS) throw new DomainError('VALIDATION_FAILED', `at most ${MAX_PRICE_ROWS} entries`, { parameter });
  return rows;
}

export interface CurrencyPriceRow {
  currency: string;
  amount: number;
  compareAt?: number | null;
}

/** PUT /prices: one price per currency. */
export function checkCurrencyPrices(rows: CurrencyPriceRow[]): CurrencyPriceRow[] {
  const seen = new Set<string>();
  return checkRows(rows, 'prices').map((r, i) => {
    const at = `prices[${i}]`;
    const currency = checkCurrency(r.currency, `${at}.currency`);
    if (seen.has(currency)) throw new DomainError('INVALID_PRICE', `${currency} is given twice: one price per currency`, { parameter: `${at}.currency` });
    seen.add(currency);
    const amount = checkAmount(r.amount, `${at}.amount`);
    const compareAt = r.compareAt == null ? null : checkAmount(r.compareAt, `${at}.compare_at`);
    return { currency, amount, compareAt };
  });
}

export interface TierRow {
  minQuantity: number;
  maxQuantity?: number | null;
  currency: string;
  amount: number;
}

function checkQuantity(q: unknown, parameter: string, min: number): number {
  if (typeof q !== 'number' || !Number.isInteger(q) || q < min || q > MAX_QUANTITY) {
    throw new DomainError('VALIDATION_FAILED', `${parameter} must be an integer from ${min} to ${MAX_QUANTITY}`, { parameter });
  }
  return q;
}

/**
 * PUT /price-tiers: per currency, tiers must not overlap; only the highest may be open-ended
 * (max_quantity null). Gaps are allowed: a quantity in a gap gets the next source down (the base).
 */
export function checkTiers(rows: TierRow[]): TierRow[] {
  const tiers = checkRows(rows, 'tiers').map((r, i) => {
    const at = `tiers[${i}]`;
    const minQuantity = checkQuantity(r.minQuantity, `${at}.min_quantity`, 1);
    const maxQuantity = r.maxQuantity == null ? null : checkQuantity(r.maxQuantity, `${at}.max_quantity`, 1);
    if (maxQuantity !== null && maxQuantity < minQuantity) {
      throw new DomainError('VALIDATION_FAILED', `${at}.max_quantity must be at least min_quantity (${minQuantity})`, { parameter: `${at}.maxQuantity` });
    }
    return { index: i, minQuantity, maxQuantity, currency: checkCurrency(r.currency, `${at}.price.currency`), amount: checkAmount(r.amount, `${at}.price.amount`) };
  });
  const byCurrency = new Map<string, typeof tiers>();
  for (const t of tiers) byCurrency.set(t.currency, [...(byCurrency.get(t.currency) ?? []), t]);
  for (const list of byCurrency.values()) {
    const sorted = [...list].sort((a, b) => a.minQuantity - b.minQuantity);
    for (let k = 1; k < sorted.length; k++) {
      const prev = sorted[k - 1];
      const cur = sorted[k];
      if (prev.maxQuantity === null || cur.minQuantity <= prev.maxQuantity) {
        const upto = prev.maxQuantity === null ? 'and up (open-ended: only the highest tier may be)' : `to ${prev.maxQuantity}`;
        throw new DomainError('INVALID_PRICE', `tiers[${cur.index}] (from ${cur.minQuantity}) overlaps tiers[${prev.index}] (${prev.minQuantity} ${upto}) in ${cur.currency}`, {
          parameter: `tiers[${cur.index}].minQuantity`,
        });
      }
    }
  }
  return tiers.map(({ index: _i, ...t }) => t);
}

export interface CustomerPriceRow {
  customerId?: string | null;
  customerGroupId?: string | null;
  currency: string;
  amount: number;
}

/** PUT /customer-prices: each row names exactly one customer or one group; one price per (target, currency). */
export function checkCustomerPrices(rows: CustomerPriceRow[]): CustomerPriceRow[] {
  const seen = new Set<string>();
  return checkRows(rows, 'prices').map((r, i) => {
    const at = `prices[${i}]`;
    const customerId = r.customerId?.trim() || null;
    const customerGroupId = r.customerGroupId?.trim() || null;
    if ((customerId === null) === (customerGroupId === null)) {
      throw new DomainError('VALIDATION_FAILED', `${at}: give exactly one of customer_id and customer_group_id`, { parameter: `${at}.customerId` });
    }
    for (const [v, name] of [
      [customerId, 'customerId'],
      [customerGroupId, 'customerGroupId'],
    ] as const) {
      if (v && v.length > 200) throw new DomainError('VALIDATION_FAILED', `${at}.${name} is longer than 200 characters`, { parameter: `${at}.${name}` });
    }
    const currency = checkCurrency(r.currency, `${at}.price.currency`);
    const key = `${customerId ? `c:${customerId}` : `g:${customerGroupId}`}:${currency}`;
    if (seen.has(key)) throw new DomainError('INVALID_PRICE', `${at}: a price for this ${customerId ? 'customer' : 'group'} in ${currency} is given twice`, { parameter: `${at}.price.currency` });
    seen.add(key);
    return { customerId, customerGroupId, currency, amount: checkAmount(r.amount, `${at}.price.amount`) };
  });
}

export interface ScheduledPriceRow {
  name?: string | null;
  currency: string;
  amount: number;
  compareAtCurrency?: string | null;
  compareAt?: number | null;
  startsAt: Date;
  endsAt?: Date | null;
}

/** POST /scheduled-prices: a window [starts_at, ends_at) (ends_at null: no end); compare_at in the same currency. */
export function checkScheduledPrice(r: ScheduledPriceRow): ScheduledPriceRow {
  const currency = checkCurrency(r.currency, 'price.currency');
  const amount = checkAmount(r.amount, 'price.amount');
  let compareAt: number | null = null;
  if (r.compareAt != null || r.compareAtCurrency != null) {
    compareAt = checkAmount(r.compareAt, 'compareAt.amount');
    if (checkCurrency(r.compareAtCurrency, 'compareAt.currency') !== currency) {
      throw new DomainError('INVALID_PRICE', `compare_at.currency must be the price's currency (${currency})`, { parameter: 'compareAt.currency' });
    }
  }
  if (!(r.startsAt instanceof Date) || Number.isNaN(r.startsAt.getTime())) throw new DomainError('VALIDATION_FAILED', 'starts_at must be an ISO 8601 date-time', { parameter: 'startsAt' });
  if (r.endsAt != null && !(r.endsAt.getTime() > r.startsAt.getTime())) throw new DomainError('VALIDATION_FAILED', 'ends_at must be after starts_at', { parameter: 'endsAt' });
  const name = r.name?.trim() || null;
  if (name && name.length > 200) throw new DomainError('VALIDATION_FAILED', 'name is longer than 200 characters', { parameter: 'name' });
  return { name, currency, amount, compareAt, compareAtCurrency: compareAt === null ? null : currency, startsAt: r.startsAt, endsAt: r.endsAt ?? null };
}

/** An effective-price request's quantity: an integer >= 1. */
export function checkRequestQuantity(q: number, parameter = 'quantity'): number {
  return checkQuantity(q, parameter, 1);
}
