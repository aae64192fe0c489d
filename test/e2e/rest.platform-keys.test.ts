// API keys end to end: masked lists, regenerate (the old value dies at once, also in the gateway's
// cache), rotate_secret (Stripe's roll: the old value lives for the grace period), revoke, concurrent
// regenerations, and the gateway's enforcement of allowed_ips (CIDR), allowed_origins and usage_count.
// Last: no key value this file saw appears in the stack's log.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTenant, gqlFrom, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { ROOT } from '../harness/spawn.js';
import { expectServiceError, sleep } from '../harness/security.js';

const seen = new Set<string>();
const keysPath = (t: Tenant) => `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`;
const products = (t: Tenant, key: string, headers: Record<string, string> = {}) => rest('GET', '/v1/products', { headers: { 'x-app-id': t.appId, 'x-api-key': key, ...headers } });

async function newKey(t: Tenant, attrs: Record<string, unknown> = {}): Promise<{ id: string; key: string; body: any }> {
  const r = await rest('POST', keysPath(t), { body: { data: { type: 'api_keys', attributes: { name: uniq('k'), key_type: 'secret', ...attrs } } }, headers: t.platformHeaders });
  expect(r.status).toBe(201);
  seen.add(r.body.data.attributes.key_id);
  return { id: r.body.data.id, key: r.body.data.attributes.key_id, body: r.body };
}

async function post(t: Tenant, path: string) {
  const r = await rest('POST', path, { headers: t.platformHeaders });
  if (r.status === 200) seen.add(r.body.data.attributes.key_id);
  return r;
}

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
  seen.add(t.secretKey).add(t.publishableKey);
});

test('the list shows prefix and last four only', async () => {
  const { id, key } = await newKey(t);
  const list = await rest('GET', keysPath(t), { headers: t.platformHeaders });
  const listed = (list.body.data as any[]).find((k) => k.id === id);
  expect(listed.attributes.key_id).toBe(`${/^(sk|pk)_(test|live)_(sh|ent|byok)_/.exec(key)![0]}…${key.slice(-4)}`);
  for (const v of seen) expect(JSON.stringify(list.body)).not.toContain(v);
});

test('regenerate: a new value at once; the old one stops working immediately, even though the gateway had it cached', async () => {
  const { id, key } = await newKey(t);
  expect((await products(t, key)).status).toBe(200); // now cached in the gateway
  const r = await post(t, `${keysPath(t)}/${id}/regenerate`);
  expect(r.status).toBe(200);
  const fresh = r.body.data.attributes.key_id as string;
  expect(fresh).toMatch(/^sk_live_ent_[A-Za-z0-9]{32}$/);
  expect(fresh).not.toBe(key);
  expect(r.body.data.attributes).toMatchObject({ rotated_at: expect.any(String), previous_key_expires_at: null });
  expectServiceError(await products(t, key), 'products', 401, 'KEY_NOT_FOUND');
  expect((await products(t, fresh)).status).toBe(200);
  const listed = ((await rest('GET', keysPath(t), { headers: t.platformHeaders })).body.data as any[]).find((k) => k.id === id);
  expect(listed.attributes.key_id.endsWith(fresh.slice(-4))).toBe(true);
});

