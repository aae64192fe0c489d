// Product search (fed through the job queue), suggestions, product webhooks (signed, through the
// outbox) and the productEvents subscription, end to end.
import { createHmac } from 'node:crypto';
import { createTenant, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver } from '../harness/webhook-receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function create(t: Tenant, attrs: Record<string, unknown>) {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'P', sku: uniq('S-'), status: 'active', ...attrs }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Poll the search until `pred` holds; answers the response and how long it took. */
async function searchUntil(t: Tenant, q: string, pred: (body: any) => boolean, timeoutMs = 5000): Promise<{ body: any; ms: number }> {
  const start = Date.now();
  for (;;) {
    const r = await rest('GET', `/v1/products/search?${q}`, { headers: t.keyHeaders });
    expect(r.status).toBe(200);
    if (pred(r.body)) return { body: r.body, ms: Date.now() - start };
    if (Date.now() - start > timeoutMs) throw new Error(`search ${q} never matched: ${JSON.stringify(r.body)}`);
    await sleep(50);
  }
}

describe('GET /v1/products/search', () => {
  test('a new product is searchable within a second, with typos and prefixes; facets and suggestions in meta', async () => {
    const t = await createTenant();
    const c = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Lighting' }), headers: t.keyHeaders });
    const lampBody = { data: { type: 'products', attributes: { name: 'Brass desk lamp', sku: uniq('L-'), status: 'active', price: { amount: 4999, currency: 'USD' }, attributes: { brand: 'Lumen' } }, relationships: { categories: { data: [{ type: 'categories', id: c.body.data.id }] } } } };
    const lamp = (await rest('POST', '/v1/products', { body: lampBody, headers: t.keyHeaders })).body.data;
    await create(t, { name: 'Floor lamp', price: { amount: 12000, currency: 'USD' }, attributes: { brand: 'Lumen' } });
    await create(t, { name: 'Desk organiser', price: { amount: 1500, currency: 'USD' }, attributes: { brand: 'Tidy' } });
    await create(t, { name: 'Hidden lamp draft', status: 'draft' });
    const first = await searchUntil(t, 'q=lamp', (b) => b.meta.total === 2 && b.meta.facets.category.length === 1);
    expect(first.ms).toBeLessThan(1000);
    expect(first.body.data.map((p: any) => p.attributes.name).sort()).toEqual(['Brass desk lamp', 'Floor lamp']);
    expect(first.body.meta).toMatchObject({
      total: 2,
      page: 1,
      per_page: 20,
      facets: { category: [{ value: 'Lighting', count: 1 }], brand: [{ value: 'Lumen', count: 2 }] },
    });
    expect(first.body.meta.facets.price_range).toEqual([{ min: 2500, max: 5000, count: 1 }, { min: 10000, max: 25000, count: 1 }]);
    expect(Array.isArray(first.body.meta.suggestions)).toBe(true);
    // typo and prefix
    expect((await searchUntil(t, 'q=brsas', (b) => b.meta.total >= 1)).body.data[0].id).toBe(lamp.id);
    expect((await searchUntil(t, 'q=orga', (b) => b.meta.total === 1)).body.data[0].attributes.name).toBe('Desk organiser');
    // filters, sort, paging
    const filtered = await searchUntil(t, 'q=desk&filters[brand]=Lumen', (b) => b.meta.total === 1);
    expect(filtered.body.data[0].id).toBe(lamp.id);
    const priced = await searchUntil(t, 'filters[price][min]=2000&filters[price][max]=20000&sort=-price', (b) => b.meta.total === 2);
    expect(priced.body.data.map((p: any) => p.attributes.name)).toEqual(['Floor lamp', 'Brass desk lamp']);
    const cat = await searchUntil(t, 'q=lamp&filters[category]=Lighting', (b) => b.meta.total === 1);
    expect(cat.body.data[0].id).toBe(lamp.id);
    const paged = await searchUntil(t, 'sort=name&page=2&per_page=1', (b) => b.meta.total === 3);
    expect(paged.body.data.map((p: any) => p.attributes.name)).toEqual(['Desk organiser']);
  });

  test('category assignments reach the index (POST /v1/categories/:id/products, DELETE …/products/:product_id)', async () => {
    const t = await createTenant();
    const c = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Garden' }), headers: t.keyHeaders });
    const p = await create(t, { name: 'Hose reel' });
    await searchUntil(t, 'q=hose', (b) => b.meta.total === 1);
    await rest('POST', `/v1/categories/${c.body.data.id}/products`, { body: { data: { product_ids: [p.id] } }, headers: t.keyHeaders });
    await searchUntil(t, 'q=hose&filters[category]=Garden', (b) => b.meta.total === 1);
    await rest('DELETE', `/v1/categories/${c.body.data.id}/products/${p.id}`, { headers: t.keyHeaders });
    await searchUntil(t, 'q=hose&filters[category]=Garden', (b) => b.meta.total === 0);
  });

  test('filters[category] takes the category id or slug (as the product list does) as well as its name; facets count it', async () => {
    const t = await createTenant();
    const c = (await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Patio Furniture', slug: 'patio' }), headers: t.keyHeaders })).body.data;
    const assigned = await create(t, { name: 'Teak bench' });
    await create(t, { name: 'Teak stool' });
    await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { product_ids: [assigned.id] } }, headers: t.keyHeaders });
    // a product created with the relationship is found by id too
    const related = await rest('POST', '/v1/products', { body: { data: { type: 'products', attributes: { name: 'Teak table', sku: uniq('T-'), status: 'active' }, relationships: { categories: { data: [{ type: 'categories', id: c.id }] } } } }, headers: t.keyHeaders });
    expect(related.status).toBe(201);
    for (const value of [c.id, 'patio', 'Patio Furniture']) {
      const r = await searchUntil(t, `q=teak&filters[category]=${encodeURIComponent(value)}`, (b) => b.meta.total === 2);
      expect(r.body.data.map((x: any) => x.id).sort()).toEqual([assigned.id, related.body.data.id].sort());
      expect(r.body.meta.facets.category).toEqual([{ value: 'Patio Furniture', count: 2 }]);
    }
    expect((await rest('GET', `/v1/products/search?q=teak&filters[category]=cat_nope`, { headers: t.keyHeaders })).body.meta.total).toBe(0);
    // another tenant's category id finds nothing here
    const other = await createTenant();
    expect((await rest('GET', `/v1/products/search?q=teak&filters[category]=${c.id}`, { headers: other.keyHeaders })).body.meta.total).toBe(0);
  });

  test('renaming a category re-indexes its products; deleting it drops it from their documents', async () => {
    const t = await createTenant();
    const c = (await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Sheds' }), headers: t.keyHeaders })).body.data;
    const p = await create(t, { name: 'Tool rack' });
    await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { product_ids: [p.id] } }, headers: t.keyHeaders });
    await searchUntil(t, 'q=rack&filters[category]=Sheds', (b) => b.meta.total === 1);
    await rest('PATCH', `/v1/categories/${c.id}`, { body: jsonApi('categories', { name: 'Outbuildings' }), headers: t.keyHeaders });
    const renamed = await searchUntil(t, 'q=rack&filters[category]=Outbuildings', (b) => b.meta.total === 1);
    expect(renamed.ms).toBeLessThan(1000);
    expect(renamed.body.meta.facets.category).toEqual([{ value: 'Outbuildings', count: 1 }]);
    await rest('DELETE', `/v1/categories/${c.id}`, { headers: t.keyHeaders });
    await searchUntil(t, 'q=rack', (b) => b.meta.total === 1 && b.meta.facets.category.length === 0);
  });

  test('changes and deletes reach the index; other tenants see nothing', async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const p = await create(t, { name: 'Walnut shelf' });
    await searchUntil(t, 'q=walnut', (b) => b.meta.total === 1);
    expect((await rest('GET', '/v1/products/search?q=walnut', { headers: other.keyHeaders })).body.meta.total).toBe(0);
    await rest('PATCH', `/v1/products/${p.id}`, { body: jsonApi('products', { name: 'Oak shelf' }), headers: t.keyHeaders });
    await searchUntil(t, 'q=oak', (b) => b.meta.total === 1);
    await rest('DELETE', `/v1/products/${p.id}`, { headers: t.keyHeaders });
    await searchUntil(t, 'q=oak', (b) => b.meta.total === 0);
  });

  test.each([
    ['per_page=101', 'per_page'],
    ['page=0', 'page'],
    ['sort=popularity', 'sort'],
    ['filters[price][min]=abc', 'filters[price][min]'],
  ])('%s → 400 naming %s', async (q, parameter) => {
    const t = await createTenant();
    expectServiceError(await rest('GET', `/v1/products/search?${q}`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter });
  });

  test('suggest: suggestions and products (id, name, image_url) for a prefix; empty q suggests nothing', async () => {
    const t = await createTenant();
    const p = await create(t, { name: 'Ceramic teapot' });
    await searchUntil(t, 'q=teapot', (b) => b.meta.total === 1);
    const r = await rest('GET', '/v1/products/search/suggest?q=tea', { headers: t.keyHeaders });
    expect(r.status).toBe(200);
    // document 3: `data.suggestions` (array of strings) and `data.products` (id, name, image URL)
    expect(r.body.data.suggestions).toContain('Ceramic teapot');
    expect(r.body.data.products).toEqual([{ id: p.id, name: 'Ceramic teapot', image_url: null }]);
    expect(r.body.data.attributes).toBeUndefined();
    const empty = await rest('GET', '/v1/products/search/suggest', { headers: t.keyHeaders });
    expect(empty.body.data).toMatchObject({ suggestions: [], products: [] });
    expectServiceError(await rest('GET', `/v1/products/search/suggest?q=${'x'.repeat(101)}`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'q' });
  });
});

