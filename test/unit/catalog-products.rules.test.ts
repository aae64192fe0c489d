// Pure product rules: money formatting per currency, stock flags, option and bundle checks,
// variant prices, search documents.
import { DomainError } from '../../lib/errors.js';
import {
  bundleAvailable,
  checkBundleItemShape,
  checkCurrencyCode,
  checkOptions,
  checkVariantOptions,
  formatMoney,
  inventoryFlags,
  variantPrice,
} from '../../subgraphs/catalog/products/product.rules.js';
import { priceBucket, toSearchDocument } from '../../subgraphs/catalog/product-search/search.rules.js';

function codeOf(fn: () => unknown): { code: string; parameter?: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, parameter: e.opts.parameter };
    throw e;
  }
  throw new Error('expected a DomainError');
}

describe('formatMoney', () => {
  test.each([
    [1999, 'USD', '$19.99'],
    [1500, 'JPY', '¥1,500'],
    [1234, 'KWD', 'KWD\u00a01.234'],
    [500, 'EUR', '€5.00'],
    [0, 'GBP', '£0.00'],
  ])('%i %s → %s', (amount, currency, out) => {
    expect(formatMoney(amount, currency)).toBe(out);
  });

  test('kept answers stay per currency and right past the bound', () => {
    expect(formatMoney(1999, 'EUR')).toBe('€19.99');
    expect(formatMoney(1999, 'USD')).toBe('$19.99');
    for (let a = 0; a < 10_050; a++) formatMoney(a, 'USD');
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(1999, 'USD')).toBe('$19.99');
    expect(formatMoney(1999, 'EUR')).toBe('€19.99');
  });

  test('unknown or lower-case currency codes are INVALID_PRICE naming the parameter', () => {
    expect(codeOf(() => checkCurrencyCode('usd', 'price.currency'))).toEqual({ code: 'INVALID_PRICE', parameter: 'price.currency' });
    expect(codeOf(() => checkCurrencyCode('XYZ', 'cost.currency'))).toEqual({ code: 'INVALID_PRICE', parameter: 'cost.currency' });
    expect(checkCurrencyCode('CHF', 'x')).toBe('CHF');
  });
});

describe('inventoryFlags', () => {
  const row = { inventoryQuantity: 5, inventoryReserved: 2, trackStock: true, allowBackorder: false, lowStockThreshold: 4 };
  test('available = quantity - reserved; low below the threshold', () => {
    expect(inventoryFlags(row)).toEqual({ available: 3, inStock: true, lowStock: true });
    expect(inventoryFlags({ ...row, lowStockThreshold: 3 })).toMatchObject({ lowStock: false });
  });
  test('out of stock unless untracked or backorders allowed; never negative', () => {
    expect(inventoryFlags({ ...row, inventoryReserved: 9 })).toEqual({ available: 0, inStock: false, lowStock: true });
    expect(inventoryFlags({ ...row, inventoryQuantity: 0, allowBackorder: true }).inStock).toBe(true);
    expect(inventoryFlags({ ...row, inventoryQuantity: 0, trackStock: false })).toEqual({ available: 0, inStock: true, lowStock: false });
  });
});

