// Variants and options, bundles and related products, end to end through the REST bridge.
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

async function create(t: Tenant, attrs: Record<string, unknown>) {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'P', sku: uniq('S-'), ...attrs }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

const options = (t: Tenant, id: string, opts: unknown) => rest('PUT', `/v1/products/${id}/options`, { body: { data: { options: opts } }, headers: t.keyHeaders });
const variant = (t: Tenant, id: string, attrs: Record<string, unknown>) => rest('POST', `/v1/products/${id}/variants`, { body: jsonApi('variants', attrs), headers: t.keyHeaders });

describe('options and variants', () => {
  test('PUT /options, variants with computed prices (fixed and percentage), list, patch, delete', async () => {
    const t = await createTenant();
    const p = await create(t, { name: 'Shirt', price: { amount: 2000, currency: 'USD' } });
    const o = await options(t, p.id, [{ name: 'Size', values: ['S', 'M', 'L'] }, { name: 'Color', values: ['Red', 'Blue'] }]);
    expect(o.status).toBe(200);
    expect(o.body.data.attributes.options).toEqual([{ name: 'Size', values: ['S', 'M', 'L'] }, { name: 'Color', values: ['Red', 'Blue'] }]);
    const a = await variant(t, p.id, { sku: uniq('V-'), options: { Size: 'S', Color: 'Red' }, price_modifier: { type: 'fixed', amount: -500 }, inventory: { quantity: 4 } });
    expect(a.status).toBe(201);
    expect(a.body.data.type).toBe('variants');
    expect(a.body.data.attributes).toMatchObject({ name: 'S / Red', options: { Size: 'S', Color: 'Red' }, price: { amount: 1500, currency: 'USD', formatted: '$15.00' }, inventory: { quantity: 4, in_stock: true }, position: 0 });
    const b = await variant(t, p.id, { name: 'Large blue', sku: uniq('V-'), options: { Size: 'L', Color: 'Blue' }, price_modifier: { type: 'percentage', amount: 10 } });
    expect(b.body.data.attributes.price).toMatchObject({ amount: 2200, formatted: '$22.00' });
    const list = await rest('GET', `/v1/products/${p.id}/variants`, { headers: t.keyHeaders });
    expect(list.body.data.map((v: any) => v.id)).toEqual([a.body.data.id, b.body.data.id]);
    const patched = await rest('PATCH', `/v1/products/${p.id}/variants/${a.body.data.id}`, { body: jsonApi('variants', { options: { Size: 'M', Color: 'Red' }, inventory: { quantity: 0 } }), headers: t.keyHeaders });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ options: { Size: 'M', Color: 'Red' }, inventory: { quantity: 0, in_stock: false } });
    const withVariants = await rest('GET', `/v1/products/${p.id}?include=variants`, { headers: t.keyHeaders });
    expect(withVariants.body.data.attributes.variants).toHaveLength(2);
    const del = await rest('DELETE', `/v1/products/${p.id}/variants/${b.body.data.id}`, { headers: t.keyHeaders });
    expect(del.status).toBe(200);
    expectServiceError(await rest('DELETE', `/v1/products/${p.id}/variants/${b.body.data.id}`, { headers: t.keyHeaders }), 'products', 404, 'VARIANT_NOT_FOUND', { parameter: 'variant_id' });
    expect((await rest('GET', `/v1/products/${p.id}/variants`, { headers: t.keyHeaders })).body.data).toHaveLength(1);
  });

  test('a page with include=variants,categories answers what each product answers alone (read with the page, not per product)', async () => {
    const t = await createTenant();
    const cat = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Shirts', slug: uniq('shirts-') }), headers: t.keyHeaders });
    expect(cat.status).toBe(201);
    const shirt = await create(t, { name: 'Shirt', price: { amount: 2000, currency: 'EUR' }, category_ids: [cat.body.data.id] });
    const free = await create(t, { name: 'Sticker' });
    const plain = await create(t, { name: 'Mug', price: { amount: 900, currency: 'JPY' } });
    expect((await options(t, shirt.id, [{ name: 'Size', values: ['S', 'L'] }])).status).toBe(200);
    expect((await options(t, free.id, [{ name: 'Size', values: ['S'] }])).status).toBe(200);
    expect((await variant(t, shirt.id, { sku: uniq('V-'), options: { Size: 'L' }, price_modifier: { type: 'percentage', amount: 10 } })).status).toBe(201);
    expect((await variant(t, shirt.id, { sku: uniq('V-'), options: { Size: 'S' }, price_modifier: { type: 'fixed', amount: -250 } })).status).toBe(201);
    // a variant of a product without a price: its price is null
    expect((await variant(t, free.id, { sku: uniq('V-'), options: { Size: 'S' } })).status).toBe(201);
    const page = await rest('GET', '/v1/products?include=variants,categories&page[size]=10', { headers: t.keyHeaders });
    expect(page.status).toBe(200);
    expect(page.body.data.map((p: any) => p.id).sort()).toEqual([shirt.id, free.id, plain.id].sort());
    for (const p of page.body.data) {
      const alone = await rest('GET', `/v1/products/${p.id}?include=variants,categories`, { headers: t.keyHeaders });
      const pick = (a: any) => ({
        variants: a.variants.map(({ id, attributes: v }: any) => ({ id, name: v.name, sku: v.sku, options: v.options, price: v.price, inventory: { quantity: v.inventory.quantity, in_stock: v.inventory.in_stock } })),
        categories: a.categories.map(({ id, attributes: c }: any) => ({ id, name: c.name, slug: c.slug })),
      });
      expect(pick(p.attributes)).toEqual(pick(alone.body.data.attributes));
    }
    const shirtOnPage = page.body.data.find((p: any) => p.id === shirt.id).attributes;
    expect(shirtOnPage.categories.map((c: any) => c.id)).toEqual([cat.body.data.id]);
    expect(shirtOnPage.variants.map((v: any) => v.attributes.price)).toEqual([
      { amount: 2200, currency: 'EUR', formatted: '€22.00' },
      { amount: 1750, currency: 'EUR', formatted: '€17.50' },
    ]);
    expect(page.body.data.find((p: any) => p.id === free.id).attributes.variants[0].attributes.price).toBeNull();
  });

  test('INVALID_OPTION_VALUES names the option: unknown option, disallowed value, missing option, duplicate combination', async () => {
    const t = await createTenant();
    const p = await create(t, {});
    await options(t, p.id, [{ name: 'Size', values: ['S', 'M'] }]);
    expectServiceError(await variant(t, p.id, { sku: uniq('V-'), options: { Size: 'S', Color: 'Red' } }), 'products', 422, 'INVALID_OPTION_VALUES', { parameter: 'options.Color' });
    expectServiceError(await variant(t, p.id, { sku: uniq('V-'), options: { Size: 'XL' } }), 'products', 422, 'INVALID_OPTION_VALUES', { parameter: 'options.Size' });
    expectServiceError(await variant(t, p.id, { sku: uniq('V-'), options: {} }), 'products', 422, 'INVALID_OPTION_VALUES', { parameter: 'options.Size' });
    expect((await variant(t, p.id, { sku: uniq('V-'), options: { Size: 'S' } })).status).toBe(201);
    expectServiceError(await variant(t, p.id, { sku: uniq('V-'), options: { Size: 'S' } }), 'products', 422, 'INVALID_OPTION_VALUES', { parameter: 'options.Size' });
    // removing a value a variant uses is refused
    expectServiceError(await options(t, p.id, [{ name: 'Size', values: ['M'] }]), 'products', 422, 'INVALID_OPTION_VALUES', { parameter: 'options' });
    expectServiceError(await options(t, p.id, [{ name: 'Size', values: [] }]), 'products', 422, 'VALIDATION_FAILED', { parameter: 'options[0].values' });
    expectServiceError(await variant(t, 'prod_AAAAAAAAAAAAAAAAAAAA', { sku: uniq('V-'), options: {} }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expectServiceError(await variant(t, p.id, { sku: uniq('V-'), options: { Size: 'M' }, price_modifier: { type: 'percentage', amount: -150 } }), 'products', 422, 'INVALID_PRICE', { parameter: 'price_modifier.amount' });
  });

  test('variant SKUs share the product SKU namespace', async () => {
    const t = await createTenant();
    const p = await create(t, {});
    const q = await create(t, {});
    await options(t, p.id, [{ name: 'Size', values: ['S', 'M'] }]);
    expectServiceError(await variant(t, p.id, { sku: q.attributes.sku, options: { Size: 'S' } }), 'products', 409, 'SKU_ALREADY_EXISTS', { parameter: 'sku' });
    const v = await variant(t, p.id, { sku: 'SHARED-1', options: { Size: 'S' } });
    expect(v.status).toBe(201);
    expectServiceError(await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'x', sku: 'SHARED-1' }), headers: t.keyHeaders }), 'products', 409, 'SKU_ALREADY_EXISTS');
    await rest('DELETE', `/v1/products/${p.id}/variants/${v.body.data.id}`, { headers: t.keyHeaders });
    expect((await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'x', sku: 'SHARED-1' }), headers: t.keyHeaders })).status).toBe(201);
  });
});

