// Resume across gateways over Redis: a client streams (SSE) from gateway A; A is killed mid-stream
// (SIGKILL: nothing drained, the client is not told); events keep coming through gateway B; the
// client reconnects to B with Last-Event-ID and receives every missed event exactly once, then the
// live ones. The tenant's stream is in Redis (XADD by the catalog process), so any gateway resumes it.
import { createTenant, gql, uniq, type Tenant } from '../harness/client.js';
import { twoGatewaysOverRedis } from '../harness/redis-gateways.js';
import { sseRequest, type SseEvent } from '../harness/sse.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('subscriptions.sse-redis.test: REDIS_URL is not set; the two-gateway resume test is skipped');

const SUB = 'subscription { productEvents { event productId product { id name } } }';

maybe('resumable SSE across two gateways over Redis', () => {
  const { gatewayA, gatewayB, killGatewayA } = twoGatewaysOverRedis(REDIS_URL!, 1700, 'sse-redis');

  test('gateway A killed mid-stream: reconnecting to B with Last-Event-ID gets every missed event once', async () => {
    const t = await createTenant();
    const headers = { 'x-app-id': t.appId, 'x-api-key': t.secretKey };
    const create = (name: string) => createProduct(t, headers, gatewayB, name);

    const onA = await sseRequest(gatewayA, { headers, body: { query: SUB } });
    expect(onA.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const before = [await create('A1'), await create('A2')];
    const received: SseEvent[] = [await onA.next(), await onA.next()];
    expect(received.map(productId)).toEqual(before);

    await killGatewayA();
    await onA.ended;
    const missed: string[] = [];
    for (let i = 1; i <= 5; i++) missed.push(await create(`missed ${i}`));

    const onB = await sseRequest(gatewayB, { headers: { ...headers, 'last-event-id': received[1].id! }, body: { query: SUB } });
    expect(onB.status).toBe(200);
    try {
      const replayed: SseEvent[] = [];
      for (let i = 0; i < missed.length; i++) replayed.push(await onB.next());
      expect(replayed.map(productId)).toEqual(missed);
      const after = await create('live after resume');
      const live = await onB.next();
      expect(productId(live)).toBe(after);
      expect(await onB.quiet(800)).toBe(true);
      const ids = [...received, ...replayed, live].map((e) => e.id!);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort(compareIds)).toEqual(ids);
    } finally {
      onB.close();
    }
  });
});

function productId(e: SseEvent): string {
  return e.data.data.productEvents.productId;
}

function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

async function createProduct(_t: Tenant, headers: Record<string, string>, gateway: string, name: string): Promise<string> {
  const r = await gql('mutation($input: CreateProductInput!) { createProduct(input: $input) { id } }', { input: { name, sku: uniq('SKU-') } }, headers, gateway);
  expect(r.body.errors).toBeUndefined();
  return r.body.data!.createProduct.id;
}
