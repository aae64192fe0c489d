// CORS on the gateway and the REST bridge (lib/cors.ts): preflights, and actual responses readable
// only from allowed origins: API-key requests by the key's, else the app's, allowed_origins; JWT
// requests by CORS_ORIGINS (the harness sets http://jwt-console.test:5173). The browser test
// (test/e2e/browser.cors.test.ts) repeats the key case in Chromium.
import { createTenant, gql, jsonApi, rest, stack, type Tenant } from '../harness/client.js';

const SHOP = 'https://shop.example.com';
const EVIL = 'https://evil.example.com';
const CONSOLE = 'http://jwt-console.test:5173';

async function preflight(url: string, origin: string, headers: string, method = 'POST') {
  return fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

async function appWithOrigins(t: Tenant, origins: string[]) {
  const r = await rest('PUT', `/accounts/${t.accountUrlId}/apps/${t.appId}`, { body: jsonApi('apps', { allowed_origins: origins }), headers: t.platformHeaders });
  expect(r.status).toBe(200);
}

const productsQuery = '{ products(pageSize: 1) { items { id } } }';

describe('CORS', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant();
    await appWithOrigins(t, [SHOP]);
  });

  test('a preflight announcing an API key is allowed from any origin (the real request is checked)', async () => {
    for (const url of [stack().gateway, `${stack().rest}/v1/products`]) {
      const r = await preflight(url, EVIL, 'content-type, x-app-id, x-api-key');
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(EVIL);
      expect(r.headers.get('access-control-allow-headers')).toBe('content-type, x-app-id, x-api-key');
      expect(r.headers.get('access-control-allow-methods')).toContain('PATCH');
      expect(r.headers.get('vary')).toContain('Origin');
    }
  });

  test("a key request from an origin in the app's allowed_origins is readable; from another it is refused (403, no CORS headers)", async () => {
    const ok = await gql(productsQuery, {}, { ...t.keyHeaders, 'x-api-key': t.publishableKey, origin: SHOP });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(ok.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining');
    const bad = await gql(productsQuery, {}, { ...t.keyHeaders, 'x-api-key': t.publishableKey, origin: EVIL });
    expect(bad.status).toBe(403);
    expect(bad.body.errors?.[0].extensions.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();

    const restOk = await rest('GET', '/v1/products', { headers: { ...t.keyHeaders, origin: SHOP } });
    expect(restOk.status).toBe(200);
    expect(restOk.headers.get('access-control-allow-origin')).toBe(SHOP);
    const restBad = await rest('GET', '/v1/products', { headers: { ...t.keyHeaders, origin: EVIL } });
    expect(restBad.status).toBe(403);
    expect(restBad.headers.get('access-control-allow-origin')).toBeNull();
  });

  test("the key's own allowed_origins take precedence over the app's", async () => {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, {
      body: jsonApi('api_keys', { name: 'kiosk', key_type: 'publishable', allowed_origins: ['https://kiosk.example.com'] }),
      headers: t.platformHeaders,
    });
    expect(r.status).toBe(201);
    const headers = { 'x-app-id': t.appId, 'x-api-key': r.body.data.attributes.key_id as string };
    expect((await gql(productsQuery, {}, { ...headers, origin: 'https://kiosk.example.com' })).headers.get('access-control-allow-origin')).toBe('https://kiosk.example.com');
    expect((await gql(productsQuery, {}, { ...headers, origin: SHOP })).status).toBe(403);
  });

  test('JWT requests: CORS_ORIGINS only, preflight and response', async () => {
    const good = await preflight(`${stack().rest}/platforms`, CONSOLE, 'authorization, content-type', 'GET');
    expect(good.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    const refused = await preflight(`${stack().rest}/platforms`, EVIL, 'authorization, content-type', 'GET');
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();

    const fromConsole = await rest('GET', `/accounts/${t.accountUrlId}`, { headers: { ...t.platformHeaders, origin: CONSOLE } });
    expect(fromConsole.status).toBe(200);
    expect(fromConsole.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    const fromElsewhere = await rest('GET', `/accounts/${t.accountUrlId}`, { headers: { ...t.platformHeaders, origin: EVIL } });
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('no Origin, no CORS headers; public paths answer any origin', async () => {
    const r = await rest('GET', '/v1/products', { headers: t.keyHeaders });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const h = await fetch(`${stack().rest}/openapi.json`, { headers: { origin: EVIL } });
    expect(h.headers.get('access-control-allow-origin')).toBe(EVIL);
  });
});
