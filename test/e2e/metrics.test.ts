// GET /metrics on every port of the stack (Prometheus text format), after real traffic: requests by
// route and status with latency histograms, subgraph fetch latency, database pools, job queues
// (search tasks among them) and WebSocket connections.
import WebSocket from 'ws';
import { createTenant, jsonApi, rest, stack, uniq } from '../harness/client.js';
import { createIndex, waitTask } from './search.helpers.js';

const scrape = async (base: string) => {
  const r = await fetch(`${base}/metrics`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.text();
};

/** The value of the first sample of `name` whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const origin = (url: string) => new URL(url).origin;

test('every process port answers /metrics; REST routes, GraphQL operations, subgraph fetches, pools, job queues and sockets are there', async () => {
  const t = await createTenant();
  const sku = uniq('SKU-');
  const created = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Metered mug', sku, price: { amount: 900, currency: 'EUR' } }), headers: t.keyHeaders });
  expect(created.status).toBe(201);
  expect((await rest('GET', `/v1/products/${created.body.data.id}`, { headers: t.keyHeaders })).status).toBe(200);
  expect((await rest('GET', '/v1/products/nope-not-there', { headers: t.keyHeaders })).status).toBe(404);
  // a search task: it runs on the search schema's job queue
  const uid = await createIndex(t, { primary_key: 'id' });
  const added = await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: [{ id: '1', title: 'Mug' }] }), headers: t.keyHeaders });
  expect(added.status).toBe(202);
  expect((await waitTask(t, added.body.data.id)).attributes.status).toBe('succeeded');

  // a subscription socket stays open while the gateway is scraped
  const ws = new WebSocket(stack().gateway.replace(/^http/, 'ws'), 'graphql-transport-ws');
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: t.keyHeaders })));
    ws.once('message', () => resolve());
    ws.once('error', reject);
  });
  try {
    const bridge = await scrape(stack().rest);
    expect(sample(bridge, 'http_requests_total', { component: 'rest-bridge', route: '/v1/products', method: 'POST', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(sample(bridge, 'http_requests_total', { component: 'rest-bridge', route: '/v1/products/:id', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(bridge, 'http_request_duration_seconds_bucket', { component: 'rest-bridge', route: '/v1/products/:id', status: '200', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    expect(sample(bridge, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    const gateway = await scrape(origin(stack().gateway));
    expect(sample(gateway, 'http_requests_total', { component: 'gateway', route: 'graphql CreateProduct', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(gateway, 'gateway_subgraph_fetch_duration_seconds_count', { subgraph: 'catalog', outcome: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(gateway, 'websocket_connections', { component: 'gateway' })).toBeGreaterThanOrEqual(1);

    for (const name of ['platform', 'ai', 'catalog', 'search'] as const) {
      const text = await scrape(origin(stack().subgraphs[name]));
      expect({ name, max: sample(text, 'db_pool_connections', { pool: name, state: 'max' }) }).toEqual({ name, max: expect.any(Number) });
      expect(sample(text, 'db_pool_connections', { pool: name, state: 'total' })).toEqual(expect.any(Number)); // 0 once idle connections are closed
    }
    const catalog = await scrape(origin(stack().subgraphs.catalog));
    expect(sample(catalog, 'http_requests_total', { component: 'catalog', status: '200' })).toBeGreaterThanOrEqual(1);
    const after = await scrape(origin(stack().subgraphs.search));
    expect(sample(after, 'jobs_wait_seconds_count', { queue: 'search' })).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^jobs_queue_lag_seconds\{queue="search",kind="[^"]+"\} \d/m);
    expect(after).toMatch(/^jobs_queue_depth\{queue="search",kind="[^"]+",status="queued"\} \d/m);
  } finally {
    ws.close();
  }
});

