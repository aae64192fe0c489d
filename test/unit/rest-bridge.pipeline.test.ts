// The bridge's request pipeline end to end against a fake gateway on an ephemeral port: no
// database, no subgraphs. Checks the HTTP-level decisions (404/405/401/413/415/400/409/503) and
// what reaches the gateway (operation, variables, forwarded headers).
import { verifyClientAddress } from '../../lib/client-address.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { startRestBridge, type RunningRestBridge } from '../../rest-bridge/server.js';

interface Seen {
  headers: IncomingMessage['headers'];
  body: { query: string; operationName: string; variables: Record<string, any> };
}
type Reply = { status?: number; body: unknown; headers?: Record<string, string> } | 'garbage';

let gateway: Server;
let bridge: RunningRestBridge;
let seen: Seen[] = [];
let reply: (s: Seen) => Reply = () => ({ body: { data: {} } });
let health: { status: number; body: unknown } = { status: 200, body: { status: 'ok', components: {} } };

beforeAll(async () => {
  gateway = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/health')) {
        res.writeHead(health.status, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(health.body));
      }
      const s: Seen = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      seen.push(s);
      const r = reply(s);
      if (r === 'garbage') {
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end('<html>bad gateway</html>');
      }
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
      res.end(JSON.stringify(r.body));
    });
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  const { port } = gateway.address() as AddressInfo;
  bridge = await startRestBridge({ cfg: loadConfig({}), log: createLogger({}, 'silent'), port: 0, gatewayUrl: `http://127.0.0.1:${port}/graphql` });
});

afterAll(async () => {
  await bridge.stop();
  gateway.closeAllConnections();
  await new Promise((r) => gateway.close(r));
});

beforeEach(() => {
  seen = [];
  reply = () => ({ body: { data: {} } });
});

async function call(method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) {
  const body = opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  const r = await fetch(bridge.url + path, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers }, body });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

const KEY = { 'x-app-id': 'app_1', 'x-api-key': 'sk_live_sh_abc' };
const PLATFORM = { authorization: 'Bearer eyJ.x.y', 'x-platform': 'acme' };
const product = { id: 'prod_1', name: 'Shoe', sku: 'S-1', price: { amount: 1999, currency: 'USD', compareAt: 2999, formatted: '$19.99', compareAtFormatted: '$29.99' }, attributes: { shoe_size: 42 }, createdAt: 'now' };

