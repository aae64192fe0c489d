// Collection REST paths end to end: manual (ordered) and automated (rules evaluated in SQL on read).
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

async function product(t: Tenant, attrs: Record<string, unknown>): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { sku: uniq('SKU-'), ...attrs }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create product: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

async function collection(t: Tenant, attrs: Record<string, unknown>): Promise<any> {
  const r = await rest('POST', '/v1/collections', { body: jsonApi('collections', attrs), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create collection: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

const names = async (t: Tenant, id: string, query = '') => {
  const r = await rest('GET', `/v1/collections/${id}/products${query}`, { headers: t.keyHeaders });
  if (r.status !== 200) throw new Error(`collection products: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.map((p: any) => p.attributes.name);
};

describe('manual collections', () => {
  test('create, append in order (idempotent), list paged by position, remove closes the gap', async () => {
    const t = await createTenant();
    const c = await collection(t, { name: 'Summer Picks', description: 'Hand-picked', seo: { title: 'Summer' } });
    expect(c).toMatchObject({ type: 'collections', attributes: { name: 'Summer Picks', slug: 'summer-picks', type: 'manual', status: 'active', rules: null, active: true, start_date: null } });
    const [a, b, d] = [await product(t, { name: 'A' }), await product(t, { name: 'B' }), await product(t, { name: 'D' })];
    const add = await rest('POST', `/v1/collections/${c.id}/products`, { body: { data: { product_ids: [b, a] } }, headers: t.keyHeaders });
    expect(add.status).toBe(200);
    expect(add.body.meta).toEqual({ added: 2 });
    const again = await rest('POST', `/v1/collections/${c.id}/products`, { body: { data: { product_ids: [a, d] } }, headers: t.keyHeaders });
    expect(again.body.meta).toEqual({ added: 1 });
    expect(await names(t, c.id)).toEqual(['B', 'A', 'D']);
    const page = await rest('GET', `/v1/collections/${c.id}/products?page[number]=2&page[size]=2`, { headers: t.keyHeaders });
    expect(page.body.meta).toEqual({ total: 3, page: 2, per_page: 2 });
    expect(page.body.data.map((p: any) => [p.type, p.attributes.name])).toEqual([['products', 'D']]);
    expect(await names(t, c.id, '?sort=-name')).toEqual(['D', 'B', 'A']);

    expect((await rest('DELETE', `/v1/collections/${c.id}/products/${a}`, { headers: t.keyHeaders })).status).toBe(200);
    const e = await product(t, { name: 'E' });
    await rest('POST', `/v1/collections/${c.id}/products`, { body: { data: { product_ids: [e] } }, headers: t.keyHeaders });
    expect(await names(t, c.id)).toEqual(['B', 'D', 'E']);
    expectServiceError(await rest('DELETE', `/v1/collections/${c.id}/products/${a}`, { headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND', { parameter: 'product_id' });
  });

  test('errors: unknown product (nothing added), unknown collection, rules on a manual one, duplicate slug, bad window', async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const c = await collection(t, { name: 'Picks', slug: 'picks' });
    const mine = await product(t, { name: 'Mine' });
    const theirs = await product(other, { name: 'Theirs' });
    expectServiceError(await rest('POST', `/v1/collections/${c.id}/products`, { body: { data: { product_ids: [mine, theirs] } }, headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND', {
      parameter: 'product_ids',
    });
    expect(await names(t, c.id)).toEqual([]);
    expectServiceError(await rest('GET', '/v1/collections/col_AAAAAAAAAAAAAAAAAAAA/products', { headers: t.keyHeaders }), 'products', 404, 'COLLECTION_NOT_FOUND');
    expectServiceError(await rest('POST', '/v1/collections', { body: jsonApi('collections', { name: 'X', slug: 'picks' }), headers: t.keyHeaders }), 'products', 409, 'SLUG_ALREADY_EXISTS', { parameter: 'slug' });
    expectServiceError(
      await rest('POST', '/v1/collections', { body: jsonApi('collections', { name: 'X', rules: { match: 'all', conditions: [] } }), headers: t.keyHeaders }),
      'products',
      422,
      'VALIDATION_FAILED',
      { parameter: 'rules' },
    );
    expectServiceError(
      await rest('POST', '/v1/collections', { body: jsonApi('collections', { name: 'X', start_date: '2030-02-01T00:00:00Z', end_date: '2030-01-01T00:00:00Z' }), headers: t.keyHeaders }),
      'products',
      422,
      'VALIDATION_FAILED',
      { parameter: 'end_date' },
    );
    expectServiceError(await rest('POST', '/v1/collections', { body: jsonApi('collections', { name: 'X', type: 'smart' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'type' });
    expectServiceError(await rest('GET', `/v1/collections/${c.id}/products?page[size]=101`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'page[size]' });
    expectServiceError(await rest('GET', `/v1/collections/${c.id}/products?sort=colour`, { headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'sort' });
    // another app's collection is a 404 everywhere
    for (const [method, path] of [
      ['GET', `/v1/collections/${c.id}`],
      ['GET', `/v1/collections/${c.id}/products`],
      ['DELETE', `/v1/collections/${c.id}`],
    ]) {
      expectServiceError(await rest(method, path, { headers: other.keyHeaders }), 'products', 404, 'COLLECTION_NOT_FOUND');
    }
    expectServiceError(await rest('POST', `/v1/collections/${c.id}/products`, { body: { data: { product_ids: [theirs] } }, headers: other.keyHeaders }), 'products', 404, 'COLLECTION_NOT_FOUND');
  });
});

describe('automated collections', () => {
  test('match all / any over product fields and attributes, evaluated on every read (a new product shows at once)', async () => {
    const t = await createTenant();
    await product(t, { name: 'Oak Table', status: 'active', price: { amount: 25000, currency: 'USD' }, attributes: { brand: 'Acme', seats: 6 } });
    await product(t, { name: 'Pine Table', status: 'draft', price: { amount: 9000, currency: 'USD' }, attributes: { brand: 'Bolt', seats: 4 } });
    await product(t, { name: 'Oak Chair', status: 'active', price: { amount: 5000, currency: 'USD' }, attributes: { brand: 'acme' } });

    const all = await collection(t, {
      name: 'Premium tables',
      type: 'automated',
      rules: {
        match: 'all',
        conditions: [
          { field: 'name', operator: 'contains', value: 'table' },
          { field: 'price', operator: 'greater_than', value: 10000 },
          { field: 'status', operator: 'equals', value: 'active' },
        ],
      },
    });
    expect(all.attributes).toMatchObject({ type: 'automated', rules: { match: 'all', conditions: [{ field: 'name', operator: 'contains', value: 'table' }, {}, {}] } });
    expect(await names(t, all.id)).toEqual(['Oak Table']);

    const any = await collection(t, {
      name: 'Acme or big',
      type: 'automated',
      rules: {
        match: 'any',
        conditions: [
          { field: 'attributes.brand', operator: 'equals', value: 'ACME' },
          { field: 'attributes.seats', operator: 'greater_than', value: 4 },
        ],
      },
    });
    expect(await names(t, any.id, '?sort=name')).toEqual(['Oak Chair', 'Oak Table']);

    const others = await collection(t, {
      name: 'Not oak',
      type: 'automated',
      rules: { match: 'all', conditions: [{ field: 'name', operator: 'starts_with', value: 'pine' }, { field: 'type', operator: 'in', value: ['physical', 'digital'] }, { field: 'sku', operator: 'not_equals', value: 'x' }] },
    });
    expect(await names(t, others.id)).toEqual(['Pine Table']);

    // membership is evaluated on read: a matching product created now is in at once
    await product(t, { name: 'Walnut Table', status: 'active', price: { amount: 40000, currency: 'USD' } });
    expect(await names(t, all.id, '?sort=-price')).toEqual(['Walnut Table', 'Oak Table']);
    const page = await rest('GET', `/v1/collections/${all.id}/products?page[size]=1`, { headers: t.keyHeaders });
    expect(page.body.meta).toEqual({ total: 2, page: 1, per_page: 1 });

    // rules are edited with PATCH; an automated collection takes no hand-added products
    const patched = await rest('PATCH', `/v1/collections/${all.id}`, { body: jsonApi('collections', { rules: { match: 'all', conditions: [{ field: 'price', operator: 'less_than', value: 6000 }] } }), headers: t.keyHeaders });
    expect(patched.status).toBe(200);
    expect(await names(t, all.id)).toEqual(['Oak Chair']);
    const someId = (await rest('GET', `/v1/collections/${all.id}/products`, { headers: t.keyHeaders })).body.data[0].id;
    expectServiceError(await rest('POST', `/v1/collections/${all.id}/products`, { body: { data: { product_ids: [someId] } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', {
      parameter: 'product_ids',
    });
    expectServiceError(await rest('GET', `/v1/collections/${all.id}/products?sort=position`, { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'sort' });
  });

  test.each([
    [{ type: 'automated' }, 'rules'],
    [{ type: 'automated', rules: { match: 'every', conditions: [{ field: 'name', operator: 'equals', value: 'x' }] } }, 'rules.match'],
    [{ type: 'automated', rules: { conditions: [{ field: 'weight', operator: 'equals', value: 'x' }] } }, 'rules.conditions[0].field'],
    [{ type: 'automated', rules: { conditions: [{ field: 'price', operator: 'contains', value: 'x' }] } }, 'rules.conditions[0].operator'],
    [{ type: 'automated', rules: { conditions: [{ field: 'price', operator: 'greater_than', value: '100' }] } }, 'rules.conditions[0].value'],
  ])('bad rules %j → 422 naming %s', async (attrs, parameter) => {
    const t = await createTenant();
    expectServiceError(await rest('POST', '/v1/collections', { body: jsonApi('collections', { name: 'Bad', ...attrs }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter });
  });
});

describe('windows and the list', () => {
  test('start_date / end_date: active says whether the collection is live; filter[active]=true lists only live ones', async () => {
    const t = await createTenant();
    const day = 86_400_000;
    const live = await collection(t, { name: 'Live', start_date: new Date(Date.now() - day).toISOString(), end_date: new Date(Date.now() + day).toISOString() });
    const past = await collection(t, { name: 'Past', start_date: new Date(Date.now() - 3 * day).toISOString(), end_date: new Date(Date.now() - day).toISOString() });
    const future = await collection(t, { name: 'Future', start_date: new Date(Date.now() + day).toISOString() });
    const draft = await collection(t, { name: 'Draft', status: 'draft' });
    expect([live, past, future, draft].map((c) => c.attributes.active)).toEqual([true, false, false, false]);
    const all = await rest('GET', '/v1/collections', { headers: t.keyHeaders });
    expect(all.body.meta).toEqual({ total: 4, page: 1, per_page: 20 });
    const active = await rest('GET', '/v1/collections?filter[active]=true', { headers: t.keyHeaders });
    expect(active.body.data.map((c: any) => c.attributes.name)).toEqual(['Live']);
    const drafts = await rest('GET', '/v1/collections?filter[status]=draft', { headers: t.keyHeaders });
    expect(drafts.body.data.map((c: any) => c.attributes.name)).toEqual(['Draft']);
    expectServiceError(await rest('GET', '/v1/collections?filter[type]=smart', { headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'filter[type]' });
    // ending the live one now takes it out
    await rest('PATCH', `/v1/collections/${live.id}`, { body: jsonApi('collections', { end_date: new Date(Date.now() - 1000).toISOString() }), headers: t.keyHeaders });
    expect((await rest('GET', '/v1/collections?filter[active]=true', { headers: t.keyHeaders })).body.data).toEqual([]);
    const del = await rest('DELETE', `/v1/collections/${draft.id}`, { headers: t.keyHeaders });
    expect(del.status).toBe(200);
    expectServiceError(await rest('GET', `/v1/collections/${draft.id}`, { headers: t.keyHeaders }), 'products', 404, 'COLLECTION_NOT_FOUND');
  });
});

describe('concurrency and GraphQL', () => {
  test('concurrent appends to one manual collection keep every product once, in distinct places', async () => {
    const t = await createTenant();
    const c = await collection(t, { name: 'Busy' });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await product(t, { name: `P${i}` }));
    const results = await Promise.all(ids.map((id) => rest('POST', `/v1/collections/${c.id}/products`, { body: { data: { product_ids: [id, ids[0]] } }, headers: t.keyHeaders })));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    expect(results.reduce((n, r) => n + r.body.meta.added, 0)).toBe(8);
    const listed = await names(t, c.id);
    expect([...listed].sort()).toEqual(ids.map((_, i) => `P${i}`).sort());
    expect(await names(t, c.id, '?sort=position')).toEqual(listed);
  });

  test('GraphQL answers the same codes in extensions', async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const c = await collection(a, { name: 'Mine' });
    const r = await gql('query($id: ID!) { collection(id: $id) { name } }', { id: c.id }, b.keyHeaders);
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'COLLECTION_NOT_FOUND', status: 404 });
    const ok = await gql('query($id: ID!) { collection(id: $id) { name type active } collections { total } }', { id: c.id }, a.keyHeaders);
    expect(ok.body.data).toEqual({ collection: { name: 'Mine', type: 'manual', active: true }, collections: { total: 1 } });
    const cat = await gql('{ category(id: "cat_AAAAAAAAAAAAAAAAAAAA") { id } }', {}, a.keyHeaders);
    expect(cat.body.errors?.[0]?.extensions).toMatchObject({ code: 'CATEGORY_NOT_FOUND', status: 404 });
  });
});
