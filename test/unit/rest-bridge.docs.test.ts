// GET /docs: the REST reference page, Swagger UI served from node_modules (no CDN), rendering
// /openapi.json. Everything the page loads is on this origin, and its Content-Security-Policy makes
// the browser refuse anything else. Also what JSON:API clients rely on: the request id in error
// bodies, application/vnd.api+json answered when asked for, Location on a created resource.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { startRestBridge, type RunningRestBridge } from '../../rest-bridge/server.js';
import { bodyPointer } from '../../rest-bridge/errors.js';

let bridge: RunningRestBridge;
let gateway: Server;

beforeAll(async () => {
  // a stand-in gateway answering every operation with one product
  gateway = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { createProduct: { id: 'p1', name: 'Lamp', sku: 'LAMP-1' } } }));
    });
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/graphql`;
  bridge = await startRestBridge({ cfg: loadConfig({}), log: createLogger({}, 'silent'), port: 0, gatewayUrl });
});
afterAll(async () => {
  await bridge.stop();
  gateway.closeAllConnections();
  await new Promise((r) => gateway.close(r));
});

const get = (path: string) => fetch(`${bridge.url}${path}`, { redirect: 'manual' });

test('GET / redirects to /docs', async () => {
  const r = await get('/');
  expect(r.status).toBe(302);
  expect(r.headers.get('location')).toBe('/docs');
});

test('GET /docs: an HTML page loading only same-origin assets, under a self-only CSP', async () => {
  const r = await get('/docs');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/html/);
  expect(r.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
  expect(r.headers.get('content-security-policy')).toMatch(/connect-src 'self'/);
  const html = await r.text();
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(refs.length).toBeGreaterThanOrEqual(3);
  for (const ref of refs) expect(ref).toMatch(/^\/docs\/assets\//);
  for (const ref of refs) {
    const a = await get(ref);
    expect({ ref, status: a.status }).toEqual({ ref, status: 200 });
    expect((await a.arrayBuffer()).byteLength).toBeGreaterThan(100);
  }
  const start = await (await get('/docs/assets/start.js')).text();
  expect(start).toContain("url: '/openapi.json'");
  expect(start).toContain('validatorUrl: null');
  expect(start).not.toMatch(/https?:\/\//);
});

test('the page renders the document the bridge serves', async () => {
  const r = await get('/openapi.json');
  expect(r.status).toBe(200);
  const doc = (await r.json()) as { openapi: string; servers: { url: string }[] };
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.servers[0].url).toBe('/');
});

test('unknown assets and other methods are not served', async () => {
  expect((await get('/docs/assets/../../package.json')).status).toBe(404);
  expect((await get('/docs/assets/index.html')).status).toBe(404);
  expect((await fetch(`${bridge.url}/docs`, { method: 'POST' })).status).toBe(404);
});

test('every error body carries the request id, in the service shape (platform: request_id; lists: meta.request_id)', async () => {
  const platform = await fetch(`${bridge.url}/no-such-path`, { headers: { 'x-request-id': 'req-docs-1' } });
  expect(platform.headers.get('x-request-id')).toBe('req-docs-1');
  expect(await platform.json()).toMatchObject({ error: 'route_not_found', status: 404, request_id: 'req-docs-1' });
  const products = await fetch(`${bridge.url}/v1/no-such-path`, { headers: { 'x-request-id': 'req-docs-2' } });
  expect(await products.json()).toMatchObject({ errors: [{ code: 'ROUTE_NOT_FOUND' }], meta: { request_id: 'req-docs-2' } });
});

test('a created resource: Location names where to read it; application/vnd.api+json is answered when asked for', async () => {
  const headers = { 'x-app-id': 'app_x', 'x-api-key': 'sk_test_x', 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' };
  const r = await fetch(`${bridge.url}/v1/products`, { method: 'POST', headers, body: JSON.stringify({ data: { type: 'products', attributes: { name: 'Lamp', sku: 'LAMP-1' } } }) });
  expect(r.status).toBe(201);
  expect(r.headers.get('location')).toBe('/v1/products/p1');
  expect(r.headers.get('content-type')).toBe('application/vnd.api+json');
  expect((await r.json()).data).toMatchObject({ id: 'p1', type: 'products' });
  const plain = await fetch(`${bridge.url}/v1/products`, { method: 'POST', headers: { ...headers, accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify({ data: { type: 'products', attributes: { name: 'Lamp', sku: 'LAMP-1' } } }) });
  expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
});

test('source.pointer beside source.parameter for body members, none for query parameters', async () => {
  expect(bodyPointer('price.amount', ['name', 'price'])).toBe('/data/attributes/price/amount');
  expect(bodyPointer('documents[3].id', ['documents'])).toBe('/data/attributes/documents/3/id');
  expect(bodyPointer('product_ids', ['product_ids'], true)).toBe('/data/product_ids');
  expect(bodyPointer('data.type', [])).toBe('/data/type');
  expect(bodyPointer('page[size]', ['name'])).toBeUndefined();
  const headers = { 'x-app-id': 'app_x', 'x-api-key': 'sk_test_x', 'content-type': 'application/json' };
  const r = await fetch(`${bridge.url}/v1/products`, { method: 'POST', headers, body: JSON.stringify({ data: { type: 'widgets', attributes: {} } }) });
  expect(r.status).toBe(409);
  expect((await r.json()).errors[0].source).toEqual({ parameter: 'data.type', pointer: '/data/type' });
});
