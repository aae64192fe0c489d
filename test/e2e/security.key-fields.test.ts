// What API keys may read over GraphQL, checked live against the stack. The rows are generated from
// schema/field-access.json and the supergraph (test/harness/key-reach.ts): every field declaring a
// secret key (refused to the app's publishable key) or OPERATOR (refused to both its keys) is asked
// for along the shortest path from a root the key calls, and must be refused with
// INSUFFICIENT_SCOPE at the first field the key does not pass, its value never sent. The secret
// key reads what only a publishable key is refused. The REST side of the same table runs in the
// per-area attack suites (security.<area>.test.ts: "the app's publishable key on a route that
// needs a secret key → 403", and its converse).
import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { createTenant, gql, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { guardedRows, loadFieldAccess, type GuardedRow } from '../harness/key-reach.js';
import { expectServiceError } from '../harness/security.js';

let t: Tenant;
let productId: string;
const HOOK = `https://hooks.example.com/t/${uniq('tok')}`;

const keyHeaders = (keyType: 'secret' | 'publishable') => ({ 'x-app-id': t.appId, 'x-api-key': keyType === 'secret' ? t.secretKey : t.publishableKey });

/** Required arguments: the tenant's product where a path goes through one; guarded roots refuse before reading the rest. */
function argValue(name: string, type: string): string | undefined {
  if (name === 'productId') return JSON.stringify(productId ?? 'prod_placeholder');
  if (type === 'ID' || type === 'String') return JSON.stringify(`x_${name}`);
  if (type === 'Int' || type === 'Float') return '1';
  if (type === 'Boolean') return 'false';
  return undefined;
}

const rowsOf = (): GuardedRow[] => guardedRows(loadApiSchema(), loadFieldAccess(), argValue);

beforeAll(async () => {
  t = await createTenant();
  const p = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Chair', sku: uniq('SKU-'), price: { amount: 1000, currency: 'USD' } }), headers: t.keyHeaders });
  expect(p.status).toBe(201);
  productId = p.body.data.id;
  const c = await rest('PUT', `/v1/products/${productId}/customer-prices`, { body: { data: { prices: [{ customer_id: 'cus_1', price: { amount: 700, currency: 'USD' } }] } }, headers: t.keyHeaders });
  expect(c.status).toBe(200);
  const a = await rest('PUT', `/accounts/${t.accountUrlId}/apps/${t.appId}`, { body: jsonApi('apps', { webhook_url: HOOK }), headers: t.platformHeaders });
  expect(a.status).toBe(200);
});

const pathOf = (e: { path?: (string | number)[] }) => (e.path ?? []).filter((p) => typeof p === 'string').join('.');

describe('generated rows: each declared field refused to the keys it names', () => {
  // the rows need no stack to be listed: a declared field no key path reaches fails here, at collection
  const rows = guardedRows(loadApiSchema(), loadFieldAccess(), argValue);

  test('there are rows for the operator-only and the secret-key fields', () => {
    const fields = new Set(rows.map((r) => r.field));
    for (const f of ['Account.platform', 'App.account', 'App.webhookUrl', 'ProductPricing.customerPrices', 'Query.productWebhooks', 'Query.searchWebhooks', 'Query.inventoryReservation', 'Query.inventoryAdjustments']) expect(fields).toContain(f);
  });

  test.each(rows.map((r) => [`${r.keyType} key: ${r.field} via ${r.path.join('.')}`, r.field, r.keyType]))('%s → INSUFFICIENT_SCOPE', async (_name, field, keyType) => {
    const row = rowsOf().find((r) => r.field === field && r.keyType === keyType)!;
    const res = await gql(row.query, {}, keyHeaders(row.keyType));
    const refused = (res.body.errors ?? []).filter((e: any) => e.extensions?.code === 'INSUFFICIENT_SCOPE').map(pathOf);
    expect({ query: row.query, refused }).toEqual({ query: row.query, refused: [row.refusedAt.join('.')] });
    const text = JSON.stringify(res.body.data ?? null);
    for (const secret of [HOOK, 'cus_1', t.platformCode]) expect(text).not.toContain(secret);
  });

  const secretOnly = rows.filter((r) => r.keyType === 'publishable' && !rows.some((o) => o.field === r.field && o.keyType === 'secret'));
  test.each(secretOnly.map((r) => [r.field]))('the secret key reads %s (no scope error)', async (field) => {
    const row = rowsOf().find((r) => r.field === field && r.keyType === 'publishable')!;
    const res = await gql(row.query, {}, keyHeaders('secret'));
    expect((res.body.errors ?? []).filter((e: any) => e.extensions?.code === 'INSUFFICIENT_SCOPE')).toEqual([]);
  });
});

describe("the operator's platform record is never a key's (the queries of the report)", () => {
  const PLATFORM = 'platform { email settings metadata schemaName }';
  test.each([
    ['currentApp', `{ currentApp { account { ${PLATFORM} } } }`, 'currentApp.account'],
    ['products → app', `{ products { items { app { account { ${PLATFORM} } } } } }`, 'products.items.app.account'],
  ])('%s: refused to both keys, nothing of the platform in the answer', async (_name, query, at) => {
    for (const keyType of ['secret', 'publishable'] as const) {
      const res = await gql(query, {}, keyHeaders(keyType));
      expect((res.body.errors ?? []).map((e: any) => [e.extensions?.code, pathOf(e)])).toContainEqual(['INSUFFICIENT_SCOPE', at]);
      expect(JSON.stringify(res.body)).not.toContain(t.platformCode);
    }
  });

  test("the platform's operator still reads an app's webhook URL and its account's platform over REST and GraphQL", async () => {
    const apps = await rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders });
    expect(apps.body.data.find((a: any) => a.id === t.appId).attributes.webhook_url).toBe(HOOK);
    const g = await gql(`{ apps(accountUrlId: "${t.accountUrlId}") { webhookUrl account { platform { code } } } }`, {}, t.platformHeaders);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.apps[0]).toEqual({ webhookUrl: HOOK, account: { platform: { code: t.platformCode } } });
  });
});

