// issue 12 item 8: TRUSTED_PROXIES decides whose X-Forwarded-For is believed. The test stack trusts
// 127.0.0.2 (test/harness/global-setup.mjs); every other loopback client is a client.
import { createTenant, gql, gqlFrom, rest, type Tenant } from '../harness/client.js';
import { createKey, expectServiceError } from '../harness/security.js';

let t: Tenant;
let allowed10: string;
let allowedLoopback: string;
beforeAll(async () => {
  t = await createTenant();
  allowed10 = (await createKey(t, { allowedIps: ['10.1.2.0/24'] })).key;
  allowedLoopback = (await createKey(t, { allowedIps: ['127.0.0.1'] })).key;
});

const q = '{ currentApp { id } }';

test('a client-sent X-Forwarded-For straight to the gateway is ignored (no allow-list bypass)', async () => {
  const r = await gql(q, {}, { 'x-app-id': t.appId, 'x-api-key': allowed10, 'x-forwarded-for': '10.1.2.3' });
  expect(r.status).toBe(403);
  expect(r.body.errors?.[0].extensions.code).toBe('IP_NOT_ALLOWED');
});

test('a client-sent X-Forwarded-For through the REST bridge is ignored', async () => {
  const r = await rest('GET', '/v1/products', { headers: { 'x-app-id': t.appId, 'x-api-key': allowed10, 'x-forwarded-for': '10.1.2.3' } });
  expectServiceError(r, 'products', 403, 'IP_NOT_ALLOWED');
});

test('the REST bridge hands the real client address to the gateway (signed): a loopback allow-list passes', async () => {
  const r = await rest('GET', '/v1/products', { headers: { 'x-app-id': t.appId, 'x-api-key': allowedLoopback, 'x-forwarded-for': '10.1.2.3' } });
  expect(r.status).toBe(200);
});

test('from a trusted proxy, X-Forwarded-For is believed hop by hop from the right', async () => {
  const h = { 'x-app-id': t.appId, 'x-api-key': allowed10 };
  expect((await gqlFrom('127.0.0.2', q, { ...h, 'x-forwarded-for': '10.1.2.3' })).body.data?.currentApp.id).toBe(t.appId);
  // the client prepended 10.1.2.3 itself; the proxy appended its real peer
  const spoofed = await gqlFrom('127.0.0.2', q, { ...h, 'x-forwarded-for': '10.1.2.3, 198.51.100.9' });
  expect(spoofed.status).toBe(403);
});

test('a forged x-client-address is ignored', async () => {
  const r = await gql(q, {}, { 'x-app-id': t.appId, 'x-api-key': allowed10, 'x-client-address': 'MTAuMS4yLjM.1.AAAA' });
  expect(r.status).toBe(403);
});