describe('bundles', () => {
  test('a bundle of physical products; availability from its required components', async () => {
    const t = await createTenant();
    const cup = await create(t, { inventory: { quantity: 9 } });
    const pot = await create(t, { inventory: { quantity: 2 } });
    const r = await rest('POST', '/v1/products', {
      body: jsonApi('products', { name: 'Tea bundle', sku: uniq('B-'), type: 'bundle', bundle_pricing: 'fixed', bundle_items: [{ product_id: cup.id, quantity: 4 }, { product_id: pot.id, quantity: 1, required: false }] }),
      headers: t.keyHeaders,
    });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toMatchObject({ type: 'bundle', bundle_pricing: 'fixed', bundle_available: 2, bundle_items: [{ product_id: cup.id, quantity: 4, required: true }, { product_id: pot.id, quantity: 1, required: false }] });
  });

  test.each([
    ['an unknown component', (_ids: any) => [{ product_id: 'prod_AAAAAAAAAAAAAAAAAAAA', quantity: 1 }], 'bundle_items[0].product_id'],
    ['a digital component', (ids: any) => [{ product_id: ids.ebook, quantity: 1 }], 'bundle_items[0].product_id'],
    ['a nested bundle', (ids: any) => [{ product_id: ids.bundle, quantity: 1 }], 'bundle_items[0].product_id'],
    ['a zero quantity', (ids: any) => [{ product_id: ids.cup, quantity: 0 }], 'bundle_items[0].quantity'],
    ['no items', () => [], 'bundle_items'],
  ])('%s → 422 BUNDLE_INVALID naming %s', async (_what, items, parameter) => {
    const t = await createTenant();
    const cup = await create(t, {});
    const ebook = await create(t, { type: 'digital' });
    const bundle = await create(t, { type: 'bundle', bundle_items: [{ product_id: cup.id, quantity: 1 }] });
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'B', sku: uniq('B-'), type: 'bundle', bundle_items: items({ cup: cup.id, ebook: ebook.id, bundle: bundle.id }) }), headers: t.keyHeaders });
    expectServiceError(r, 'products', 422, 'BUNDLE_INVALID', { parameter });
  });

  test('a bundle cannot contain itself, and a component cannot turn into a bundle (no cycles)', async () => {
    const t = await createTenant();
    const cup = await create(t, {});
    const b = await create(t, { type: 'bundle', bundle_items: [{ product_id: cup.id, quantity: 1 }] });
    expectServiceError(await rest('PATCH', `/v1/products/${b.id}`, { body: jsonApi('products', { bundle_items: [{ product_id: b.id, quantity: 1 }] }), headers: t.keyHeaders }), 'products', 422, 'BUNDLE_INVALID', { parameter: 'bundle_items[0].product_id' });
    expectServiceError(await rest('PATCH', `/v1/products/${cup.id}`, { body: jsonApi('products', { type: 'bundle', bundle_items: [{ product_id: b.id, quantity: 1 }] }), headers: t.keyHeaders }), 'products', 422, 'BUNDLE_INVALID', { parameter: 'type' });
  });
});

