// App.products: the catalog adds the app's newest live products to the platform's App. One query
// crosses platform and catalog; the list is the caller's own partition (app and environment),
// newest first, without deleted products, and each product reads as `product(id)` reads it.
import { createTenant, gql, jsonApi, rest, uniq } from '../harness/client.js';

async function createProduct(headers: Record<string, string>, name: string): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name, sku: uniq('APP-'), status: 'active', price: { amount: 1250, currency: 'EUR' } }), headers });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

const FIELDS = 'id name sku status price { amount currency formatted } createdAt';
const APP_PRODUCTS = `{ currentApp { id products { ${FIELDS} } } }`;

test('newest first, live only, the caller\'s environment only; each product as product(id) reads it', async () => {
  const t = await createTenant();
  const first = await createProduct(t.keyHeaders, 'First lamp');
  const gone = await createProduct(t.keyHeaders, 'Deleted lamp');
  const last = await createProduct(t.keyHeaders, 'Last lamp');
  expect((await rest('DELETE', `/v1/products/${gone}`, { headers: t.keyHeaders })).status).toBeLessThan(300);
  // a test-environment key of the same app sees its own partition
  const k = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, { body: jsonApi('api_keys', { name: 'test env', key_type: 'secret', environment: 'test' }), headers: t.platformHeaders });
  expect(k.status).toBe(201);
  const testHeaders = { 'x-app-id': t.appId, 'x-api-key': k.body.data.attributes.key_id as string };
  const sandbox = await createProduct(testHeaders, 'Sandbox lamp');

  const live = await gql(APP_PRODUCTS, {}, t.keyHeaders);
  expect(live.body.errors).toBeUndefined();
  expect(live.body.data.currentApp.id).toBe(t.appId);
  expect(live.body.data.currentApp.products.map((p: { id: string }) => p.id)).toEqual([last, first]);
  const one = await gql(`query($id: ID!) { product(id: $id) { ${FIELDS} } }`, { id: last }, t.keyHeaders);
  expect(live.body.data.currentApp.products[0]).toEqual(one.body.data.product);
  expect(one.body.data.product).toMatchObject({ name: 'Last lamp', status: 'active', price: { amount: 1250, currency: 'EUR' } });

  const test = await gql(APP_PRODUCTS, {}, testHeaders);
  expect(test.body.data.currentApp.products.map((p: { id: string }) => p.id)).toEqual([sandbox]);

  const other = await createTenant();
  const theirs = await gql(APP_PRODUCTS, {}, other.keyHeaders);
  expect(theirs.body.errors).toBeUndefined();
  expect(theirs.body.data.currentApp.products).toEqual([]);
});
