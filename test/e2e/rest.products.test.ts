// Products REST paths end to end: REST bridge → gateway → catalog subgraph → PostgreSQL, and the
// bridge's request pipeline (JSON, JSON:API envelope, size limit, routing) in the products shape.
import { createTenant, jsonApi, rest, uniq } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('POST /v1/products and GET /v1/products/:id', () => {
  test('201 with price.formatted; the product reads back by id', async () => {
    const t = await createTenant();
    const sku = uniq('LAMP-');
    const created = await rest('POST', '/v1/products', {
      body: jsonApi('products', {
        name: 'Desk lamp',
        sku,
        description: 'Warm light',
        status: 'active',
        price: { amount: 1999, currency: 'USD', compare_at: 2499 },
        attributes: { colorName: 'brass', 'wattage-w': 40 },
        metadata: { importBatch: 7 },
      }),
      headers: t.keyHeaders,
    });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.type).toBe('products');
    expect(data.id).toMatch(/^prod_[A-Za-z0-9]{20}$/);
    expect(data.attributes).toMatchObject({
      name: 'Desk lamp',
      sku,
      description: 'Warm light',
      status: 'active',
      type: 'physical',
      price: { amount: 1999, currency: 'USD', compare_at: 2499, formatted: '$19.99', compare_at_formatted: '$24.99' },
      // free-form objects keep the client's keys
      attributes: { colorName: 'brass', 'wattage-w': 40 },
      metadata: { importBatch: 7 },
    });
    expect(data.attributes.created_at).toMatch(ISO);
    expect(data.attributes.updated_at).toMatch(ISO);

    const got = await rest('GET', `/v1/products/${data.id}`, { headers: t.keyHeaders });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(data);
  });

  test('defaults: status draft, type physical, no price; EUR formats with its symbol', async () => {
    const t = await createTenant();
    const plain = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Plain', sku: uniq('P-') }), headers: t.keyHeaders });
    expect(plain.status).toBe(201);
    expect(plain.body.data.attributes).toMatchObject({ status: 'draft', type: 'physical', price: null });
    const eur = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Euro', sku: uniq('E-'), price: { amount: 500, currency: 'EUR' } }), headers: t.keyHeaders });
    expect(eur.status).toBe(201);
    expect(eur.body.data.attributes.price).toMatchObject({ amount: 500, currency: 'EUR', formatted: '€5.00' });
  });

  test('unknown id → 404 PRODUCT_NOT_FOUND', async () => {
    const t = await createTenant();
    const r = await rest('GET', '/v1/products/prod_AAAAAAAAAAAAAAAAAAAA', { headers: t.keyHeaders });
    expectServiceError(r, 'products', 404, 'PRODUCT_NOT_FOUND');
  });

  test('duplicate SKU → 409 SKU_ALREADY_EXISTS naming sku, and only one product exists', async () => {
    const t = await createTenant();
    const sku = uniq('DUP-');
    expect((await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'One', sku }), headers: t.keyHeaders })).status).toBe(201);
    const dup = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Two', sku }), headers: t.keyHeaders });
    expectServiceError(dup, 'products', 409, 'SKU_ALREADY_EXISTS', { parameter: 'sku' });
    expect(dup.body.errors).toHaveLength(1);
    const list = await rest('GET', '/v1/products', { headers: t.keyHeaders });
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data[0].attributes.name).toBe('One');
  });

  test.each([
    ['a negative amount', { amount: -5, currency: 'USD' }, 'price.amount'],
    ['a lower-case currency', { amount: 100, currency: 'usd' }, 'price.currency'],
    ['a negative compare_at', { amount: 100, currency: 'USD', compare_at: -1 }, 'price.compare_at'],
  ])('bad price (%s) → 422 INVALID_PRICE with source.parameter', async (_what, price, parameter) => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Bad', sku: uniq('B-'), price }), headers: t.keyHeaders });
    expectServiceError(r, 'products', 422, 'INVALID_PRICE', { parameter });
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(0);
  });

  test.each([
    ['a fractional amount', { amount: 19.99, currency: 'USD' }, 'price.amount'],
    ['a non-numeric amount', { amount: 'free', currency: 'USD' }, 'price.amount'],
    ['a fractional compare_at', { amount: 100, currency: 'USD', compare_at: 1.5 }, 'price.compare_at'],
    ['a price that is not an object', 'free', 'price'],
  ])('price with %s → 422 INVALID_PRICE (the documented code, whatever layer refuses it) on create and PATCH', async (_what, price, parameter) => {
    const t = await createTenant();
    expectServiceError(await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('P-'), price }), headers: t.keyHeaders }), 'products', 422, 'INVALID_PRICE', { parameter });
    const p = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('P-') }), headers: t.keyHeaders });
    expectServiceError(await rest('PATCH', `/v1/products/${p.body.data.id}`, { body: jsonApi('products', { price }), headers: t.keyHeaders }), 'products', 422, 'INVALID_PRICE', { parameter });
  });

  test('price tiers and per-currency prices with a non-integer amount → 422 INVALID_PRICE naming it', async () => {
    const t = await createTenant();
    const p = (await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('P-'), price: { amount: 1000, currency: 'USD' } }), headers: t.keyHeaders })).body.data.id;
    const tiers = await rest('PUT', `/v1/products/${p}/price-tiers`, { body: { data: { tiers: [{ min_quantity: 1, max_quantity: null, price: { amount: 9.5, currency: 'USD' } }] } }, headers: t.keyHeaders });
    expectServiceError(tiers, 'products', 422, 'INVALID_PRICE', { parameter: 'tiers[0].price.amount' });
    const prices = await rest('PUT', `/v1/products/${p}/prices`, { body: { data: { prices: [{ amount: 'free', currency: 'EUR' }] } }, headers: t.keyHeaders });
    expectServiceError(prices, 'products', 422, 'INVALID_PRICE', { parameter: 'prices[0].amount' });
    // a non-price attribute keeps the generic code
    const qty = await rest('PUT', `/v1/products/${p}/price-tiers`, { body: { data: { tiers: [{ min_quantity: 1.5, max_quantity: null, price: { amount: 900, currency: 'USD' } }] } }, headers: t.keyHeaders });
    expectServiceError(qty, 'products', 422, 'VALIDATION_FAILED', { parameter: 'tiers[0].min_quantity' });
  });

  test.each([
    ['an attribute the product does not have', { colour: 'red' }, 'colour'],
    ['a camelCase spelling', { shortDescription: 'Warm' }, 'shortDescription'],
  ])('%s → 422 VALIDATION_FAILED naming it; nothing is written', async (_what, extra, parameter) => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('P-'), ...extra }), headers: t.keyHeaders });
    expectServiceError(r, 'products', 422, 'VALIDATION_FAILED', { parameter });
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(0);
  });

  test('a product read and sent back as it was answered is taken (read-only attributes are ignored); PATCH names unknown ones too', async () => {
    const t = await createTenant();
    const created = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('P-'), price: { amount: 1000, currency: 'USD' } }), headers: t.keyHeaders });
    const { id, attributes } = created.body.data;
    const { price: _price, inventory: _inventory, ...echo } = attributes; // nested answers (formatted, available) are not inputs
    const back = await rest('PATCH', `/v1/products/${id}`, { body: { data: { type: 'products', id, attributes: { ...echo, name: 'Lamp 2' } } }, headers: t.keyHeaders });
    expect(back.status).toBe(200);
    expect(back.body.data.attributes.name).toBe('Lamp 2');
    expectServiceError(await rest('PATCH', `/v1/products/${id}`, { body: jsonApi('products', { colour: 'red' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'colour' });
  });

  test.each([
    ['attributes', 'not-an-object'],
    ['metadata', [1, 2]],
  ])('%s that is not a JSON object → 422 naming it (not 500)', async (name, value) => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Bad', sku: uniq('B-'), [name]: value }), headers: t.keyHeaders });
    expectServiceError(r, 'products', 422, 'VALIDATION_FAILED', { parameter: name });
  });

  test('a missing required attribute → 422 naming it', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'No sku' }), headers: t.keyHeaders });
    expectServiceError(r, 'products', 422, 'VALIDATION_FAILED', { parameter: 'sku' });
  });
});

