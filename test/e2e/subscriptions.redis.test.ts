// Across processes over Redis: the catalog subgraph runs in its own process and publishes to Redis;
// two separate gateway processes each serve a WebSocket subscriber; both receive the event.
import { createTenant, gql, uniq } from '../harness/client.js';
import { twoGatewaysOverRedis } from '../harness/redis-gateways.js';
import { subscribe, wsClient } from '../harness/ws.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('subscriptions.redis.test: REDIS_URL is not set; the two-gateway test is skipped');

maybe('two gateway processes over Redis', () => {
  const { gatewayA, gatewayB } = twoGatewaysOverRedis(REDIS_URL!, 200, 'redis');

  test('an event published by the catalog process reaches subscribers on both gateways', async () => {
    const t = await createTenant();
    const params = { 'x-app-id': t.appId, 'x-api-key': t.secretKey };
    const query = 'subscription { productEvents { event product { name app { id } } } }';
    const subA = await subscribe(wsClient(gatewayA, params), query);
    const subB = await subscribe(wsClient(gatewayB, params), query);
    try {
      const r = await gql(
        'mutation($input: CreateProductInput!) { createProduct(input: $input) { id } }',
        { input: { name: 'Redis lamp', sku: uniq('SKU-') } },
        params,
        gatewayA,
      );
      expect(r.body.errors).toBeUndefined();
      const expected = { productEvents: { event: 'product.created', product: { name: 'Redis lamp', app: { id: t.appId } } } };
      expect(await subA.next(8000)).toMatchObject(expected);
      expect(await subB.next(8000)).toMatchObject(expected);
    } finally {
      await subA.close();
      await subB.close();
    }
  });
});