describe('options and variants', () => {
  const opts = [{ name: 'Size', values: ['S', 'M'] }, { name: 'Color', values: ['Red'] }];
  test('checkOptions trims, refuses duplicates, empty values and more than 3 options', () => {
    expect(checkOptions([{ name: ' Size ', values: [' S', 'M '] }])).toEqual([{ name: 'Size', values: ['S', 'M'] }]);
    expect(codeOf(() => checkOptions([{ name: 'Size', values: ['S'] }, { name: 'size', values: ['M'] }]))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'options[1].name' });
    expect(codeOf(() => checkOptions([{ name: 'Size', values: ['S', 'S'] }]))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'options[0].values' });
    expect(codeOf(() => checkOptions(['a', 'b', 'c', 'd'].map((name) => ({ name, values: ['x'] }))))).toEqual({ code: 'VALIDATION_FAILED', parameter: 'options' });
  });
  test('checkVariantOptions names the option at fault', () => {
    expect(checkVariantOptions(opts, { Size: 'S', Color: 'Red' })).toEqual({ Size: 'S', Color: 'Red' });
    expect(codeOf(() => checkVariantOptions(opts, { Size: 'S', Color: 'Red', Fit: 'Slim' }))).toEqual({ code: 'INVALID_OPTION_VALUES', parameter: 'options.Fit' });
    expect(codeOf(() => checkVariantOptions(opts, { Size: 'XL', Color: 'Red' }))).toEqual({ code: 'INVALID_OPTION_VALUES', parameter: 'options.Size' });
    expect(codeOf(() => checkVariantOptions(opts, { Size: 'S' }))).toEqual({ code: 'INVALID_OPTION_VALUES', parameter: 'options.Color' });
    expect(codeOf(() => checkVariantOptions(opts, { Size: 1, Color: 'Red' }))).toEqual({ code: 'INVALID_OPTION_VALUES', parameter: 'options.Size' });
  });
  test('variantPrice: fixed and percentage modifiers, rounded, never below 0', () => {
    expect(variantPrice(2000, null)).toBe(2000);
    expect(variantPrice(2000, { type: 'fixed', amount: -500 })).toBe(1500);
    expect(variantPrice(2000, { type: 'fixed', amount: -5000 })).toBe(0);
    expect(variantPrice(999, { type: 'percentage', amount: 15 })).toBe(1149);
    expect(variantPrice(1000, { type: 'percentage', amount: -100 })).toBe(0);
  });
});

describe('bundles', () => {
  test('item shape: 1..50 distinct products, quantity 1..1000, required by default', () => {
    expect(checkBundleItemShape([{ productId: 'a', quantity: 2, required: undefined as unknown as boolean }])).toEqual([{ productId: 'a', quantity: 2, required: true }]);
    expect(codeOf(() => checkBundleItemShape([]))).toEqual({ code: 'BUNDLE_INVALID', parameter: 'bundleItems' });
    expect(codeOf(() => checkBundleItemShape([{ productId: 'a', quantity: 1, required: true }, { productId: 'a', quantity: 1, required: true }]))).toEqual({ code: 'BUNDLE_INVALID', parameter: 'bundleItems[1].productId' });
    expect(codeOf(() => checkBundleItemShape([{ productId: 'a', quantity: 1001, required: true }]))).toEqual({ code: 'BUNDLE_INVALID', parameter: 'bundleItems[0].quantity' });
  });
  test('availability: the least whole number of bundles the required components allow', () => {
    const items = [{ productId: 'a', quantity: 4, required: true }, { productId: 'b', quantity: 1, required: false }];
    expect(bundleAvailable(items, (id) => (id === 'a' ? 9 : 0))).toBe(2);
    expect(bundleAvailable([{ productId: 'b', quantity: 1, required: false }], () => 5)).toBe(0);
  });
});

describe('search documents', () => {
  test('price buckets are [min, max) with an open last bucket', () => {
    expect(priceBucket(null)).toBeNull();
    expect(priceBucket(0)).toBe('0-1000');
    expect(priceBucket(1000)).toBe('1000-2500');
    expect(priceBucket(50000)).toBe('50000-');
  });
  test('a document carries brand (attributes.brand or vendor), categories and in_stock', () => {
    const doc = toSearchDocument({
      id: 'prod_1', name: 'Lamp', sku: 'L1', description: null, short_description: null, status: 'active', type: 'physical', price_amount: '4999', price_currency: 'USD',
      attributes: { vendor: ' Lumen ' }, inventory_quantity: 0, inventory_reserved: 0, track_stock: true, allow_backorder: false, created_at: '2026-01-01T00:00:00Z', deleted_at: null, categories: ['Lighting'],
    });
    expect(doc).toMatchObject({ id: 'prod_1', brand: 'Lumen', category: ['Lighting'], price: 4999, price_range: '2500-5000', in_stock: false, description: '' });
  });
});