describe('rest-bridge pipeline', () => {
  test('POST /v1/products: body → CreateProduct variables, headers forwarded, 201 JSON:API', async () => {
    reply = () => ({ body: { data: { createProduct: { ...product, categoryIds: [{ id: 'cat_1' }] } } }, headers: { 'x-ratelimit-remaining': '99' } });
    const r = await call('POST', '/v1/products', {
      headers: { ...KEY, origin: 'https://shop.example', 'x-forwarded-for': '6.6.6.6', 'x-request-id': 'req-1' },
      body: { data: { type: 'products', attributes: { name: 'Shoe', sku: 'S-1', price: { amount: 1999, currency: 'USD', compare_at: 2999 }, attributes: { shoe_size: 42 }, id: 'x' } } },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({
      id: 'prod_1',
      type: 'products',
      attributes: { name: 'Shoe', sku: 'S-1', price: { amount: 1999, currency: 'USD', compare_at: 2999, formatted: '$19.99', compare_at_formatted: '$29.99' }, attributes: { shoe_size: 42 }, created_at: 'now' },
      // the relation selected as `{ id }` is a relationship, not an attribute (rest-bridge/resource-links.ts)
      relationships: { categories: { data: [{ type: 'categories', id: 'cat_1' }] } },
      links: { self: '/v1/products/prod_1' },
    });
    expect(r.headers.get('location')).toBe('/v1/products/prod_1');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(r.headers.get('x-request-id')).toBe('req-1');
    const s = seen[0];
    expect(s.body.operationName).toBe('CreateProduct');
    expect(s.body.variables).toEqual({ input: { name: 'Shoe', sku: 'S-1', price: { amount: 1999, currency: 'USD', compareAt: 2999 }, attributes: { shoe_size: 42 } } });
    expect(s.headers).toMatchObject({ 'x-app-id': 'app_1', 'x-api-key': 'sk_live_sh_abc', origin: 'https://shop.example', 'x-request-id': 'req-1' });
    // the client address travels signed (lib/client-address.ts), never as a copied X-Forwarded-For
    expect(s.headers['x-forwarded-for']).toBeUndefined();
    expect(verifyClientAddress(s.headers['x-client-address'], loadConfig({}).internalSecret)).toBe('127.0.0.1');
  });

  test('unknown paths are 404 ROUTE_NOT_FOUND in the shape of the path prefix', async () => {
    expect(await call('GET', '/nope')).toMatchObject({ status: 404, body: { error: 'route_not_found', status: 404 } });
    expect(await call('GET', '/v1/nope')).toMatchObject({ status: 404, body: { errors: [{ code: 'ROUTE_NOT_FOUND', status: '404' }] } });
    expect(await call('GET', '/search/v1/nope')).toMatchObject({ status: 404, body: { errors: [{ code: 'route_not_found' }] } });
  });

  test('a known path with another method is 405 with Allow; OPTIONS answers 204 with Allow', async () => {
    const r = await call('DELETE', '/v1/products');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST');
    expect(r.body.errors[0].code).toBe('METHOD_NOT_ALLOWED');
    const o = await fetch(bridge.url + '/v1/products', { method: 'OPTIONS' });
    expect(o.status).toBe(204);
    expect(o.headers.get('allow')).toBe('GET, POST, OPTIONS');
  });

  test('no credentials at all → 401 before the body is looked at, and nothing reaches the gateway', async () => {
    expect(await call('POST', '/v1/products', { raw: '{not json' })).toMatchObject({ status: 401, body: { errors: [{ code: 'UNAUTHENTICATED', status: '401' }] } });
    expect(await call('GET', '/accounts')).toMatchObject({ status: 401, body: { error: 'unauthenticated', status: 401 } });
    expect(await call('POST', '/identities/u1/register')).toMatchObject({ status: 401, body: { errors: [{ code: 'unauthenticated' }] } });
    expect(seen).toHaveLength(0);
  });

  test('415, 413, 400 INVALID_JSON, 400 missing data, 409 wrong type', async () => {
    expect(await call('POST', '/search/v1/indexes', { headers: { ...KEY, 'content-type': 'text/plain' }, raw: 'x' })).toMatchObject({ status: 415, body: { errors: [{ code: 'unsupported_media_type' }] } });
    const big = JSON.stringify({ data: { type: 'products', attributes: { description: 'x'.repeat(1024 * 1024) } } });
    expect(await call('POST', '/v1/products', { headers: KEY, raw: big })).toMatchObject({ status: 413, body: { errors: [{ code: 'PAYLOAD_TOO_LARGE', status: '413' }] } });
    expect(await call('POST', '/platforms', { headers: PLATFORM, raw: '{"data":' })).toMatchObject({ status: 400, body: { error: 'invalid_json', status: 400 } });
    expect(await call('POST', '/platforms', { headers: PLATFORM, body: [{ type: 'platforms' }] })).toMatchObject({ status: 400, body: { error: 'bad_request', parameter: 'data' } });
    expect(await call('POST', '/platforms', { headers: PLATFORM, body: { data: 'platforms' } })).toMatchObject({ status: 400, body: { error: 'bad_request', parameter: 'data' } });
    expect(await call('POST', '/platforms', { headers: PLATFORM, body: { code: 'p1', colour: 'red' } })).toMatchObject({ status: 422, body: { error: 'validation_failed', parameter: 'colour' } });
    expect(await call('POST', '/platforms', { headers: PLATFORM, body: { data: { type: 'accounts', attributes: {} } } })).toMatchObject({
      status: 409,
      body: { error: 'invalid_resource_type', parameter: 'data.type' },
    });
    expect(seen).toHaveLength(0);
  });

  test('bad page[size] → 400 naming the parameter; good paging reaches the gateway', async () => {
    expect(await call('GET', '/v1/products?page[size]=abc', { headers: KEY })).toMatchObject({ status: 400, body: { errors: [{ code: 'BAD_REQUEST', source: { parameter: 'page[size]' } }] } });
    reply = () => ({ body: { data: { products: { items: [product], total: 1, page: 2, pageSize: 5 } } } });
    const r = await call('GET', '/v1/products?page%5Bnumber%5D=2&page[size]=5', { headers: KEY });
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ total: 1, page: 2, per_page: 5 });
    expect(r.body.data[0].links).toEqual({ self: '/v1/products/prod_1' });
    // unset filters and sort are left out, not sent as nulls
    expect(seen[0].body.variables).toEqual({ page: 2, pageSize: 5, withCategories: false, withImages: false, withVariants: false });
    // the filters that are set, and only those (false and 0 are set values)
    await call('GET', '/v1/products?filter[status]=active&filter[in_stock]=false&filter[price_min]=0&sort=-price&filter[type]=', { headers: KEY });
    expect(seen[1].body.variables).toMatchObject({ sort: '-price', filter: { status: 'active', inStock: false, priceMin: 0 } });
    expect(Object.keys(seen[1].body.variables.filter).sort()).toEqual(['inStock', 'priceMin', 'status']);
  });

  test('GraphQL errors render in the service shape with their status', async () => {
    reply = () => ({ body: { data: null, errors: [{ message: 'Product p9 not found', extensions: { code: 'PRODUCT_NOT_FOUND', status: 404, parameter: 'id' } }] } });
    expect(await call('GET', '/v1/products/p9', { headers: KEY })).toMatchObject({
      status: 404,
      body: { errors: [{ status: '404', code: 'PRODUCT_NOT_FOUND', title: 'Product not found', detail: 'Product p9 not found', source: { parameter: 'id' } }] },
    });
    expect(seen[0].body.variables).toEqual({ id: 'p9', withVariants: false, withCategories: false, withImages: false, withRelated: false });
    reply = () => ({ body: { errors: [{ message: 'User u1 is not registered', extensions: { code: 'usr-not-registered', status: 404 } }] } });
    expect(await call('POST', '/identities/u1/register', { headers: { ...KEY, authorization: 'Bearer eyJ.a.b' } })).toMatchObject({
      status: 404,
      body: { error: { code: 'usr-not-registered', message: 'User u1 is not registered', status: 404 } },
    });
  });

  test('gateway auth refusals (HTTP 429 with errors) keep status and Retry-After', async () => {
    reply = () => ({ status: 429, headers: { 'retry-after': '7' }, body: { errors: [{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', status: 429 } }] } });
    const r = await call('GET', '/search/v1/indexes', { headers: KEY });
    expect(r).toMatchObject({ status: 429, body: { errors: [{ code: 'rate_limit_exceeded', status: '429' }] } });
    expect(r.headers.get('retry-after')).toBe('7');
  });

  test('variable coercion errors become 422 naming the attribute; the bridge\'s own faults become 500', async () => {
    reply = () => ({
      status: 400,
      body: { errors: [{ message: 'Variable "$input" got invalid value {} at "input.price"; Field "currency" of required type "String!" was not provided.', extensions: { code: 'BAD_USER_INPUT', status: 400 } }] },
    });
    expect(await call('POST', '/v1/products', { headers: KEY, body: { data: { type: 'products', attributes: { price: { amount: 1 } } } } })).toMatchObject({
      status: 422,
      // a missing member stays VALIDATION_FAILED (INVALID_PRICE is for a price given malformed: errors.test.ts)
      body: { errors: [{ code: 'VALIDATION_FAILED', source: { parameter: 'price.currency' } }] },
    });
    reply = () => ({
      status: 400,
      body: { errors: [{ message: 'Variable "$input" got invalid value 1.5 at "input.inventory.quantity"; Int cannot represent non-integer value: 1.5', extensions: { code: 'BAD_USER_INPUT', status: 400 } }] },
    });
    expect(await call('POST', '/v1/products', { headers: KEY, body: { data: { type: 'products', attributes: { inventory: { quantity: 1.5 } } } } })).toMatchObject({
      status: 422,
      body: { errors: [{ code: 'VALIDATION_FAILED', source: { parameter: 'inventory.quantity' } }] },
    });
    reply = () => ({ status: 400, body: { errors: [{ message: 'Cannot query field "x" on type "Query".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 } }] } });
    const r = await call('GET', '/accounts', { headers: PLATFORM });
    expect(r).toMatchObject({ status: 500, body: { error: 'internal', message: 'Internal server error', status: 500 } });
  });

  test('gateway garbage → 503; unexpected data shape → 500 without a stack', async () => {
    reply = () => 'garbage';
    const garbage = await call('GET', '/search/v1/indexes', { headers: KEY });
    expect(garbage).toMatchObject({ status: 503, body: { errors: [{ code: 'service_unavailable', status: '503' }] } });
    expect(garbage.headers.get('retry-after')).toBe('1');
    // the gateway's own 503 (a subgraph unreachable, or the gateway stopping) passes through with Retry-After
    reply = () => ({ status: 200, body: { data: null, errors: [{ message: 'A service this request needs is temporarily unavailable; retry shortly', extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } }] } });
    const down = await call('GET', '/search/v1/indexes', { headers: KEY });
    expect(down).toMatchObject({ status: 503, body: { errors: [{ code: 'service_unavailable', status: '503' }] } });
    expect(down.headers.get('retry-after')).toBe('1');
    reply = () => ({ body: { data: { indexes: null } } });
    const r = await call('GET', '/search/v1/indexes', { headers: KEY });
    expect(r).toMatchObject({ status: 500, body: { errors: [{ code: 'internal' }] } });
    expect(JSON.stringify(r.body)).not.toMatch(/TypeError|\.ts:\d+/);
  });

  test('health: basic, ready mirrors the gateway, detailed lists components; openapi.json is served', async () => {
    const h = await call('GET', '/health');
    expect(h).toMatchObject({ status: 200, body: { status: 'ok', service: 'rest-bridge' } });
    expect(typeof h.body.version).toBe('string');
    expect(new Date(h.body.timestamp).toISOString()).toBe(h.body.timestamp);
    health = { status: 200, body: { status: 'ok', components: { catalog: { status: 'ok', latency_ms: 3 } } } };
    expect(await call('GET', '/health/ready')).toMatchObject({ status: 200, body: { status: 'ok', service: 'rest-bridge' } });
    const d = await call('GET', '/health/detailed');
    expect(d.status).toBe(200);
    expect(Object.keys(d.body.components)).toEqual(['rest-bridge', 'gateway', 'catalog']);
    expect(typeof d.body.components.gateway.latency_ms).toBe('number');
    health = { status: 503, body: { status: 'degraded', components: { catalog: { status: 'unavailable' } } } };
    // readiness is the bridge's own: a subgraph down does not take every bridge out of the balancer
    expect(await call('GET', '/health/ready')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call('GET', '/health/detailed')).toMatchObject({ status: 503, body: { status: 'degraded', components: { catalog: { status: 'unavailable' } } } });
    expect(await call('POST', '/health')).toMatchObject({ status: 405 });
    const o = await call('GET', '/openapi.json');
    expect(o.status).toBe(200);
    expect(o.body.paths['/v1/products'].post.operationId).toBe('CreateProduct');
  });
});

describe('rest-bridge with the gateway down', () => {
  test('503 SERVICE_UNAVAILABLE in the service shape; readiness its own (200), /health/detailed 503', async () => {
    const down = await startRestBridge({ cfg: loadConfig({}), log: createLogger({}, 'silent'), port: 0, gatewayUrl: 'http://127.0.0.1:1/graphql' });
    try {
      const r = await fetch(`${down.url}/accounts`, { headers: PLATFORM });
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({ error: 'service_unavailable', status: 503 });
      expect((await fetch(`${down.url}/health/ready`)).status).toBe(200);
      expect((await fetch(`${down.url}/health/detailed`)).status).toBe(503);
    } finally {
      await down.stop();
    }
  });
});
