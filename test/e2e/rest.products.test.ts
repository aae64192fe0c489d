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

  test('a body without data → 400 naming data', async () => {
    const t = await createTenant();
    const r = await rest('POST', '/v1/products', { body: { name: 'flat', sku: 'X' }, headers: t.keyHeaders });
    expectServiceError(r, 'products', 400, 'BAD_REQUEST', { parameter: 'data' });
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
