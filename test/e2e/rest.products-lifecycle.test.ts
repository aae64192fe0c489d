// Products beyond create: every field of the Product table, get by SKU, PATCH, soft delete /
// restore / permanent, SKU uniqueness under concurrency, list filters, search, sort and include.
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

async function create(t: Tenant, attrs: Record<string, unknown>) {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'P', sku: uniq('S-'), ...attrs }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

describe('Product fields', () => {
  test('every field of the Product table round-trips; money formats per currency (JPY without decimals)', async () => {
    const t = await createTenant();
    const sku = uniq('FULL-');
    const r = await rest('POST', '/v1/products', {
      body: jsonApi('products', {
        name: 'Tea set',
        sku,
        description: 'Porcelain',
        short_description: 'Six cups',
        status: 'active',
        type: 'physical',
        price: { amount: 1500, currency: 'JPY', compare_at: 2000 },
        cost: { amount: 700, currency: 'JPY' },
        inventory: { quantity: 5, track_stock: true, allow_backorder: false, low_stock_threshold: 10 },
        weight: { value: 1.25, unit: 'kg' },
        dimensions: { length: 30, width: 20, height: 10.5, unit: 'cm' },
        attributes: { brand: 'Arita', 'glaze-type': 'celadon' },
        seo: { title: 'Tea set', description: 'A tea set', slug: 'tea-set' },
        metadata: { erpId: 42 },
      }),
      headers: t.keyHeaders,
    });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toMatchObject({
      name: 'Tea set',
      sku,
      description: 'Porcelain',
      short_description: 'Six cups',
      price: { amount: 1500, currency: 'JPY', compare_at: 2000, formatted: '¥1,500', compare_at_formatted: '¥2,000' },
      cost: { amount: 700, currency: 'JPY', formatted: '¥700' },
      inventory: { quantity: 5, track_stock: true, allow_backorder: false, low_stock_threshold: 10, available: 5, reserved: 0, in_stock: true, low_stock: true },
      weight: { value: 1.25, unit: 'kg' },
      dimensions: { length: 30, width: 20, height: 10.5, unit: 'cm' },
      attributes: { brand: 'Arita', 'glaze-type': 'celadon' },
      seo: { title: 'Tea set', description: 'A tea set', slug: 'tea-set' },
      metadata: { erpId: 42 },
      options: [],
    });
    const bySku = await rest('GET', `/v1/products/sku/${encodeURIComponent(sku)}`, { headers: t.keyHeaders });
    expect(bySku.status).toBe(200);
    expect(bySku.body.data.id).toBe(r.body.data.id);
    expectServiceError(await rest('GET', '/v1/products/sku/NOPE-1', { headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND', { parameter: 'sku' });
  });

  test.each([
    ['an unknown currency', { price: { amount: 100, currency: 'XYZ' } }, 422, 'INVALID_PRICE', 'price.currency'],
    ['a fractional amount', { price: { amount: 1.5, currency: 'USD' } }, 422, 'INVALID_PRICE', 'price.amount'],
    ['a bad cost', { cost: { amount: -1, currency: 'USD' } }, 422, 'INVALID_PRICE', 'cost.amount'],
    ['a bad status', { status: 'live' }, 422, 'VALIDATION_FAILED', 'status'],
    ['a bad type', { type: 'gift' }, 422, 'VALIDATION_FAILED', 'type'],
    ['a negative quantity', { inventory: { quantity: -1 } }, 422, 'VALIDATION_FAILED', 'inventory.quantity'],
    ['a bad weight unit', { weight: { value: 1, unit: 'stone' } }, 422, 'VALIDATION_FAILED', 'weight.unit'],
    ['a bad seo slug', { seo: { slug: 'Not A Slug' } }, 422, 'VALIDATION_FAILED', 'seo.slug'],
    ['an empty name', { name: '  ' }, 422, 'VALIDATION_FAILED', 'name'],
  ])('%s → %p %s naming %s, nothing written', async (_what, attrs, status, code, parameter) => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Bad', sku: uniq('B-'), ...attrs }), headers: t.keyHeaders });
    expectServiceError(r, 'products', status, code, { parameter });
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(0);
  });

  test('relationships.categories assigns categories on create; an unknown one → 404 CATEGORY_NOT_FOUND and no product', async () => {
    const t = await createTenant();
    const c = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Kitchen' }), headers: t.keyHeaders });
    expect(c.status).toBe(201);
    const body = { data: { type: 'products', attributes: { name: 'Pan', sku: uniq('PAN-') }, relationships: { categories: { data: [{ type: 'categories', id: c.body.data.id }] } } } };
    const r = await rest('POST', '/v1/products', { body, headers: t.keyHeaders });
    expect(r.status).toBe(201);
    const got = await rest('GET', `/v1/products/${r.body.data.id}?include=categories`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.categories.map((x: any) => x.id)).toEqual([c.body.data.id]);
    const bad = { data: { type: 'products', attributes: { name: 'Pot', sku: uniq('POT-') }, relationships: { categories: { data: [{ type: 'categories', id: 'cat_nope' }] } } } };
    expectServiceError(await rest('POST', '/v1/products', { body: bad, headers: t.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(1);
  });
});

describe('PATCH, delete, restore', () => {
  test('PATCH changes only the given attributes; draft → active; SKU changes keep uniqueness', async () => {
    const t = await createTenant();
    const a = await create(t, { name: 'Lamp', price: { amount: 1000, currency: 'USD' } });
    const b = await create(t, { name: 'Other' });
    const r = await rest('PATCH', `/v1/products/${a.id}`, { body: { data: { type: 'products', id: a.id, attributes: { status: 'active', description: 'Bright' } } }, headers: t.keyHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ name: 'Lamp', status: 'active', description: 'Bright', price: { amount: 1000, formatted: '$10.00' } });
    const dup = await rest('PATCH', `/v1/products/${a.id}`, { body: jsonApi('products', { sku: b.attributes.sku }), headers: t.keyHeaders });
    expectServiceError(dup, 'products', 409, 'SKU_ALREADY_EXISTS', { parameter: 'sku' });
    const cleared = await rest('PATCH', `/v1/products/${a.id}`, { body: jsonApi('products', { price: null }), headers: t.keyHeaders });
    expect(cleared.body.data.attributes.price).toBeNull();
    expectServiceError(await rest('PATCH', '/v1/products/prod_AAAAAAAAAAAAAAAAAAAA', { body: jsonApi('products', { name: 'x' }), headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
  });

  test('PATCH of price, compare_at and cost takes integer amounts (stored as bigint): 200 and the new values read back', async () => {
    const t = await createTenant();
    const a = await create(t, { name: 'Lamp', price: { amount: 1000, currency: 'USD' } });
    const r = await rest('PATCH', `/v1/products/${a.id}`, { body: { data: { type: 'products', id: a.id, attributes: { price: { amount: 1250, currency: 'USD', compare_at: 1500 }, cost: { amount: 400, currency: 'USD' } } } }, headers: t.keyHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ price: { amount: 1250, currency: 'USD', compare_at: 1500, formatted: '$12.50' }, cost: { amount: 400, currency: 'USD' } });
    const got = await rest('GET', `/v1/products/${a.id}`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.price).toMatchObject({ amount: 1250, compare_at: 1500 });
    const again = await rest('PATCH', `/v1/products/${a.id}`, { body: jsonApi('products', { price: { amount: 999, currency: 'EUR' } }), headers: t.keyHeaders });
    expect(again.status).toBe(200);
    expect(again.body.data.attributes.price).toMatchObject({ amount: 999, currency: 'EUR' });
  });

  test('soft delete hides the product and keeps its SKU; restore brings it back; permanent frees the SKU', async () => {
    const t = await createTenant();
    const p = await create(t, {});
    const sku = p.attributes.sku;
    const del = await rest('DELETE', `/v1/products/${p.id}`, { headers: t.keyHeaders });
    expect(del.status).toBe(200);
    expect(del.body.meta).toEqual({ deleted: true, permanent: false });
    expectServiceError(await rest('GET', `/v1/products/${p.id}`, { headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(0);
    expect((await rest('GET', '/v1/products?filter[deleted]=true', { headers: t.keyHeaders })).body.data.map((x: any) => x.id)).toEqual([p.id]);
    expectServiceError(await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Again', sku }), headers: t.keyHeaders }), 'products', 409, 'SKU_ALREADY_EXISTS');
    expectServiceError(await rest('DELETE', `/v1/products/${p.id}`, { headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    const restored = await rest('POST', `/v1/products/${p.id}/restore`, { headers: t.keyHeaders });
    expect(restored.status).toBe(200);
    expect((await rest('GET', `/v1/products/${p.id}`, { headers: t.keyHeaders })).status).toBe(200);
    expectServiceError(await rest('POST', `/v1/products/${p.id}/restore`, { headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    const gone = await rest('DELETE', `/v1/products/${p.id}?permanent=true`, { headers: t.keyHeaders });
    expect(gone.body.meta).toEqual({ deleted: true, permanent: true });
    expect((await rest('GET', '/v1/products?filter[deleted]=true', { headers: t.keyHeaders })).body.meta.total).toBe(0);
    expect((await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Again', sku }), headers: t.keyHeaders })).status).toBe(201);
    expectServiceError(await rest('DELETE', `/v1/products/${p.id}?permanent=maybe`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'permanent' });
  });

  test('concurrent PATCHes of one product wait for each other: all succeed', async () => {
    const t = await createTenant();
    const p = await create(t, {});
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => rest('PATCH', `/v1/products/${p.id}`, { body: jsonApi('products', { name: `N${i}` }), headers: t.keyHeaders })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  test('concurrent creates with one SKU: exactly one succeeds', async () => {
    const t = await createTenant();
    const sku = uniq('RACE-');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => rest('POST', '/v1/products', { body: jsonApi('products', { name: `R${i}`, sku }), headers: t.keyHeaders })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectServiceError(r, 'products', 409, 'SKU_ALREADY_EXISTS', { parameter: 'sku' });
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(1);
  });
});

describe('GET /v1/products filters, search, sort, include', () => {
  let t: Tenant;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTenant();
    const cat = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Lighting', slug: 'lighting' }), headers: t.keyHeaders });
    ids.cat = cat.body.data.id;
    ids.lamp = (await create(t, { name: 'Brass desk lamp', status: 'active', price: { amount: 4999, currency: 'USD' }, inventory: { quantity: 3 } })).id;
    ids.bulb = (await create(t, { name: 'LED bulb', status: 'active', price: { amount: 599, currency: 'USD' }, inventory: { quantity: 0 } })).id;
    ids.guide = (await create(t, { name: 'Lighting guide', type: 'digital', price: { amount: 1500, currency: 'USD' }, description: 'An ebook about lamps', inventory: { track_stock: false } })).id;
    await rest('POST', `/v1/categories/${ids.cat}/products`, { body: { data: { product_ids: [ids.lamp, ids.bulb] } }, headers: t.keyHeaders });
  });
  const list = async (q: string) => {
    const r = await rest('GET', `/v1/products?${q}`, { headers: t.keyHeaders });
    expect(r.status).toBe(200);
    return r.body.data.map((p: any) => p.id);
  };

  test('each documented filter', async () => {
    expect(await list('filter[status]=active&sort=name')).toEqual([ids.lamp, ids.bulb]);
    expect(await list('filter[type]=digital')).toEqual([ids.guide]);
    expect(await list('filter[price_min]=1000&filter[price_max]=2000')).toEqual([ids.guide]);
    expect((await list('filter[in_stock]=true&sort=name')).sort()).toEqual([ids.lamp, ids.guide].sort());
    expect(await list('filter[in_stock]=false')).toEqual([ids.bulb]);
    expect(await list('filter[category]=lighting&sort=price')).toEqual([ids.bulb, ids.lamp]);
    expect(await list(`filter[category]=${ids.cat}&sort=-price`)).toEqual([ids.lamp, ids.bulb]);
    expect(await list(`filter[created_after]=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
  });

  test('search (full text over name, SKU, description) ranks matches', async () => {
    expect((await list('search=lamp')).sort()).toEqual([ids.lamp, ids.guide].sort());
    expect(await list('search=bulb')).toEqual([ids.bulb]);
  });

  test('include=variants,categories,images nests them in attributes', async () => {
    const r = await rest('GET', '/v1/products?include=variants,categories,images&sort=name', { headers: t.keyHeaders });
    expect(r.body.errors).toBeUndefined();
    const lamp = r.body.data.find((p: any) => p.id === ids.lamp);
    expect(lamp.attributes.categories.map((c: any) => c.attributes.slug)).toEqual(['lighting']);
    expect(lamp.attributes.variants).toEqual([]);
    expect(lamp.attributes.images).toEqual([]);
    const plain = await rest('GET', '/v1/products', { headers: t.keyHeaders });
    expect(plain.body.data[0].attributes.variants).toBeUndefined();
  });

  test.each([
    ['sort=cheapest', 'sort'],
    ['filter[status]=live', 'filter[status]'],
    ['filter[in_stock]=maybe', 'filter[in_stock]'],
    ['filter[price_min]=-1', 'filter[price_min]'],
    ['filter[created_after]=yesterday', 'filter[created_after]'],
    ['include=owners', 'include'],
  ])('%s → 400 naming %s', async (q, parameter) => {
    expectServiceError(await rest('GET', `/v1/products?${q}`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter });
  });

  test('an unknown filter[category] → 404 CATEGORY_NOT_FOUND naming it', async () => {
    expectServiceError(await rest('GET', '/v1/products?filter[category]=nope', { headers: t.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND', { parameter: 'filter[category]' });
  });

  test('GraphQL: the same products through the gateway', async () => {
    const r = await gql('{ products(pageSize: 5, sort: "name", filter: { status: "active" }) { total items { name categories { slug } } } }', {}, t.keyHeaders);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!.products.items.map((p: any) => p.name)).toEqual(['Brass desk lamp', 'LED bulb']);
  });
});

describe('per-endpoint limits', () => {
  test('POST /v1/products: 100 per minute per key, then 429 with Retry-After and X-RateLimit-*', async () => {
    const t = await createTenant();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof rest>> | undefined;
    for (let batch = 0; batch < 10; batch++) {
      const rs = await Promise.all(Array.from({ length: 10 }, () => rest('POST', '/v1/products', { body: jsonApi('products', { name: 'L', sku: uniq('L-') }), headers: t.keyHeaders })));
      statuses.push(...rs.map((r) => r.status));
      last = rs[rs.length - 1];
    }
    // a window may roll over mid-run; then fewer than 100 are counted in the last one and no 429 is due yet
    expect(statuses.every((s) => s === 201)).toBe(true);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('100');
    const over = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'L', sku: uniq('L-') }), headers: t.keyHeaders });
    const remaining = Number(last!.headers.get('x-ratelimit-remaining'));
    // on a slow machine the window can also roll over between the last batch and this request: then it
    // is the first of a fresh window (201, 99 left), not a missed limit
    const freshWindow = over.status === 201 && Number(over.headers.get('x-ratelimit-remaining')) >= 90;
    if (remaining === 0 && !freshWindow) {
      expectServiceError(over, 'products', 429, 'RATE_LIMITED');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      // another endpoint keeps its own budget
      expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);
    } else {
      expect(over.status).toBe(201);
    }
  });
});