describe('GET /v1/products (list)', () => {
  test('page[number] / page[size] with meta total; newest first', async () => {
    const t = await createTenant();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: `P${n}`, sku: uniq(`S${n}-`) }), headers: t.keyHeaders });
      expect(r.status).toBe(201);
      ids.push(r.body.data.id);
    }
    const p1 = await rest('GET', '/v1/products?page[number]=1&page[size]=2', { headers: t.keyHeaders });
    expect(p1.status).toBe(200);
    expect(p1.body.meta).toEqual({ total: 3, page: 1, per_page: 2 });
    expect(p1.body.data.map((p: any) => p.id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.data[0].type).toBe('products');

    // brackets percent-encoded, as most HTTP clients send them
    const p2 = await rest('GET', `/v1/products?${encodeURIComponent('page[number]')}=2&${encodeURIComponent('page[size]')}=2`, { headers: t.keyHeaders });
    expect(p2.status).toBe(200);
    expect(p2.body.meta).toEqual({ total: 3, page: 2, per_page: 2 });
    expect(p2.body.data.map((p: any) => p.id)).toEqual([ids[0]]);

    const dflt = await rest('GET', '/v1/products', { headers: t.keyHeaders });
    expect(dflt.body.meta).toEqual({ total: 3, page: 1, per_page: 20 });
  });

  test('page[size]=101 → 400 naming page[size]; page[number]=0 → 400 naming page[number]', async () => {
    const t = await createTenant();
    expectServiceError(await rest('GET', '/v1/products?page[size]=101', { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'page[size]' });
    expectServiceError(await rest('GET', '/v1/products?page[number]=0', { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'page[number]' });
    expectServiceError(await rest('GET', '/v1/products?page[size]=abc', { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'page[size]' });
    expect((await rest('GET', '/v1/products?page[size]=100', { headers: t.keyHeaders })).status).toBe(200);
  });
});

describe('request pipeline, products shape', () => {
  test('malformed JSON → 400', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { raw: '{"data": {"type": "products", "attributes": {', headers: t.keyHeaders });
    expectServiceError(r, 'products', 400, 'INVALID_JSON');
  });

  test('a plain JSON object of the attributes (no data) is taken too; a body that is not an object → 400 naming data', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: { name: 'flat', sku: uniq('F-') }, headers: t.keyHeaders });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes.name).toBe('flat');
    expectServiceError(await rest('POST', '/v1/products', { body: [{ name: 'flat' }], headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'data' });
  });

  test('wrong data.type → 409 naming data.type, nothing written', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: jsonApi('indexes', { name: 'x', sku: uniq('X') }), headers: t.keyHeaders });
    expectServiceError(r, 'products', 409, 'INVALID_RESOURCE_TYPE', { parameter: 'data.type' });
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(0);
  });

  test('a body over 1 MiB → 413 in the products shape', async () => {
    const t = await createTenant();
    const big = JSON.stringify(jsonApi('products', { name: 'Big', sku: uniq('BIG-'), description: 'x'.repeat(1024 * 1024 + 10) }));
    const r = await rest('POST', '/v1/products', { raw: big, headers: t.keyHeaders });
    expectServiceError(r, 'products', 413, 'PAYLOAD_TOO_LARGE');
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).body.meta.total).toBe(0);
  });

  test('a non-JSON content type → 415', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { raw: 'name=x', headers: { ...t.keyHeaders, 'content-type': 'application/x-www-form-urlencoded' } });
    expectServiceError(r, 'products', 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('unknown path → 404 in the products shape', async () => {
    const t = await createTenant();
    expectServiceError(await rest('GET', '/v1/no-such-thing', { headers: t.keyHeaders }), 'products', 404, 'ROUTE_NOT_FOUND');
  });

  test('wrong method → 405 with Allow', async () => {
    const t = await createTenant();
    const r = await rest('PUT', '/v1/products', { body: jsonApi('products', { name: 'x' }), headers: t.keyHeaders });
    expectServiceError(r, 'products', 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('GET, POST');
  });

  test('the key may also be sent as Authorization: Bearer <key>', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Bearer', sku: uniq('BR-') }), headers: { 'x-app-id': t.appId, authorization: `Bearer ${t.secretKey}` } });
    expect(r.status).toBe(201);
    const got = await rest('GET', `/v1/products/${r.body.data.id}`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.name).toBe('Bearer');
  });

  test('a platform JWT with X-App-Id (no key) → 401 saying an API key is required, not 403', async () => {
    const t = await createTenant();
    const r = await rest('GET', '/v1/products', { headers: { 'x-app-id': t.appId, authorization: `Bearer ${t.adminToken}` } });
    expectServiceError(r, 'products', 401, 'UNAUTHENTICATED');
    expect(r.body.errors[0].detail).toMatch(/API key is required/);
    // the same JWT beside a key changes nothing: the key authenticates
    expect((await rest('GET', '/v1/products', { headers: { ...t.keyHeaders, authorization: `Bearer ${t.adminToken}` } })).status).toBe(200);
  });

  test("a tenant's products are invisible to another tenant", async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const sku = uniq('ISO-');
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'A only', sku }), headers: a.keyHeaders });
    expect(r.status).toBe(201);
    expectServiceError(await rest('GET', `/v1/products/${r.body.data.id}`, { headers: b.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expect((await rest('GET', '/v1/products', { headers: b.keyHeaders })).body.meta.total).toBe(0);
    // SKUs are unique per tenant, not globally
    expect((await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'B too', sku }), headers: b.keyHeaders })).status).toBe(201);
  });
});