test('rotate_secret: both values work during the grace period (24 h by default); then only the new one', async () => {
  const { id, key } = await newKey(t);
  const r = await post(t, `${keysPath(t)}/${id}/rotate_secret`);
  expect(r.status).toBe(200);
  const fresh = r.body.data.attributes.key_id as string;
  const graceEnds = Date.parse(r.body.data.attributes.previous_key_expires_at);
  expect(Math.abs(graceEnds - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
  expect((await products(t, key)).status).toBe(200);
  expect((await products(t, fresh)).status).toBe(200);

  // a short grace: the old value expires on its own
  const short = await post(t, `${keysPath(t)}/${id}/rotate_secret?grace_period_seconds=2`);
  const newest = short.body.data.attributes.key_id as string;
  // rolling again replaces the previous value: the first one is gone now, the second one has 2 s left
  expectServiceError(await products(t, key), 'products', 401, 'KEY_NOT_FOUND');
  expect((await products(t, fresh)).status).toBe(200);
  await sleep(2300);
  expectServiceError(await products(t, fresh), 'products', 401, 'KEY_EXPIRED');
  expect((await products(t, newest)).status).toBe(200);
});

test('rotate_secret validates grace_period_seconds (0 to 604800, 400 otherwise); 0 ends the old value at once', async () => {
  const { id, key } = await newKey(t);
  for (const bad of ['-1', '604801', 'soon']) {
    expectServiceError(await post(t, `${keysPath(t)}/${id}/rotate_secret?grace_period_seconds=${bad}`), 'platform', 400, 'BAD_REQUEST', { parameter: 'grace_period_seconds' });
  }
  const r = await post(t, `${keysPath(t)}/${id}/rotate_secret?grace_period_seconds=0`);
  expect(r.body.data.attributes.previous_key_expires_at).toBeNull();
  expectServiceError(await products(t, key), 'products', 401, 'KEY_NOT_FOUND');
});

test('revoke (DELETE): stops at once, leaves the list; a second DELETE, regenerate or rotate → 404', async () => {
  const { id, key } = await newKey(t);
  expect((await products(t, key)).status).toBe(200);
  const del = await rest('DELETE', `${keysPath(t)}/${id}`, { headers: t.platformHeaders });
  expect(del.status).toBe(200);
  expect(del.body.data.attributes.revoked_at).toEqual(expect.any(String));
  expect(del.body.data.attributes.key_id).not.toBe(key);
  expectServiceError(await products(t, key), 'products', 401, 'KEY_REVOKED');
  const list = await rest('GET', keysPath(t), { headers: t.platformHeaders });
  expect((list.body.data as any[]).some((k) => k.id === id)).toBe(false);
  expectServiceError(await rest('DELETE', `${keysPath(t)}/${id}`, { headers: t.platformHeaders }), 'platform', 404, 'API_KEY_NOT_FOUND');
  expectServiceError(await post(t, `${keysPath(t)}/${id}/regenerate`), 'platform', 404, 'API_KEY_NOT_FOUND');
  expectServiceError(await post(t, `${keysPath(t)}/${id}/rotate_secret`), 'platform', 404, 'API_KEY_NOT_FOUND');
  expectServiceError(await post(t, `${keysPath(t)}/key_doesnotexist00000000/regenerate`), 'platform', 404, 'API_KEY_NOT_FOUND');
});

test('concurrent regenerations of one key leave exactly one valid value: the one a 200 returned last', async () => {
  const { id, key } = await newKey(t);
  const results = await Promise.all(Array.from({ length: 8 }, () => post(t, `${keysPath(t)}/${id}/regenerate`)));
  for (const r of results) expect([200, 409]).toContain(r.status);
  for (const r of results.filter((x) => x.status === 409)) expectServiceError(r, 'platform', 409, 'API_KEY_CHANGED');
  const values = results.filter((r) => r.status === 200).map((r) => r.body.data.attributes.key_id as string);
  expect(values.length).toBeGreaterThanOrEqual(1);
  const working = [];
  for (const v of [key, ...values]) if ((await products(t, v)).status === 200) working.push(v);
  expect(working).toHaveLength(1);
  const listed = ((await rest('GET', keysPath(t), { headers: t.platformHeaders })).body.data as any[]).find((k) => k.id === id);
  expect(listed.attributes.key_id.endsWith(working[0].slice(-4))).toBe(true);
});

test('allowed_ips takes addresses and CIDRs (v4 and v6), enforced by the gateway', async () => {
  const { key } = await newKey(t, { allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] });
  // through the stack's trusted proxy (TRUSTED_PROXIES=127.0.0.2), whose X-Forwarded-For is believed
  const call = (ip: string) => gqlFrom('127.0.0.2', '{ currentApp { id } }', { 'x-app-id': t.appId, 'x-api-key': key, 'x-forwarded-for': ip });
  expect((await call('203.0.113.77')).body.data?.currentApp.id).toBe(t.appId);
  expect((await call('2001:db8::1')).body.data?.currentApp.id).toBe(t.appId);
  const refused = await call('198.51.100.1');
  expect(refused.status).toBe(403);
  expect(refused.body.errors?.[0].extensions.code).toBe('IP_NOT_ALLOWED');
  // through the REST bridge the client is 127.0.0.1: not in the list
  expectServiceError(await products(t, key), 'products', 403, 'IP_NOT_ALLOWED');
  const bad = await rest('POST', keysPath(t), { body: { data: { type: 'api_keys', attributes: { name: 'x', key_type: 'secret', allowed_ips: ['10.0.0.0/33'] } } }, headers: t.platformHeaders });
  expectServiceError(bad, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'allowed_ips' });
});

test('allowed_origins: a browser Origin outside the list → 403; inside it, or no Origin (server-side) → 200', async () => {
  const { key } = await newKey(t, { allowed_origins: ['https://shop.example.com'] });
  expectServiceError(await products(t, key, { origin: 'https://evil.example.com' }), 'products', 403, 'ORIGIN_NOT_ALLOWED');
  expect((await products(t, key, { origin: 'https://shop.example.com' })).status).toBe(200);
  expect((await products(t, key)).status).toBe(200);
});

test('usage_count counts requests (flushed by the gateway every 2 s) and last_used_at follows', async () => {
  const { id, key } = await newKey(t);
  for (let i = 0; i < 3; i++) expect((await products(t, key)).status).toBe(200);
  let listed: any;
  for (let i = 0; i < 20 && !(listed?.attributes.usage_count >= 3); i++) {
    await sleep(250);
    listed = ((await rest('GET', keysPath(t), { headers: t.platformHeaders })).body.data as any[]).find((k) => k.id === id);
  }
  expect(listed.attributes.usage_count).toBe(3);
  expect(listed.attributes.last_used_at).toEqual(expect.any(String));
});

test('no key value this file saw appears in the stack log', async () => {
  // a few refused calls, so the gateway and bridge have had reasons to log
  await products(t, `${t.secretKey}x`);
  await rest('GET', '/v1/products/nope', { headers: { 'x-app-id': 'app_unknown', 'x-api-key': t.secretKey } });
  await sleep(200);
  const log = readFileSync(resolve(ROOT, '.data', 'test-logs', 'stack.log'), 'utf8');
  expect(stack().rest).toBeTruthy();
  const leaked = [...seen].filter((v) => log.includes(v) || log.includes(v.slice(11)));
  expect(leaked).toEqual([]);
  expect(seen.size).toBeGreaterThan(10);
});
