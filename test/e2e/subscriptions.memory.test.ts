// The in-process pub/sub path (npm start's default). When the run's main stack uses Redis (CI),
// a second stack without REDIS_URL is booted here so both paths are proven in every run.
import type { ChildProcess } from 'node:child_process';
import { gql, jsonApi, mintToken, stack, uniq } from '../harness/client.js';
import { spawnScript, stackPortEnv, stop, waitFor } from '../harness/spawn.js';
import { subscribe, wsClient } from '../harness/ws.js';

const base = Number(process.env.TEST_PORT_BASE ?? 14000) + 100;
let child: ChildProcess | undefined;
let rest = '';
let gateway = '';

beforeAll(async () => {
  const s = stack();
  if (!s.redis) {
    rest = s.rest;
    gateway = s.gateway;
    return;
  }
  const env = {
    ...s.env,
    REDIS_URL: '',
    ...stackPortEnv(base, 80),
  };
  child = spawnScript('scripts/start-all.ts', env, 'memory-stack');
  rest = `http://127.0.0.1:${base + 80}`;
  gateway = `http://127.0.0.1:${base}/graphql`;
  await waitFor(`${rest}/health/ready`, 90_000, child);
}, 120_000);

afterAll(() => stop(child));

async function post(path: string, headers: Record<string, string>, body: unknown) {
  const r = await fetch(`${rest}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = (await r.json()) as any;
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`);
  return json.data;
}

test('in-process pub/sub: a product created through the gateway reaches a WebSocket subscriber', async () => {
  const code = uniq('p');
  const ph = { authorization: `Bearer ${mintToken()}`, 'x-platform': code };
  await post('/platforms', ph, jsonApi('platforms', { code, name: 'Memory' }));
  const acct = await post('/accounts', ph, jsonApi('accounts', { name: 'Memory', code }));
  const app = await post(`/accounts/${acct.attributes.url_id}/apps`, ph, jsonApi('apps', { name: 'Memory app' }));
  const key = await post(`/accounts/${acct.attributes.url_id}/apps/${app.id}/api_keys`, ph, jsonApi('api_keys', { name: 'k', key_type: 'secret' }));
  const params = { 'x-app-id': app.id, 'x-api-key': key.attributes.key_id };
  const sub = await subscribe(wsClient(gateway, params), 'subscription { productEvents { event product { name app { name } } } }');
  try {
    const r = await gql('mutation($i: CreateProductInput!) { createProduct(input: $i) { id } }', { i: { name: 'Memory lamp', sku: uniq('S') } }, params, gateway);
    expect(r.body.errors).toBeUndefined();
    expect(await sub.next()).toEqual({ productEvents: { event: 'product.created', product: { name: 'Memory lamp', app: { name: 'Memory app' } } } });
  } finally {
    await sub.close();
  }
});
