// Pricing routes of the products service (document 3 part A): API key, products:read / products:write.
// The PUT bodies carry their list right under `data` as the spec writes them (`data.tiers`,
// `data.prices`); every price write answers the product's whole pricing (`product_pricing`).
// Not in the spec: GET /pricing (every price source), GET /price (the effective price) and
// DELETE of a scheduled price.
import { DomainError } from '../../lib/errors.js';
import { resource } from '../jsonapi.js';
import { getParam, intParam } from '../query.js';
import type { Route } from '../types.js';

const base = { service: 'products', auth: 'apiKey' } as const;
const pricingRes = (p: Record<string, unknown>) => resource('product_pricing', p);
const scheduledRes = (s: Record<string, unknown>) => resource('scheduled_price', s);

function atParam(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw new DomainError('BAD_REQUEST', 'at must be an ISO 8601 date-time', { parameter: 'at' });
  return new Date(t).toISOString();
}

export const CATALOG_PRICING_ROUTES: Route[] = [
  {
    ...base,
    method: 'GET',
    path: '/v1/products/:id/pricing',
    operation: 'GetProductPricing',
    summary: "Every price source of a product: its own price, per-currency prices, tiers, customer and group prices, scheduled prices (products:read)",
    variables: (r) => ({ productId: r.params.id }),
    result: (d) => ({ data: pricingRes(d.productPricing) }),
    status: 200,
    responseType: 'product_pricing',
  },
  {
    ...base,
    method: 'PUT',
    path: '/v1/products/:id/prices',
    operation: 'SetProductPrices',
    summary: 'Replace the base prices per currency: data.prices [{amount, currency, compare_at}], one per currency (products:write)',
    body: { type: 'product_prices', inData: true, args: ['prices'] },
    variables: (r) => ({ productId: r.params.id, prices: r.attributes.prices ?? [] }),
    result: (d) => ({ data: pricingRes(d.setProductPrices) }),
    status: 200,
    responseType: 'product_pricing',
  },
  {
    ...base,
    method: 'PUT',
    path: '/v1/products/:id/price-tiers',
    operation: 'SetPriceTiers',
    summary: 'Replace the quantity tiers: data.tiers [{min_quantity, max_quantity (null: open-ended), price {amount, currency}}]; overlaps → 422 INVALID_PRICE (products:write)',
    body: { type: 'price_tiers', inData: true, args: ['tiers'] },
    variables: (r) => ({ productId: r.params.id, tiers: r.attributes.tiers ?? [] }),
    result: (d) => ({ data: pricingRes(d.setPriceTiers) }),
    status: 200,
    responseType: 'product_pricing',
  },
  {
    ...base,
    method: 'PUT',
    path: '/v1/products/:id/customer-prices',
    operation: 'SetCustomerPrices',
    summary: 'Replace the customer and customer-group prices: data.prices [{customer_id | customer_group_id, price {amount, currency}}] (products:write)',
    body: { type: 'customer_prices', inData: true, args: ['prices'] },
    variables: (r) => ({ productId: r.params.id, prices: r.attributes.prices ?? [] }),
    result: (d) => ({ data: pricingRes(d.setCustomerPrices) }),
    status: 200,
    responseType: 'product_pricing',
  },
  {
    ...base,
    method: 'POST',
    path: '/v1/products/:id/scheduled-prices',
    operation: 'CreateScheduledPrice',
    summary: 'Add a scheduled price: price, compare_at, starts_at (inclusive), ends_at (exclusive; absent: no end), name (products:write)',
    body: { type: 'scheduled_price', input: 'input' },
    variables: (r) => ({ productId: r.params.id, input: r.attributes }),
    result: (d) => ({ data: scheduledRes(d.createScheduledPrice) }),
    status: 201,
    responseType: 'scheduled_price',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/products/:id/scheduled-prices/:scheduled_price_id',
    operation: 'DeleteScheduledPrice',
    summary: 'Remove a scheduled price (products:write)',
    variables: (r) => ({ productId: r.params.id, id: r.params.scheduled_price_id }),
    result: (d) => ({ data: scheduledRes(d.deleteScheduledPrice) }),
    status: 200,
    responseType: 'scheduled_price',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/products/:id/price',
    operation: 'GetEffectivePrice',
    summary: 'The effective price (customer > customer group > scheduled > tier > base) for a currency, quantity, customer and instant (products:read)',
    query: [
      { name: 'currency', type: 'string', description: "ISO 4217 code; default: the currency of the product's own price" },
      { name: 'quantity', type: 'integer', description: 'default 1' },
      { name: 'customer_id', type: 'string' },
      { name: 'customer_group_id', type: 'string', description: "comma list of the customer's groups" },
      { name: 'at', type: 'string', description: 'ISO 8601 instant; default now' },
    ],
    variables: (r) => ({
      productId: r.params.id,
      currency: getParam(r.query, 'currency') || null,
      quantity: intParam(r.query, 'quantity', { default: 1, min: 1, max: 1_000_000_000 }),
      customerId: getParam(r.query, 'customer_id') || null,
      customerGroupIds: (getParam(r.query, 'customer_group_id') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      at: atParam(getParam(r.query, 'at')),
    }),
    result: (d) => ({ data: resource('effective_prices', d.effectivePrice) }),
    status: 200,
    responseType: 'effective_prices',
  },
];
