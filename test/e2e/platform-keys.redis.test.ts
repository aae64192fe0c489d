// Key invalidation across gateways over Redis: a second gateway process, with a 10-minute key cache,
// stops accepting a regenerated or revoked key as soon as the platform publishes
// `platform.keys.invalidated` (the main stack runs with REDIS_URL, so the event goes through Redis).
import type { ChildProcess } from 'node:child_process';
import { createTenant, gql, rest, stack, type Tenant } from '../harness/client.js';
import { stop, waitFor } from '../harness/spawn.js';
import { spawnStackGateway } from '../harness/stack-gateway.js';
import { createKey, sleep } from '../harness/security.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('platform-keys.redis.test: REDIS_URL is not set; the second-gateway test is skipped');

maybe('API key cache invalidation on another gateway process', () => {
  const port = Number(process.env.TEST_PORT_BASE ?? 14000) + 1100;
  const gateway2 = `http://127.0.0.1:${port}/graphql`;
  let proc: ChildProcess;
  let t: Tenant;

  beforeAll(async () => {
    // Only an invalidation can make it forget a key. The per-address count of unknown keys lives in
    // the shared Redis: earlier suites (fuzz, security, CORS) use up its 60 a minute from 127.0.0.1,
    // which is not what this test is about.
    proc = spawnStackGateway(port, { REDIS_URL, REDIS_KEY_PREFIX: stack().env.REDIS_KEY_PREFIX, API_KEY_CACHE_TTL_MS: '600000', UNKNOWN_KEYS_PER_MINUTE: '100000' }, 'keys-gateway-2');
    await waitFor(`http://127.0.0.1:${port}/health`, 60_000, proc);
    t = await createTenant();
  }, 90_000);

  afterAll(() => stop(proc));

  const ask = (key: string) => gql('{ currentApp { id } }', {}, { 'x-app-id': t.appId, 'x-api-key': key }, gateway2);

  /** The gateway's answer code, polled briefly: the event travels through Redis while the REST response travels back. */
  async function codeWithin(key: string, want: string, ms = 1000): Promise<{ code: string; waitedMs: number }> {
    const start = Date.now();
    let code = '';
    do {
      const r = await ask(key);
      code = r.body.errors?.[0]?.extensions?.code ?? (r.body.data?.currentApp ? 'OK' : 'NONE');
      if (code === want) break;
      await sleep(20);
    } while (Date.now() - start < ms);
    return { code, waitedMs: Date.now() - start };
  }

  test('regenerate: the old value, cached by gateway 2, is refused there at once; the new one works', async () => {
    const { key, res } = await createKey(t, { name: 'redis regen' });
    expect((await ask(key)).body.data?.currentApp.id).toBe(t.appId); // cached for 10 minutes
    const r = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys/${res.body.data.id}/regenerate`, { headers: t.platformHeaders });
    expect(r.status).toBe(200);
    const old = await codeWithin(key, 'KEY_NOT_FOUND');
    expect(old.code).toBe('KEY_NOT_FOUND');
    expect(old.waitedMs).toBeLessThan(1000);
    expect((await ask(r.body.data.attributes.key_id)).body.data?.currentApp.id).toBe(t.appId);
  });

  test('revoke and app suspension reach gateway 2 too', async () => {
    const { key, res } = await createKey(t, { name: 'redis revoke' });
    expect((await ask(key)).body.data?.currentApp.id).toBe(t.appId);
    expect((await rest('DELETE', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys/${res.body.data.id}`, { headers: t.platformHeaders })).status).toBe(200);
    expect((await codeWithin(key, 'KEY_REVOKED')).code).toBe('KEY_REVOKED');

    expect((await ask(t.secretKey)).body.data?.currentApp.id).toBe(t.appId);
    const app = `/accounts/${t.accountUrlId}/apps/${t.appId}`;
    expect((await rest('PUT', app, { body: { data: { type: 'apps', attributes: { status: 'suspended' } } }, headers: t.platformHeaders })).status).toBe(200);
    expect((await codeWithin(t.secretKey, 'FORBIDDEN')).code).toBe('FORBIDDEN');
    expect((await rest('PUT', app, { body: { data: { type: 'apps', attributes: { status: 'active' } } }, headers: t.platformHeaders })).status).toBe(200);
    expect((await codeWithin(t.secretKey, 'OK')).code).toBe('OK');
  });

  test('a subscription change reaches gateway 2 at once: the new plan limits apply to its cached key', async () => {
    const free = await createTenant();
    const headers = { 'x-app-id': free.appId, 'x-api-key': free.secretKey };
    const create = (uid: string) => gql('mutation($i: CreateIndexInput!) { createIndex(input: $i) { uid } }', { i: { uid } }, headers, gateway2);
    for (let i = 0; i < 3; i++) expect((await create(`plan_${i}`)).body.errors).toBeUndefined();
    // the Free plan allows 3 indexes; the key (and its plan) is now cached on gateway 2 for 10 minutes
    expect((await create('plan_3')).body.errors?.[0]?.extensions?.code).toBe('index_limit_exceeded');
    const sub = await rest('POST', `/accounts/${free.accountUrlId}/subscriptions`, {
      body: { data: { type: 'subscriptions', attributes: { model_code: 'growth', trial: false } } },
      headers: free.platformHeaders,
    });
    expect(sub.status).toBe(201);
    const start = Date.now();
    let errors: unknown;
    do {
      errors = (await create('plan_3')).body.errors;
      if (!errors) break;
      await sleep(20);
    } while (Date.now() - start < 1000);
    expect(errors).toBeUndefined();
  });
});
