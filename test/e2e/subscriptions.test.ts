// Subscriptions over a real WebSocket on the stack's gateway: a product created through REST reaches
// the subscriber with fields resolved across subgraphs (catalog's product, platform's app), only
// for its own tenant; bad credentials in connection_init are refused.
import { createTenant, jsonApi, rest, stack, uniq } from '../harness/client.js';
import { connectionRefusal, subscribe, wsClient } from '../harness/ws.js';

const SUB = `subscription { productEvents { event productId occurredAt product { id name sku app { id name } } } }`;

function keyParams(t: { appId: string; secretKey: string }) {
  return { 'x-app-id': t.appId, 'x-api-key': t.secretKey };
}

describe('productEvents subscription', () => {
  test('a product created through REST reaches the subscriber with cross-subgraph fields', async () => {
    const t = await createTenant();
    const sub = await subscribe(wsClient(stack().gateway, keyParams(t)), SUB);
    try {
      const sku = uniq('SKU-');
      const created = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Desk lamp', sku }), headers: t.keyHeaders });
      expect(created.status).toBe(201);
      const evt = await sub.next();
      expect(evt.productEvents).toMatchObject({
        event: 'product.created',
        productId: created.body.data.id,
        product: { id: created.body.data.id, name: 'Desk lamp', sku, app: { id: t.appId, name: 'App' } },
      });
    } finally {
      await sub.close();
    }
  });

  test("a subscriber never receives another tenant's events", async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const subB = await subscribe(wsClient(stack().gateway, keyParams(b)), SUB);
    const subA = await subscribe(wsClient(stack().gateway, keyParams(a)), SUB);
    try {
      const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Only A', sku: uniq('SKU-') }), headers: a.keyHeaders });
      expect(r.status).toBe(201);
      expect((await subA.next()).productEvents.productId).toBe(r.body.data.id);
      expect(await subB.quiet(700)).toBe(true);
    } finally {
      await subA.close();
      await subB.close();
    }
  });

  test('connection_init with an unknown key is refused (4403)', async () => {
    const t = await createTenant();
    const code = await connectionRefusal(stack().gateway, { 'x-app-id': t.appId, 'x-api-key': 'sk_live_ent_0000000000000000000000000' });
    expect(code).toBe(4403);
  });

  test('a key without products:read cannot subscribe', async () => {
    const t = await createTenant();
    const r = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, {
      body: jsonApi('api_keys', { name: 'search only', key_type: 'secret', scopes: ['search:read'] }),
      headers: t.platformHeaders,
    });
    expect(r.status).toBe(201);
    // graphql-ws reports a refused subscribe either as an `error` message or as a `next` with errors.
    let failure: unknown;
    try {
      const sub = await subscribe(wsClient(stack().gateway, { 'x-app-id': t.appId, 'x-api-key': r.body.data.attributes.key_id }), SUB);
      failure = await sub.next(3000);
      await sub.close();
    } catch (e) {
      failure = e;
    }
    expect(JSON.stringify(failure)).toContain('INSUFFICIENT_SCOPE');
  });
});