describe('related products', () => {
  test('PUT and GET /related with type and limit; deleted products drop out; unknown ids refused', async () => {
    const t = await createTenant();
    const [p, a, b, c] = await Promise.all([create(t, {}), create(t, {}), create(t, {}), create(t, {})]);
    const put = await rest('PUT', `/v1/products/${p.id}/related`, { body: { data: { cross_sells: [a.id, b.id], accessories: [c.id] } }, headers: t.keyHeaders });
    expect(put.status).toBe(200);
    const all = await rest('GET', `/v1/products/${p.id}/related`, { headers: t.keyHeaders });
    expect(all.body.data.map((x: any) => [x.attributes.relation, x.id])).toEqual([['accessories', c.id], ['cross_sells', a.id], ['cross_sells', b.id]]);
    const one = await rest('GET', `/v1/products/${p.id}/related?type=cross_sells&limit=1`, { headers: t.keyHeaders });
    expect(one.body.data.map((x: any) => x.id)).toEqual([a.id]);
    await rest('DELETE', `/v1/products/${a.id}`, { headers: t.keyHeaders });
    const after = await rest('GET', `/v1/products/${p.id}/related?type=cross_sells`, { headers: t.keyHeaders });
    expect(after.body.data.map((x: any) => x.id)).toEqual([b.id]);
    const got = await rest('GET', `/v1/products/${p.id}?include=related`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.related.map((x: any) => x.id)).toEqual([c.id, b.id]);
    expectServiceError(await rest('PUT', `/v1/products/${p.id}/related`, { body: { data: { up_sells: ['prod_AAAAAAAAAAAAAAAAAAAA'] } }, headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND', { parameter: 'up_sells' });
    expectServiceError(await rest('PUT', `/v1/products/${p.id}/related`, { body: { data: { up_sells: [p.id] } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'up_sells' });
    expectServiceError(await rest('GET', `/v1/products/${p.id}/related?type=siblings`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'type' });
    const g = await gql(`{ product(id: "${p.id}") { related(type: "accessories") { relation product { id } } } }`, {}, t.keyHeaders);
    expect(g.body.data!.product.related).toEqual([{ relation: 'accessories', product: { id: c.id } }]);
  });
});