describe('product webhooks', () => {
  test('POST /v1/webhooks; product.created, product.published, product.updated, variant.created delivered signed', async () => {
    const t = await createTenant();
    const rx = await startReceiver();
    try {
      const secret = 'catalog-webhook-secret-1';
      const reg = await rest('POST', '/v1/webhooks', { body: jsonApi('webhooks', { url: `${rx.url}/hook`, events: ['product.*', 'variant.created'], secret }), headers: t.keyHeaders });
      expect(reg.status).toBe(201);
      expect(reg.body.data.attributes).toMatchObject({ url: `${rx.url}/hook`, events: ['product.*', 'variant.created'], active: true });
      expect(reg.body.data.attributes.secret).toBeUndefined();
      const p = await create(t, { name: 'Hooked', status: 'draft' });
      const created = await rx.waitFor((r) => r.json?.event === 'product.created');
      expect(created.json).toMatchObject({ event: 'product.created', data: { id: p.id, name: 'Hooked', status: 'draft' } });
      expect(created.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
      const sig = String(created.headers['x-webhook-signature']);
      const [tPart, v1] = sig.split(',');
      const ts = tPart.slice(2);
      expect(v1.slice(3)).toBe(createHmac('sha256', secret).update(`${ts}.${created.body}`).digest('hex'));
      await rest('PATCH', `/v1/products/${p.id}`, { body: jsonApi('products', { status: 'active' }), headers: t.keyHeaders });
      await rx.waitFor((r) => r.json?.event === 'product.published' && r.json.data.id === p.id);
      await rx.waitFor((r) => r.json?.event === 'product.updated' && r.json.data.id === p.id);
      await rest('PUT', `/v1/products/${p.id}/options`, { body: { data: { options: [{ name: 'Size', values: ['S'] }] } }, headers: t.keyHeaders });
      await rest('POST', `/v1/products/${p.id}/variants`, { body: jsonApi('variants', { sku: uniq('V-'), options: { Size: 'S' } }), headers: t.keyHeaders });
      const v = await rx.waitFor((r) => r.json?.event === 'variant.created');
      expect(v.json.data).toMatchObject({ product_id: p.id, options: { Size: 'S' } });
      await rest('DELETE', `/v1/products/${p.id}`, { headers: t.keyHeaders });
      expect((await rx.waitFor((r) => r.json?.event === 'product.deleted')).json.data).toMatchObject({ id: p.id, permanent: false });
      const list = await rest('GET', '/v1/webhooks', { headers: t.keyHeaders });
      expect(list.body.data.map((w: any) => w.id)).toEqual([reg.body.data.id]);
      const del = await rest('DELETE', `/v1/webhooks/${reg.body.data.id}`, { headers: t.keyHeaders });
      expect(del.body.data.attributes.active).toBe(false);
    } finally {
      await rx.close();
    }
  });

  test('category.updated: rename, move, assignment and delete, each delivered once with what changed', async () => {
    const t = await createTenant();
    const rx = await startReceiver();
    try {
      await rest('POST', '/v1/webhooks', { body: jsonApi('webhooks', { url: `${rx.url}/hook`, events: ['category.updated'], secret: 'catalog-webhook-secret-2' }), headers: t.keyHeaders });
      const root = (await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Root' }), headers: t.keyHeaders })).body.data;
      const c = (await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Kitchen' }), headers: t.keyHeaders })).body.data;
      const p = await create(t, { name: 'Kettle' });
      await rest('PATCH', `/v1/categories/${c.id}`, { body: jsonApi('categories', { name: 'Cooking' }), headers: t.keyHeaders });
      const renamed = await rx.waitFor((r) => r.json?.event === 'category.updated' && r.json.data.changes.includes('name'));
      expect(renamed.json.data).toMatchObject({ id: c.id, name: 'Cooking', slug: 'kitchen', parent_id: null, changes: ['name'] });
      await rest('PATCH', `/v1/categories/${c.id}`, { body: jsonApi('categories', { parent_id: root.id }), headers: t.keyHeaders });
      expect((await rx.waitFor((r) => r.json?.data?.changes?.includes('parent_id'))).json.data).toMatchObject({ id: c.id, parent_id: root.id });
      await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { product_ids: [p.id] } }, headers: t.keyHeaders });
      expect((await rx.waitFor((r) => r.json?.data?.products_added)).json.data).toMatchObject({ id: c.id, changes: ['products'], products_added: [p.id] });
      await rest('DELETE', `/v1/categories/${c.id}/products/${p.id}`, { headers: t.keyHeaders });
      await rx.waitFor((r) => r.json?.data?.products_removed?.[0] === p.id);
      await rest('DELETE', `/v1/categories/${c.id}`, { headers: t.keyHeaders });
      expect((await rx.waitFor((r) => r.json?.data?.deleted === true)).json.data).toMatchObject({ id: c.id, deleted: true });
      await sleep(300);
      expect(rx.received.filter((r) => r.json?.event === 'category.updated')).toHaveLength(5);
    } finally {
      await rx.close();
    }
  });

  test("GET /v1/webhooks/:id and its delivery log, each delivery with its attempts; another app's id → 404", async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const rx = await startReceiver();
    try {
      const reg = await rest('POST', '/v1/webhooks', { body: jsonApi('webhooks', { url: `${rx.url}/hook`, events: ['product.created'], secret: 'catalog-webhook-secret-3' }), headers: t.keyHeaders });
      const id = reg.body.data.id;
      const one = await rest('GET', `/v1/webhooks/${id}`, { headers: t.keyHeaders });
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({ id, type: 'webhooks', attributes: { url: `${rx.url}/hook`, events: ['product.created'], active: true } });
      expect(JSON.stringify(one.body)).not.toContain('catalog-webhook-secret-3');
      expect((await rest('GET', `/v1/webhooks/${id}/deliveries`, { headers: t.keyHeaders })).body.data).toEqual([]);

      const p = await create(t, { name: 'Logged' });
      await rx.waitFor((r) => r.json?.event === 'product.created' && r.json.data.id === p.id);
      let log: any;
      for (let i = 0; i < 50; i++) {
        log = await rest('GET', `/v1/webhooks/${id}/deliveries?limit=5`, { headers: t.keyHeaders });
        if (log.body.data?.[0]?.attributes.status === 'delivered') break;
        await sleep(100);
      }
      expect(log.status).toBe(200);
      expect(log.body.data).toHaveLength(1);
      expect(log.body.data[0]).toMatchObject({ type: 'webhook_deliveries', attributes: { event: 'product.created', status: 'delivered', attempts: 1, last_status_code: 200 } });
      expect(log.body.data[0].attributes.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
      expect(JSON.parse(log.body.data[0].attributes.body)).toMatchObject({ event: 'product.created', data: { id: p.id } });
      expectServiceError(await rest('GET', `/v1/webhooks/${id}/deliveries?limit=0`, { headers: t.keyHeaders }), 'products', 400, ['BAD_REQUEST', 'VALIDATION_FAILED'], { parameter: 'limit' });

      for (const path of [`/v1/webhooks/${id}`, `/v1/webhooks/${id}/deliveries`]) {
        expectServiceError(await rest('GET', path, { headers: other.keyHeaders }), 'products', 404, 'NOT_FOUND', { parameter: 'id' });
      }
      await rest('DELETE', `/v1/webhooks/${id}`, { headers: t.keyHeaders });
      expectServiceError(await rest('GET', `/v1/webhooks/${id}`, { headers: t.keyHeaders }), 'products', 404, 'NOT_FOUND', { parameter: 'id' });
    } finally {
      await rx.close();
    }
  });

  test('bad registrations → 422 naming the attribute; an unknown webhook → 404', async () => {
    const t = await createTenant();
    const reg = (attrs: Record<string, unknown>) => rest('POST', '/v1/webhooks', { body: jsonApi('webhooks', { url: 'http://127.0.0.1:9/h', events: ['product.created'], secret: 'long-enough-secret', ...attrs }), headers: t.keyHeaders });
    expectServiceError(await reg({ events: ['order.created'] }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'events[0]' });
    expectServiceError(await reg({ secret: '' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'secret' });
    expectServiceError(await reg({ secret: 'x'.repeat(4097) }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'secret' });
    expect((await reg({ secret: 'short' })).status).toBe(201);
    expectServiceError(await reg({ url: 'ftp://x' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'url' });
    expectServiceError(await rest('DELETE', '/v1/webhooks/whe_nope', { headers: t.keyHeaders }), 'products', 404, 'NOT_FOUND');
  });
});
