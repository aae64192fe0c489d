// Stock alerts across processes over Redis: the catalog subgraph runs in its own process; two
// gateway processes each serve a graphql-ws subscriber of inventoryAlerts; an adjustment sent
// through gateway A reaches both.
import type { ChildProcess } from 'node:child_process';
import { createTenant, gql, stack, uniq } from '../harness/client.js';
import { spawnScript, stop, waitFor } from '../harness/spawn.js';
import { subscribe, wsClient } from '../harness/ws.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('inventory.redis.test: REDIS_URL is not set; the two-gateway test is skipped');

maybe('stock alerts on two gateway processes over Redis', () => {
  const base = Number(process.env.TEST_PORT_BASE ?? 14000) + 1350;
  const procs: ChildProcess[] = [];
  const gatewayA = `http://127.0.0.1:${base}/graphql`;
  const gatewayB = `http://127.0.0.1:${base + 10}/graphql`;

  beforeAll(async () => {
    const s = stack();
    const env = {
      JWT_SECRET: s.env.JWT_SECRET,
      INTERNAL_SECRET: s.env.INTERNAL_SECRET,
      DATABASE_URL: s.env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${s.env.EMBEDDED_PG_PORT}/supergraph`,
      REDIS_URL,
      LOG_LEVEL: 'warn',
      PLATFORM_PORT: String(base + 1),
      AI_PORT: String(base + 2),
      CATALOG_PORT: String(base + 3),
      SEARCH_PORT: String(base + 4),
    };
    const platform = spawnScript('subgraphs/platform/main.ts', env, 'inv-redis-platform');
    const catalog = spawnScript('subgraphs/catalog/main.ts', env, 'inv-redis-catalog');
    procs.push(platform, catalog);
    await Promise.all([
      waitFor(`http://127.0.0.1:${base + 1}/health/ready`, 150_000, platform),
      waitFor(`http://127.0.0.1:${base + 3}/health/ready`, 150_000, catalog),
    ]);
    const gwA = spawnScript('gateway/main.ts', { ...env, GATEWAY_PORT: String(base) }, 'inv-redis-gateway-a');
    const gwB = spawnScript('gateway/main.ts', { ...env, GATEWAY_PORT: String(base + 10) }, 'inv-redis-gateway-b');
    procs.push(gwA, gwB);
    await Promise.all([waitFor(`http://127.0.0.1:${base}/health`, 150_000, gwA), waitFor(`http://127.0.0.1:${base + 10}/health`, 150_000, gwB)]);
  }, 400_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => stop(p)));
  });

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
