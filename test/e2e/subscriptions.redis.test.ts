// Across processes over Redis: the catalog subgraph runs in its own process and publishes to Redis;
// two separate gateway processes each serve a WebSocket subscriber; both receive the event.
import type { ChildProcess } from 'node:child_process';
import { createTenant, gql, stack, uniq } from '../harness/client.js';
import { spawnScript, stop, waitFor } from '../harness/spawn.js';
import { subscribe, wsClient } from '../harness/ws.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('subscriptions.redis.test: REDIS_URL is not set; the two-gateway test is skipped');

maybe('two gateway processes over Redis', () => {
  const base = Number(process.env.TEST_PORT_BASE ?? 14000) + 200;
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
    const platform = spawnScript('subgraphs/platform/main.ts', env, 'redis-platform');
    const catalog = spawnScript('subgraphs/catalog/main.ts', env, 'redis-catalog');
    procs.push(platform, catalog);
    await Promise.all([
      waitFor(`http://127.0.0.1:${base + 1}/health/ready`, 60_000, platform),
      waitFor(`http://127.0.0.1:${base + 3}/health/ready`, 60_000, catalog),
    ]);
    const gwA = spawnScript('gateway/main.ts', { ...env, GATEWAY_PORT: String(base) }, 'redis-gateway-a');
    const gwB = spawnScript('gateway/main.ts', { ...env, GATEWAY_PORT: String(base + 10) }, 'redis-gateway-b');
    procs.push(gwA, gwB);
    await Promise.all([waitFor(`http://127.0.0.1:${base}/health`, 60_000, gwA), waitFor(`http://127.0.0.1:${base + 10}/health`, 60_000, gwB)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => stop(p)));
  });

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