describe('a price for a named customer is that customer’s negotiated price', () => {
  const price = (keyType: 'secret' | 'publishable', query: string) => rest('GET', `/v1/products/${productId}/price?${query}`, { headers: keyHeaders(keyType) });

  test('a publishable key reads the public price, and is refused a customer or customer-group price (403)', async () => {
    expect((await price('publishable', 'currency=USD')).body.data.attributes).toMatchObject({ source: 'base', amount: 1000 });
    expectServiceError(await price('publishable', 'customer_id=cus_1'), 'products', 403, 'INSUFFICIENT_SCOPE');
    expectServiceError(await price('publishable', 'customer_group_id=vip'), 'products', 403, 'INSUFFICIENT_SCOPE');
    expect((await price('secret', 'customer_id=cus_1')).body.data.attributes).toMatchObject({ source: 'customer', amount: 700 });
  });

  test('over GraphQL: Product.effectivePrice and effectivePrices with a customer need a secret key too', async () => {
    const one = `{ product(id: "${productId}") { effectivePrice(currency: "USD", customerId: "cus_1") { amount } } }`;
    const batch = `{ effectivePrices(productIds: ["${productId}"], currency: "USD", customerGroupIds: ["vip"]) { items { amount } } }`;
    for (const [q, at] of [[one, 'product.effectivePrice'], [batch, 'effectivePrices']]) {
      const pk = await gql(q, {}, keyHeaders('publishable'));
      expect((pk.body.errors ?? []).map((e: any) => [e.extensions?.code, pathOf(e)])).toEqual([['INSUFFICIENT_SCOPE', at]]);
      expect(JSON.stringify(pk.body.data ?? null)).not.toContain('700');
    }
    const sk = await gql(one, {}, keyHeaders('secret'));
    expect(sk.body.errors).toBeUndefined();
    expect(sk.body.data.product.effectivePrice.amount).toBe(700);
  });
});
