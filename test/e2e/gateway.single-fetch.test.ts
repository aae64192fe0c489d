// The single-fetch pass-through against a live stack (gateway/single-fetch.ts): a second gateway
// with GATEWAY_SINGLE_FETCH=0 on the same subgraphs answers every operation through ApolloGateway's
// own result shaping; the test stack's gateway (pass-through on) must answer byte for byte alike,
// data and errors, for one-fetch queries and mutations, fragments, aliases, directives, and for
// operations that span subgraphs.
import type { ChildProcess } from 'node:child_process';
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { stop, waitFor } from '../harness/spawn.js';
import { spawnStackGateway } from '../harness/stack-gateway.js';

const PORT = Number(process.env.TEST_PORT_BASE ?? 14000) + 1400;
const standard = `http://127.0.0.1:${PORT}/graphql`;
let proc: ChildProcess;
let t: Tenant;
let productId: string;

beforeAll(async () => {
  proc = spawnStackGateway(PORT, { GATEWAY_SINGLE_FETCH: '0' }, 'single-fetch-off-gateway');
  await waitFor(`http://127.0.0.1:${PORT}/health`, 150_000, proc);
  t = await createTenant();
  const created = await rest('POST', '/v1/products', {
    body: jsonApi('products', { name: 'Pass-through mug', sku: uniq('PT-'), price: { amount: 1250, currency: 'EUR', compare_at: 1500 }, metadata: { colour: 'blue' } }),
    headers: t.keyHeaders,
  });
  expect(created.status).toBe(201);
  productId = created.body.data.id;
  await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Second mug', sku: uniq('PT-'), price: { amount: 900, currency: 'EUR' } }), headers: t.keyHeaders });
}, 200_000);
afterAll(() => stop(proc));

/** Both answers with the parts that differ per request (request ids) taken out. */
function comparable(body: unknown): unknown {
  const out = JSON.parse(JSON.stringify(body), (k, v) => (k === 'requestId' || k === 'request_id' ? undefined : v));
  // the same estimate from both gateways; the budgets are each gateway's own (docs/cost.md)
  if (out?.extensions?.cost) out.extensions.cost = { requested: out.extensions.cost.requested };
  return out;
}

async function both(query: string, variables: Record<string, unknown> = {}): Promise<{ on: any; off: any }> {
  // twice through the pass-through gateway: the first request plans, the second passes through
  await gql(query, variables, t.keyHeaders);
  const on = await gql(query, variables, t.keyHeaders);
  const off = await gql(query, variables, t.keyHeaders, standard);
  expect(on.status).toBe(off.status);
  return { on: comparable(on.body), off: comparable(off.body) };
}

const CASES: [string, string, () => Record<string, unknown>][] = [
  [
    'a page with fragments, aliases and @include',
    `query Page($n: Int!, $withVariants: Boolean!) {
      page: products(pageSize: $n, sort: "name") { count: total items { ...P variants @include(if: $withVariants) { id } } }
    }
    fragment P on Product { id title: name sku price { amount currency formatted compareAtFormatted } metadata inventory { inStock available } createdAt bundleAvailable }`,
    () => ({ n: 5, withVariants: false }),
  ],
  ['one product with nested fields', 'query One($id: ID!) { product(id: $id) { id name options { name values } seo { slug } categories { id } } }', () => ({ id: productId })],
  ['a product that does not exist (an error from the subgraph)', 'query One($id: ID!) { product(id: $id) { id name } }', () => ({ id: 'prod_doesnotexist0000' })],
  ['a variable of the wrong type', 'query Page($n: Int!) { products(pageSize: $n) { total } }', () => ({ n: 'five' })],
  ['a bad argument value', '{ products(pageSize: 5, sort: "sideways") { total } }', () => ({})],
  ['an operation across subgraphs', '{ currentApp { id name products { id name } } }', () => ({})],
  ['__typename at the root and below', '{ __typename products(pageSize: 1) { __typename items { __typename id } } }', () => ({})],
];

describe('single-fetch pass-through answers as ApolloGateway does', () => {
  it.each(CASES)('%s', async (_name, query, vars) => {
    const { on, off } = await both(query, vars());
    expect(on).toEqual(off);
  });

  it('a mutation refused by the subgraph (duplicate SKU) gets the same error', async () => {
    const sku = uniq('PT-');
    const m = 'mutation Create($input: CreateProductInput!) { createProduct(input: $input) { id sku } }';
    const first = await gql(m, { input: { name: 'Once', sku } }, t.keyHeaders);
    expect(first.body.errors).toBeUndefined();
    const on = await gql(m, { input: { name: 'Twice', sku } }, t.keyHeaders);
    const off = await gql(m, { input: { name: 'Twice', sku } }, t.keyHeaders, standard);
    expect(on.status).toBe(off.status);
    expect(comparable(on.body)).toEqual(comparable(off.body));
    expect(on.body.errors?.[0]?.extensions?.code).toBeTruthy();
  });
});
