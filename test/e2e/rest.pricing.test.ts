// Pricing REST paths end to end, and the effective-price function on its edges: tier and window
// boundaries, precedence, missing currency, batches.
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

async function product(t: Tenant, price?: { amount: number; currency: string; compare_at?: number }): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Chair', sku: uniq('SKU-'), ...(price ? { price } : {}) }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create product: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

async function price(t: Tenant, id: string, query: string): Promise<any> {
  const r = await rest('GET', `/v1/products/${id}/price?${query}`, { headers: t.keyHeaders });
  if (r.status !== 200) throw new Error(`price ${query}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.attributes;
}

const put = (t: Tenant, id: string, what: string, data: Record<string, unknown>) => rest('PUT', `/v1/products/${id}/${what}`, { body: { data }, headers: t.keyHeaders });

describe('per-currency prices', () => {
  test('PUT /prices sets one base price per currency; the product price is the base of its own currency', async () => {
    const t = await createTenant();
    const id = await product(t, { amount: 1999, currency: 'USD', compare_at: 2499 });
    const r = await put(t, id, 'prices', { prices: [{ amount: 1799, currency: 'EUR', compare_at: 1999 }, { amount: 2500, currency: 'JPY' }] });
    expect(r.status).toBe(200);
    expect(r.body.data.type).toBe('product_pricing');
    expect(r.body.data.id).toBe(id);
    expect(r.body.data.attributes.base_price).toMatchObject({ amount: 1999, currency: 'USD' });
    expect(r.body.data.attributes.prices.map((p: any) => [p.currency, p.amount, p.compare_at])).toEqual([
      ['EUR', 1799, 1999],
      ['JPY', 2500, null],
    ]);
    expect(await price(t, id, '')).toMatchObject({ currency: 'USD', amount: 1999, compare_at: 2499, source: 'base', total: 1999, formatted: '$19.99' });
    expect(await price(t, id, 'currency=EUR&quantity=3')).toMatchObject({ currency: 'EUR', amount: 1799, compare_at: 1999, total: 5397, quantity: 3, source: 'base' });
    // the set is replaced, not merged
    await put(t, id, 'prices', { prices: [{ amount: 1700, currency: 'GBP' }] });
    const pricing = await rest('GET', `/v1/products/${id}/pricing`, { headers: t.keyHeaders });
    expect(pricing.body.data.attributes.prices.map((p: any) => p.currency)).toEqual(['GBP']);
  });

  test('a currency without any price → 422 INVALID_PRICE naming currency, listing the known ones', async () => {
    const t = await createTenant();
    const id = await product(t, { amount: 1000, currency: 'USD' });
    const r = await rest('GET', `/v1/products/${id}/price?currency=CHF`, { headers: t.keyHeaders });
    const e = expectServiceError(r, 'products', 422, 'INVALID_PRICE', { parameter: 'currency' });
    expect(e.detail).toMatch(/no price in CHF.*USD/);
    const noPrice = await product(t);
    expectServiceError(await rest('GET', `/v1/products/${noPrice}/price`, { headers: t.keyHeaders }), 'products', 422, 'INVALID_PRICE', { parameter: 'currency' });
    expectServiceError(await rest('GET', `/v1/products/${id}/price?currency=usd`, { headers: t.keyHeaders }), 'products', 422, 'INVALID_PRICE', { parameter: 'currency' });
  });

  test.each([
    [{ prices: [{ amount: 100, currency: 'usd' }] }, 'prices[0].currency'],
    [{ prices: [{ amount: -1, currency: 'USD' }] }, 'prices[0].amount'],
    [{ prices: [{ amount: 1, currency: 'USD' }, { amount: 2, currency: 'USD' }] }, 'prices[1].currency'],
    [{ prices: [{ amount: 1, currency: 'USD', compare_at: -3 }] }, 'prices[0].compare_at'],
  ])('bad prices %j → 422 INVALID_PRICE naming %s, nothing written', async (data, parameter) => {
    const t = await createTenant();
    const id = await product(t, { amount: 1000, currency: 'USD' });
    await put(t, id, 'prices', { prices: [{ amount: 900, currency: 'EUR' }] });
    expectServiceError(await put(t, id, 'prices', data), 'products', 422, 'INVALID_PRICE', { parameter });
    expect((await rest('GET', `/v1/products/${id}/pricing`, { headers: t.keyHeaders })).body.data.attributes.prices.map((p: any) => p.currency)).toEqual(['EUR']);
  });
});

describe('quantity tiers', () => {
  test('tier boundaries: max_quantity inclusive, the open-ended last tier, gaps fall back to the base', async () => {
    const t = await createTenant();
    const id = await product(t, { amount: 1100, currency: 'USD' });
    const r = await put(t, id, 'price-tiers', {
      tiers: [
        { min_quantity: 10, max_quantity: 49, price: { amount: 900, currency: 'USD' } },
        { min_quantity: 2, max_quantity: 9, price: { amount: 1000, currency: 'USD' } },
        { min_quantity: 60, max_quantity: null, price: { amount: 800, currency: 'USD' } },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes.tiers.map((x: any) => [x.min_quantity, x.max_quantity, x.price.amount])).toEqual([
      [2, 9, 1000],
      [10, 49, 900],
      [60, null, 800],
    ]);
    const at = async (q: number) => {
      const p = await price(t, id, `quantity=${q}`);
      return [p.amount, p.source];
    };
    expect(await at(1)).toEqual([1100, 'base']);
    expect(await at(2)).toEqual([1000, 'tier']);
    expect(await at(9)).toEqual([1000, 'tier']);
    expect(await at(10)).toEqual([900, 'tier']);
    expect(await at(49)).toEqual([900, 'tier']);
    expect(await at(50)).toEqual([1100, 'base']); // the gap 50..59
    expect(await at(60)).toEqual([800, 'tier']);
    expect(await at(1_000_000)).toEqual([800, 'tier']);
    const big = await price(t, id, 'quantity=10');
    expect(big).toMatchObject({ total: 9000, compare_at: 1100, total_formatted: '$90.00' });
  });

  test.each([
    ['overlapping', [{ min_quantity: 1, max_quantity: 10 }, { min_quantity: 10, max_quantity: 20 }], 'INVALID_PRICE', 422, 'tiers[1].min_quantity'],
    ['an open-ended tier below another', [{ min_quantity: 1, max_quantity: null }, { min_quantity: 5, max_quantity: 9 }], 'INVALID_PRICE', 422, 'tiers[1].min_quantity'],
    ['max below min', [{ min_quantity: 5, max_quantity: 4 }], 'VALIDATION_FAILED', 422, 'tiers[0].max_quantity'],
    ['min 0', [{ min_quantity: 0, max_quantity: 4 }], 'VALIDATION_FAILED', 422, 'tiers[0].min_quantity'],
  ])('%s tiers are refused, the old tiers stay', async (_what, shapes, code, status, parameter) => {
    const t = await createTenant();
    const id = await product(t, { amount: 1100, currency: 'USD' });
    await put(t, id, 'price-tiers', { tiers: [{ min_quantity: 5, price: { amount: 1000, currency: 'USD' } }] });
    const tiers = shapes.map((s) => ({ ...s, price: { amount: 500, currency: 'USD' } }));
    expectServiceError(await put(t, id, 'price-tiers', { tiers }), 'products', status, code, { parameter });
    expect((await price(t, id, 'quantity=5')).amount).toBe(1000);
  });

  test('tiers in different currencies do not overlap each other', async () => {
    const t = await createTenant();
    const id = await product(t, { amount: 1100, currency: 'USD' });
    const r = await put(t, id, 'price-tiers', {
      tiers: [
        { min_quantity: 1, price: { amount: 1000, currency: 'USD' } },
        { min_quantity: 1, price: { amount: 950, currency: 'EUR' } },
      ],
    });
    expect(r.status).toBe(200);
    expect((await price(t, id, 'currency=EUR&quantity=4')).amount).toBe(950);
  });
});

describe('customer, group and scheduled prices; precedence', () => {
  test('customer > customer group (lowest of the groups) > scheduled > tier > base', async () => {
    const t = await createTenant();
    const id = await product(t, { amount: 1100, currency: 'USD' });
    await put(t, id, 'price-tiers', { tiers: [{ min_quantity: 1, price: { amount: 1000, currency: 'USD' } }] });
    expect((await price(t, id, '')).source).toBe('tier');
    const s = await rest('POST', `/v1/products/${id}/scheduled-prices`, {
      body: jsonApi('scheduled_price', { name: 'Sale', price: { amount: 900, currency: 'USD' }, compare_at: { amount: 1100, currency: 'USD' }, starts_at: new Date(Date.now() - 60_000).toISOString() }),
      headers: t.keyHeaders,
    });
    expect(s.status).toBe(201);
    expect(s.body.data).toMatchObject({ type: 'scheduled_price', attributes: { name: 'Sale', active: true, ends_at: null, price: { amount: 900, currency: 'USD' } } });
    expect(await price(t, id, '')).toMatchObject({ source: 'scheduled', amount: 900, compare_at: 1100, source_id: s.body.data.id });
    const c = await put(t, id, 'customer-prices', {
      prices: [
        { customer_id: 'cus_1', price: { amount: 700, currency: 'USD' } },
        { customer_group_id: 'vip', price: { amount: 750, currency: 'USD' } },
        { customer_group_id: 'b2b', price: { amount: 720, currency: 'USD' } },
      ],
    });
    expect(c.status).toBe(200);
    expect(c.body.data.attributes.customer_prices).toHaveLength(3);
    expect(await price(t, id, 'customer_group_id=vip')).toMatchObject({ source: 'customer_group', amount: 750, compare_at: 1100 });
    expect(await price(t, id, 'customer_group_id=vip,b2b')).toMatchObject({ source: 'customer_group', amount: 720 });
    expect(await price(t, id, 'customer_id=cus_1&customer_group_id=b2b')).toMatchObject({ source: 'customer', amount: 700 });
    expect(await price(t, id, 'customer_id=cus_2')).toMatchObject({ source: 'scheduled', amount: 900 });
    expect(await price(t, id, 'customer_id=cus_1&currency=EUR').catch((e: Error) => e.message)).toMatch(/422/);
  });

  test('window boundaries: starts_at inclusive, ends_at exclusive', async () => {
    const t = await createTenant();
    const id = await product(t, { amount: 1100, currency: 'USD' });
    const starts = '2030-01-01T00:00:00.000Z';
    const ends = '2030-01-08T00:00:00.000Z';
    const s = await rest('POST', `/v1/products/${id}/scheduled-prices`, {
      body: jsonApi('scheduled_price', { price: { amount: 800, currency: 'USD' }, starts_at: starts, ends_at: ends }),
      headers: t.keyHeaders,
    });
    expect(s.status).toBe(201);
    expect(s.body.data.attributes.active).toBe(false);
    const at = async (iso: string) => (await price(t, id, `at=${encodeURIComponent(iso)}`)).source;
    expect(await at('2029-12-31T23:59:59.999Z')).toBe('base');
    expect(await at(starts)).toBe('scheduled');
    expect(await at('2030-01-07T23:59:59.999Z')).toBe('scheduled');
    expect(await at(ends)).toBe('base');
    // overlapping windows: the latest started wins
    await rest('POST', `/v1/products/${id}/scheduled-prices`, {
      body: jsonApi('scheduled_price', { price: { amount: 700, currency: 'USD' }, starts_at: '2030-01-05T00:00:00Z' }),
      headers: t.keyHeaders,
    });
    expect((await price(t, id, 'at=2030-01-04T00:00:00Z')).amount).toBe(800);
    expect((await price(t, id, 'at=2030-01-06T00:00:00Z')).amount).toBe(700);
    expect((await price(t, id, 'at=2031-01-01T00:00:00Z')).amount).toBe(700);
    // removing it
    const del = await rest('DELETE', `/v1/products/${id}/scheduled-prices/${s.body.data.id}`, { headers: t.keyHeaders });
    expect(del.status).toBe(200);
    expect((await price(t, id, 'at=2030-01-04T00:00:00Z')).source).toBe('base');
    expectServiceError(await rest('DELETE', `/v1/products/${id}/scheduled-prices/${s.body.data.id}`, { headers: t.keyHeaders }), 'products', 404, 'NOT_FOUND', { parameter: 'scheduled_price_id' });
  });

  test('bad customer prices and scheduled prices → 422 naming the attribute', async () => {
    const t = await createTenant();
    const id = await product(t, { amount: 1100, currency: 'USD' });
    expectServiceError(await put(t, id, 'customer-prices', { prices: [{ price: { amount: 1, currency: 'USD' } }] }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'prices[0].customer_id' });
    expectServiceError(
      await put(t, id, 'customer-prices', { prices: [{ customer_id: 'a', customer_group_id: 'b', price: { amount: 1, currency: 'USD' } }] }),
      'products',
      422,
      'VALIDATION_FAILED',
      { parameter: 'prices[0].customer_id' },
    );
    const sched = (attrs: Record<string, unknown>) => rest('POST', `/v1/products/${id}/scheduled-prices`, { body: jsonApi('scheduled_price', attrs), headers: t.keyHeaders });
    expectServiceError(await sched({ price: { amount: 1, currency: 'USD' }, starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'ends_at' });
    expectServiceError(await sched({ price: { amount: 1, currency: 'USD' }, compare_at: { amount: 5, currency: 'EUR' }, starts_at: '2030-01-01T00:00:00Z' }), 'products', 422, 'INVALID_PRICE', {
      parameter: 'compare_at.currency',
    });
    expectServiceError(await sched({ price: { amount: 1, currency: 'USD' } }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'starts_at' });
    expectServiceError(await sched({ price: { amount: 1, currency: 'USD' }, starts_at: 'yesterday' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'starts_at' });
    expectServiceError(await rest('GET', `/v1/products/${id}/price?at=soon`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'at' });
    expectServiceError(await rest('GET', `/v1/products/${id}/price?quantity=0`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'quantity' });
  });

  test("another app's product → 404 on every pricing path", async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const id = await product(a, { amount: 1100, currency: 'USD' });
    expectServiceError(await rest('GET', `/v1/products/${id}/price`, { headers: b.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expectServiceError(await rest('GET', `/v1/products/${id}/pricing`, { headers: b.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expectServiceError(await put(b, id, 'prices', { prices: [{ amount: 1, currency: 'USD' }] }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expectServiceError(await put(b, id, 'price-tiers', { tiers: [] }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expectServiceError(await put(b, id, 'customer-prices', { prices: [] }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expectServiceError(
      await rest('POST', `/v1/products/${id}/scheduled-prices`, { body: jsonApi('scheduled_price', { price: { amount: 1, currency: 'USD' }, starts_at: '2030-01-01T00:00:00Z' }), headers: b.keyHeaders }),
      'products',
      404,
      'PRODUCT_NOT_FOUND',
    );
    expect((await price(a, id, '')).amount).toBe(1100);
  });
});

describe('GraphQL: many products in one call', () => {
  test('effectivePrices for 100 products (one statement) with per-product errors; Product.effectivePrice on a list', async () => {
    const t = await createTenant();
    const ids: string[] = [];
    for (let i = 0; i < 98; i++) ids.push(await product(t, { amount: 100 + i, currency: 'USD' }));
    await put(t, ids[5], 'price-tiers', { tiers: [{ min_quantity: 3, price: { amount: 50, currency: 'USD' } }] });
    const eurOnly = await product(t, { amount: 500, currency: 'EUR' });
    const query = `query($ids: [ID!]!) { effectivePrices(productIds: $ids, currency: "USD", quantity: 3) { items { id amount total source } errors { productId code message } } }`;
    const r = await gql(query, { ids: [...ids, eurOnly, 'prod_AAAAAAAAAAAAAAAAAAAA'] }, t.keyHeaders);
    expect(r.body.errors).toBeUndefined();
    const { items, errors } = r.body.data!.effectivePrices;
    expect(items).toHaveLength(98);
    expect(items[0]).toEqual({ id: ids[0], amount: 100, total: 300, source: 'base' });
    expect(items[5]).toEqual({ id: ids[5], amount: 50, total: 150, source: 'tier' });
    expect(errors.map((e: any) => [e.productId, e.code])).toEqual([
      [eurOnly, 'INVALID_PRICE'],
      ['prod_AAAAAAAAAAAAAAAAAAAA', 'PRODUCT_NOT_FOUND'],
    ]);
    const tooMany = await gql(query, { ids: [...ids, ...ids] }, t.keyHeaders);
    expect(tooMany.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', parameter: 'productIds' }); // GraphQL names the argument as the schema does

    // newest first: the EUR-only product has no USD price: its field is null with an error at its path, the rest of the page prices
    const list = await gql('{ products(page: 1, pageSize: 3) { items { id effectivePrice(currency: "USD", quantity: 2) { amount total source } } } }', {}, t.keyHeaders);
    expect(list.body.errors!.map((e: any) => [e.path, e.extensions.code])).toEqual([[['products', 'items', 0, 'effectivePrice'], 'INVALID_PRICE']]);
    expect(list.body.data!.products.items.map((p: any) => p.effectivePrice)).toEqual([null, { amount: 197, total: 394, source: 'base' }, { amount: 196, total: 392, source: 'base' }]);
  });
});
