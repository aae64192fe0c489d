// Live connections follow their credentials (docs/security.md, "Live connections"), over graphql-ws:
// a socket whose key is revoked, regenerated or expires, or whose JWT's exp passes, is closed by the
// gateway (4401; 4403 when the app is suspended) within a second, and no event arrives after; a plan
// change applies to an open socket's next operation.
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { jsonApi, mintToken, rest, stack, uniq } from '../harness/client.js';
import { createKey, createSecTenant, sleep, type SecTenant } from '../harness/security.js';

const SUB = 'subscription { productEvents { event productId } }';

interface Socket {
  client: Client;
  events: { at: number; data: unknown }[];
  closed: Promise<{ code: number; at: number }>;
  /** one query or mutation over the socket */
  run(query: string, variables?: Record<string, unknown>): Promise<{ data?: any; errors?: any[] }>;
}

/** A connected socket with a productEvents subscription running. */
async function open(params: Record<string, string>): Promise<Socket> {
  let closed!: (v: { code: number; at: number }) => void;
  const closedP = new Promise<{ code: number; at: number }>((r) => (closed = r));
  let connected!: () => void;
  const connectedP = new Promise<void>((r) => (connected = r));
  const client = createClient({
    url: stack().gateway.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: params,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
    on: { connected: () => connected(), closed: (e) => closed({ code: (e as { code: number }).code, at: Date.now() }) },
  });
  await connectedP;
  const events: Socket['events'] = [];
  client.subscribe({ query: SUB }, { next: (v) => events.push({ at: Date.now(), data: v.data }), error: () => undefined, complete: () => undefined });
  await sleep(150); // the subscribe message reaches the server and its topic is registered
  const run: Socket['run'] = (query, variables) =>
    new Promise((resolve, reject) => {
      let result: { data?: any; errors?: any[] } = {};
      client.subscribe({ query, variables }, { next: (v) => (result = v as typeof result), error: reject, complete: () => resolve(result) });
    });
  return { client, events, closed: closedP, run };
}

const keyParams = (t: SecTenant, key: string) => ({ 'x-app-id': t.appId, 'x-api-key': key });
const keyPath = (t: SecTenant, id: string) => `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys/${id}`;

async function newProduct(t: SecTenant): Promise<void> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('SKU-') }), headers: t.keyHeaders });
  expect(r.status).toBe(201);
}

/** The socket closes with `code` within `ms` of `since`, and no event arrives after the close. */
async function expectClosed(s: Socket, code: number, since: number, ms = 1000): Promise<void> {
  const c = await Promise.race([s.closed, sleep(ms + 2000).then(() => null)]);
  expect(c).not.toBeNull();
  expect(c!.code).toBe(code);
  expect(c!.at - since).toBeLessThanOrEqual(ms);
  const before = s.events.length;
  await newProduct(tenant);
  await sleep(300);
  expect(s.events.length).toBe(before);
  expect(s.events.every((e) => e.at <= c!.at)).toBe(true);
}

let tenant: SecTenant;
beforeAll(async () => {
  tenant = await createSecTenant();
});

test('a socket delivers events while its key is good', async () => {
  const { key } = await createKey(tenant, { name: 'live' });
  const s = await open(keyParams(tenant, key));
  await newProduct(tenant);
  await sleep(500);
  expect(s.events.length).toBe(1);
  await s.client.dispose();
});

test('revoking the key closes its socket with 4401 within a second; no event after', async () => {
  const { key, res } = await createKey(tenant, { name: 'to revoke' });
  const s = await open(keyParams(tenant, key));
  const at = Date.now();
  expect((await rest('DELETE', keyPath(tenant, res.body.data.id), { headers: tenant.platformHeaders })).status).toBe(200);
  await expectClosed(s, 4401, at);
});

test('regenerating the key closes the socket opened with the old value (4401)', async () => {
  const { key, res } = await createKey(tenant, { name: 'to regenerate' });
  const s = await open(keyParams(tenant, key));
  const at = Date.now();
  expect((await rest('POST', `${keyPath(tenant, res.body.data.id)}/regenerate`, { headers: tenant.platformHeaders })).status).toBe(200);
  await expectClosed(s, 4401, at);
});

test('a key reaching its expires_at closes its socket (4401) within a second of it', async () => {
  const expiresAt = new Date(Date.now() + 2500);
  const { key } = await createKey(tenant, { name: 'expiring', expiresAt });
  const s = await open(keyParams(tenant, key));
  await expectClosed(s, 4401, expiresAt.getTime(), 1000);
});

test("a JWT's exp passing closes the socket (4401) within a second of it", async () => {
  const { key } = await createKey(tenant, { name: 'with jwt' });
  const exp = Math.floor(Date.now() / 1000) + 3;
  const token = mintToken({ sub: tenant.userId, scopes: [], expiresInSec: exp - Math.floor(Date.now() / 1000) });
  const s = await open({ ...keyParams(tenant, key), authorization: `Bearer ${token}` });
  await expectClosed(s, 4401, exp * 1000, 1000);
});

test("suspending the key's app closes the socket with 4403", async () => {
  const t = await createSecTenant();
  const s = await open(keyParams(t, t.secretKey));
  const at = Date.now();
  expect((await rest('PUT', `/accounts/${t.accountUrlId}/apps/${t.appId}`, { body: jsonApi('apps', { status: 'suspended' }), headers: t.platformHeaders })).status).toBe(200);
  const c = await Promise.race([s.closed, sleep(3000).then(() => null)]);
  expect(c?.code).toBe(4403);
  expect(c!.at - at).toBeLessThanOrEqual(1000);
});

test("a plan change applies to the open socket's next operation", async () => {
  const t = await createSecTenant();
  const user = { authorization: `Bearer ${mintToken({ sub: t.userId, scopes: [] })}` };
  expect((await rest('POST', `/identities/${t.userId}/register`, { headers: { ...t.keyHeaders, ...user } })).status).toBe(201);
  const s = await open({ ...keyParams(t, t.secretKey), ...user });
  const text = 'A fine day. '.repeat(500); // 6,000 characters: above Free's 5,000, within Starter's 25,000
  const SENTIMENT = 'mutation($input: SentimentInput!) { textSentiment(input: $input) { label } }';
  const before = await s.run(SENTIMENT, { input: { text } });
  expect(before.errors?.[0]?.extensions?.code).toBe('text_too_long');
  const sub = await rest('POST', `/accounts/${t.accountUrlId}/subscriptions`, { body: jsonApi('subscriptions', { model_code: 'starter', trial: false }), headers: t.platformHeaders });
  expect(sub.status).toBe(201);
  await sleep(500);
  const after = await s.run(SENTIMENT, { input: { text } });
  expect(after.errors ?? []).toEqual([]);
  expect(after.data.textSentiment.label).toEqual(expect.any(String));
  await s.client.dispose();
});
