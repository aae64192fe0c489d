// Stock alerts across processes over Redis: the catalog subgraph runs in its own process; two
// gateway processes each serve a graphql-ws subscriber of inventoryAlerts; an adjustment sent
// through gateway A reaches both.
import { createTenant, gql, uniq } from '../harness/client.js';
import { twoGatewaysOverRedis } from '../harness/redis-gateways.js';
import { subscribe, wsClient } from '../harness/ws.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('inventory.redis.test: REDIS_URL is not set; the two-gateway test is skipped');

maybe('stock alerts on two gateway processes over Redis', () => {
  const { gatewayA, gatewayB } = twoGatewaysOverRedis(REDIS_URL!, 1350, 'inv-redis');

  test('a low-stock crossing raised behind gateway A reaches subscribers on A and B', async () => {
    const t = await createTenant();
    const params = { 'x-app-id': t.appId, 'x-api-key': t.secretKey };
    const created = await gql(
      'mutation($input: CreateProductInput!) { createProduct(input: $input) { id } }',
      { input: { name: 'Redis stock', sku: uniq('SKU-'), inventory: { quantity: 5, lowStockThreshold: 3 } } },
      params,
      gatewayA,
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createProduct.id;
    const query = `subscription { inventoryAlerts(productId: "${id}") { event productId currentQuantity threshold product { name } } }`;
    const subA = await subscribe(wsClient(gatewayA, params), query);
    const subB = await subscribe(wsClient(gatewayB, params), query);
    try {
      const r = await gql(
        'mutation($id: ID!, $a: [InventoryAdjustmentInput!]!) { adjustInventory(productId: $id, adjustments: $a) { available } }',
        { id, a: [{ quantity: -3, reason: 'sale' }] },
        params,
        gatewayA,
      );
      expect(r.body.errors).toBeUndefined();
      const expected = { inventoryAlerts: { event: 'inventory.low_stock', productId: id, currentQuantity: 2, threshold: 3, product: { name: 'Redis stock' } } };
      expect(await subA.next(8000)).toMatchObject(expected);
      expect(await subB.next(8000)).toMatchObject(expected);
    } finally {
      await subA.close();
      await subB.close();
    }
  });
});
