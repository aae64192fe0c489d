// Product is the catalog's entity; the AI and search subgraphs add fields to it by key
// (Product.moderation with @requires(name description), Product.searchDocuments) without keeping
// product data. One gateway query crosses the three subgraphs; other tenants see nothing.
import { createTenant, gql, jsonApi, rest, uniq } from '../harness/client.js';
import { aiUser } from '../harness/ai.js';
import { addDocuments, createIndex } from './search.helpers.js';

async function createProduct(headers: Record<string, string>, attrs: Record<string, unknown>): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { sku: uniq('FED-'), status: 'active', ...attrs }), headers });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

const QUERY = `query($id: ID!) { product(id: $id) { id name
  moderation { flagged action model categories { violence { flagged score } spam { flagged } } }
  searchDocuments { indexUid document } } }`;

describe('Product extended by the AI and search subgraphs', () => {
  test('moderation of the product text and its documents in the caller\'s indexes, in one query', async () => {
    const u = await aiUser();
    const clean = await createProduct(u.headers, { name: 'Oak cutting board', description: 'End-grain oak, oiled by hand.' });
    const violent = await createProduct(u.headers, { name: 'Poster', description: 'I will kill you if you come back here.' });
    const uid = await createIndex(u.t, { primary_key: 'id' });
    await addDocuments(u.t, uid, [{ id: clean, title: 'Oak cutting board', stock: 3 }, { id: 'not-a-product', title: 'Other' }]);

    const a = await gql(QUERY, { id: clean }, u.headers);
    expect(a.body.errors).toBeUndefined();
    expect(a.body.data.product).toMatchObject({
      id: clean,
      name: 'Oak cutting board',
      moderation: { flagged: false, action: 'allow', categories: { violence: { flagged: false } } },
      searchDocuments: [{ indexUid: uid, document: { id: clean, title: 'Oak cutting board', stock: 3 } }],
    });
    // the same verdict the moderation endpoint gives for the same text
    const b = await gql(QUERY, { id: violent }, u.headers);
    expect(b.body.data.product.moderation).toMatchObject({ flagged: true, categories: { violence: { flagged: true } } });
    expect(b.body.data.product.searchDocuments).toEqual([]);
  });

  test('another tenant\'s index documents never appear on a product; a foreign product is not found', async () => {
    const [mine, other] = await Promise.all([aiUser(), createTenant()]);
    const id = await createProduct(mine.headers, { name: 'Linen apron' });
    // the other tenant keys a document by my product's id in its own index
    const uid = await createIndex(other, { primary_key: 'id' });
    await addDocuments(other, uid, [{ id, title: 'spoofed' }]);
    const r = await gql('query($id: ID!) { product(id: $id) { id searchDocuments { indexUid } } }', { id }, mine.headers);
    expect(r.body.data.product).toEqual({ id, searchDocuments: [] });
    const foreign = await gql('query($id: ID!) { product(id: $id) { id } }', { id }, other.keyHeaders);
    expect(foreign.body.data?.product ?? null).toBeNull();
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('PRODUCT_NOT_FOUND');
  });
});
