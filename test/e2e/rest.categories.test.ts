// Category REST paths end to end: REST bridge → gateway → catalog subgraph → PostgreSQL.
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

async function category(t: Tenant, attrs: Record<string, unknown>): Promise<any> {
  const r = await rest('POST', '/v1/categories', { body: jsonApi('categories', attrs), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create category: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

async function product(t: Tenant, name: string): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name, sku: uniq('SKU-') }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create product: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

describe('POST /v1/categories, GET by id and slug', () => {
  test('201 with every field; slug derived from the name; reads back by id and by slug', async () => {
    const t = await createTenant();
    const c = await category(t, { name: 'Café Tables!', description: 'Small tables', seo: { title: 'Tables', description: 'Buy tables' }, metadata: { sourceKey: 7 } });
    expect(c.type).toBe('categories');
    expect(c.id).toMatch(/^cat_[A-Za-z0-9]{20}$/);
    expect(c.attributes).toMatchObject({
      name: 'Café Tables!',
      slug: 'cafe-tables',
      description: 'Small tables',
      parent_id: null,
      position: 0,
      seo: { title: 'Tables', description: 'Buy tables' },
      metadata: { sourceKey: 7 },
    });
    const byId = await rest('GET', `/v1/categories/${c.id}`, { headers: t.keyHeaders });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(c);
    const bySlug = await rest('GET', '/v1/categories/slug/cafe-tables', { headers: t.keyHeaders });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data.id).toBe(c.id);
  });

  test('errors: duplicate slug 409, bad slug 422, missing name 422, unknown parent 404, unknown id and slug 404', async () => {
    const t = await createTenant();
    await category(t, { name: 'Lamps', slug: 'lamps' });
    expectServiceError(await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Other', slug: 'lamps' }), headers: t.keyHeaders }), 'products', 409, 'SLUG_ALREADY_EXISTS', { parameter: 'slug' });
    expectServiceError(await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'X', slug: 'Not A Slug' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'slug' });
    expectServiceError(await rest('POST', '/v1/categories', { body: jsonApi('categories', { slug: 'x' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'name' });
    expectServiceError(await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'X', position: -1 }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'position' });
    expectServiceError(
      await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Orphan', parent_id: 'cat_AAAAAAAAAAAAAAAAAAAA' }), headers: t.keyHeaders }),
      'products',
      404,
      'CATEGORY_NOT_FOUND',
      { parameter: 'parent_id' },
    );
    expectServiceError(await rest('GET', '/v1/categories/cat_AAAAAAAAAAAAAAAAAAAA', { headers: t.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expectServiceError(await rest('GET', '/v1/categories/slug/nothing-here', { headers: t.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND', { parameter: 'slug' });
    expectServiceError(await rest('GET', '/v1/categories?include=parents', { headers: t.keyHeaders }), 'products', 400, 'BAD_REQUEST', { parameter: 'include' });
    // slugs are unique per tenant, not globally
    const other = await createTenant();
    await category(other, { name: 'Lamps', slug: 'lamps' });
  });

  test("another app's category is a 404 everywhere, and its slug is free here", async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const c = await category(a, { name: 'Secret', slug: 'secret' });
    expectServiceError(await rest('GET', `/v1/categories/${c.id}`, { headers: b.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expectServiceError(await rest('GET', '/v1/categories/slug/secret', { headers: b.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expectServiceError(await rest('PATCH', `/v1/categories/${c.id}`, { body: jsonApi('categories', { name: 'Mine' }), headers: b.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expectServiceError(await rest('DELETE', `/v1/categories/${c.id}`, { headers: b.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expectServiceError(await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Child', parent_id: c.id }), headers: b.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expect((await rest('GET', '/v1/categories', { headers: b.keyHeaders })).body.meta.total).toBe(0);
    expect((await rest('GET', '/v1/categories?tree=true', { headers: b.keyHeaders })).body.data).toEqual([]);
  });
});

describe('the tree', () => {
  async function build(t: Tenant) {
    const home = await category(t, { name: 'Home' });
    const garden = await category(t, { name: 'Garden' });
    const kitchen = await category(t, { name: 'Kitchen', parent_id: home.id });
    const bath = await category(t, { name: 'Bath', parent_id: home.id });
    const knives = await category(t, { name: 'Knives', parent_id: kitchen.id });
    return { home, garden, kitchen, bath, knives };
  }

  test('tree=true nests every level by position; filter[parent_id]=null lists the roots; include=children,product_count', async () => {
    const t = await createTenant();
    const { home, garden, kitchen, bath, knives } = await build(t);
    // positions append: Home 0, Garden 1; Kitchen 0, Bath 1
    expect([home.attributes.position, garden.attributes.position, kitchen.attributes.position, bath.attributes.position]).toEqual([0, 1, 0, 1]);

    const tree = await rest('GET', '/v1/categories?tree=true', { headers: t.keyHeaders });
    expect(tree.status).toBe(200);
    const shape = (nodes: any[]): any[] => nodes.map((n) => ({ name: n.attributes.name, children: shape(n.attributes.children) }));
    expect(shape(tree.body.data)).toEqual([
      { name: 'Home', children: [{ name: 'Kitchen', children: [{ name: 'Knives', children: [] }] }, { name: 'Bath', children: [] }] },
      { name: 'Garden', children: [] },
    ]);
    expect(tree.body.meta.total).toBe(5);

    const sub = await rest('GET', `/v1/categories?tree=true&filter[parent_id]=${kitchen.id}`, { headers: t.keyHeaders });
    expect(shape(sub.body.data)).toEqual([{ name: 'Kitchen', children: [{ name: 'Knives', children: [] }] }]);

    const roots = await rest('GET', '/v1/categories?filter[parent_id]=null&include=children,product_count', { headers: t.keyHeaders });
    expect(roots.status).toBe(200);
    expect(roots.body.meta).toEqual({ total: 2, page: 1, per_page: 20 });
    expect(roots.body.data.map((c: any) => c.attributes.name)).toEqual(['Home', 'Garden']);
    expect(roots.body.data[0].attributes.children.map((c: any) => c.id)).toEqual([kitchen.id, bath.id]);
    expect(roots.body.data[0].attributes.product_count).toBe(0);

    const kids = await rest('GET', `/v1/categories?filter[parent_id]=${kitchen.id}`, { headers: t.keyHeaders });
    expect(kids.body.data.map((c: any) => c.id)).toEqual([knives.id]);
    expect(kids.body.data[0].attributes.children).toBeUndefined();
  });

  test('the whole tree is read in one query, whatever its depth (GraphQL categoryTree with depth)', async () => {
    const t = await createTenant();
    let parent: string | null = null;
    for (let i = 0; i < 8; i++) parent = (await category(t, { name: `Level ${i}`, parent_id: parent })).id;
    const r = await gql('{ categoryTree { name depth parentId } }', {}, t.keyHeaders);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!.categoryTree.map((c: any) => c.depth)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  test('moving: under another parent closes and opens gaps; under itself or a descendant is refused (422 parent_id)', async () => {
    const t = await createTenant();
    const { home, garden, kitchen, bath, knives } = await build(t);
    expectServiceError(await rest('PATCH', `/v1/categories/${home.id}`, { body: jsonApi('categories', { parent_id: knives.id }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'parent_id' });
    expectServiceError(await rest('PATCH', `/v1/categories/${home.id}`, { body: jsonApi('categories', { parent_id: home.id }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'parent_id' });

    const moved = await rest('PATCH', `/v1/categories/${kitchen.id}`, { body: jsonApi('categories', { parent_id: garden.id }), headers: t.keyHeaders });
    expect(moved.status).toBe(200);
    expect(moved.body.data.attributes).toMatchObject({ parent_id: garden.id, position: 0, name: 'Kitchen' });
    expect((await rest('GET', `/v1/categories/${bath.id}`, { headers: t.keyHeaders })).body.data.attributes.position).toBe(0);

    // back to the roots, first
    const root = await rest('PATCH', `/v1/categories/${kitchen.id}`, { body: jsonApi('categories', { parent_id: null, position: 0 }), headers: t.keyHeaders });
    expect(root.body.data.attributes).toMatchObject({ parent_id: null, position: 0 });
    const roots = await rest('GET', '/v1/categories?filter[parent_id]=null', { headers: t.keyHeaders });
    expect(roots.body.data.map((c: any) => [c.attributes.name, c.attributes.position])).toEqual([
      ['Kitchen', 0],
      ['Home', 1],
      ['Garden', 2],
    ]);
    // knives moved along with its parent
    expect((await rest('GET', `/v1/categories/${knives.id}`, { headers: t.keyHeaders })).body.data.attributes.parent_id).toBe(kitchen.id);
  });

  test('concurrent opposite moves never build a cycle', async () => {
    const t = await createTenant();
    const a = await category(t, { name: 'A' });
    const b = await category(t, { name: 'B' });
    const [x, y] = await Promise.all([
      rest('PATCH', `/v1/categories/${a.id}`, { body: jsonApi('categories', { parent_id: b.id }), headers: t.keyHeaders }),
      rest('PATCH', `/v1/categories/${b.id}`, { body: jsonApi('categories', { parent_id: a.id }), headers: t.keyHeaders }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 422]);
    const tree = await rest('GET', '/v1/categories?tree=true', { headers: t.keyHeaders });
    expect(tree.body.meta.total).toBe(2);
  });

  test('delete: a parent with subcategories → 409 CONFLICT; a leaf goes, and its siblings close up', async () => {
    const t = await createTenant();
    const { home, kitchen, bath, knives } = await build(t);
    expectServiceError(await rest('DELETE', `/v1/categories/${home.id}`, { headers: t.keyHeaders }), 'products', 409, 'CONFLICT', { parameter: 'id' });
    const del = await rest('DELETE', `/v1/categories/${knives.id}`, { headers: t.keyHeaders });
    expect(del.status).toBe(200);
    expect(del.body.data.id).toBe(knives.id);
    expectServiceError(await rest('GET', `/v1/categories/${knives.id}`, { headers: t.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
    expect((await rest('DELETE', `/v1/categories/${kitchen.id}`, { headers: t.keyHeaders })).status).toBe(200);
    expect((await rest('GET', `/v1/categories/${bath.id}`, { headers: t.keyHeaders })).body.data.attributes.position).toBe(0);
  });
});

describe('POST /v1/categories/:id/products', () => {
  test('assigns (idempotent), counts, includes products; body fields under data', async () => {
    const t = await createTenant();
    const c = await category(t, { name: 'Lighting' });
    const p1 = await product(t, 'Lamp');
    const p2 = await product(t, 'Bulb');
    const r = await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { product_ids: [p1, p2, p1] } }, headers: t.keyHeaders });
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ added: 2 });
    expect(r.body.data.attributes.product_count).toBe(2);
    const again = await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { type: 'category_products', product_ids: [p2] } }, headers: t.keyHeaders });
    expect(again.body.meta).toEqual({ added: 0 });

    const got = await rest('GET', `/v1/categories/${c.id}?include=products,product_count`, { headers: t.keyHeaders });
    expect(got.body.data.attributes.product_count).toBe(2);
    // newest first, as the product list
    expect(got.body.data.attributes.products.map((p: any) => [p.type, p.attributes.name])).toEqual([
      ['products', 'Bulb'],
      ['products', 'Lamp'],
    ]);

    const removed = await rest('DELETE', `/v1/categories/${c.id}/products/${p1}`, { headers: t.keyHeaders });
    expect(removed.status).toBe(200);
    expect(removed.body.data.attributes.product_count).toBe(1);
    expectServiceError(await rest('DELETE', `/v1/categories/${c.id}/products/${p1}`, { headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND', { parameter: 'product_id' });
  });

  test('all or nothing: an unknown or foreign product → 404 naming product_ids, nothing assigned; bad bodies → 4xx', async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const c = await category(t, { name: 'Lighting' });
    const p1 = await product(t, 'Lamp');
    const foreign = await product(other, 'Theirs');
    const r = await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { product_ids: [p1, foreign] } }, headers: t.keyHeaders });
    expectServiceError(r, 'products', 404, 'PRODUCT_NOT_FOUND', { parameter: 'product_ids' });
    expect((await rest('GET', `/v1/categories/${c.id}?include=product_count`, { headers: t.keyHeaders })).body.data.attributes.product_count).toBe(0);
    expectServiceError(await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { product_ids: [] } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'product_ids' });
    expectServiceError(await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { product_ids: { a: 1 } } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'product_ids' });
    // the document names no type for this body (`data.product_ids`): any data.type is taken; a field it does not take is named
    expectServiceError(await rest('POST', `/v1/categories/${c.id}/products`, { body: { data: { type: 'products', product_ids: [p1], colour: 'red' } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'colour' });
    expectServiceError(await rest('POST', `/v1/categories/cat_AAAAAAAAAAAAAAAAAAAA/products`, { body: { data: { product_ids: [p1] } }, headers: t.keyHeaders }), 'products', 404, 'CATEGORY_NOT_FOUND');
  });
});
