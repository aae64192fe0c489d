// npm run bench: the foundation's figures, measured in one run on this machine.
//  1. a light federated query (platform App + catalog products) through the gateway, versus the two
//     subgraph requests its query plan makes, sent straight to the subgraphs;
//  2. a single-subgraph query through the gateway versus straight to its subgraph;
//  3. the same read through the REST bridge versus the gateway;
//  4. cached API-key verification, in-process;
//  5. time from `npm start` to healthy on a warm embedded data dir.
// Uses DATABASE_URL/REDIS_URL when set (a scratch database is created and dropped), else embedded.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { signTenantContext, TENANT_HEADER } from '../lib/tenant.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { postJson, requestJson } from '../lib/http-client.js';
import { startStack } from '../scripts/stack.js';
import { scratchDatabase, stackPorts } from './harness.js';
import { concurrent, fmt, sequential } from './stats.js';

const N = Number(process.env.BENCH_N ?? 2000);
const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 16000);
const scratch = await scratchDatabase('bench');
const dbUrl = scratch.url;
const env = {
  ...process.env,
  DATABASE_URL: dbUrl ?? '',
  ...stackPorts(base),
  DATA_DIR: resolve(ROOT, '.data', 'bench'),
  JWT_SECRET: 'bench-secret',
  LOG_LEVEL: 'error',
};
const cfg = loadConfig(env);
const stack = await startStack(cfg, createLogger({}, 'error'));
const rest = `http://127.0.0.1:${cfg.restPort}`;

// A tenant with a high per-key limit so the limiter never interferes with the measurement.
const now = Math.floor(Date.now() / 1000);
const token = signJwt({ sub: 'bench', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, cfg.jwtSecret);
const code = `bench${process.pid}`;
const ph = { authorization: `Bearer ${token}`, 'x-platform': code, 'content-type': 'application/json' };
const post = async (path: string, headers: Record<string, string>, type: string, attributes: Record<string, unknown>) => {
  const r = await fetch(`${rest}${path}`, { method: 'POST', headers, body: JSON.stringify({ data: { type, attributes } }) });
  const body = (await r.json()) as any;
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body.data;
};
await post('/platforms', ph, 'platforms', { code, name: 'Bench' });
const acct = await post('/accounts', ph, 'accounts', { name: 'Bench', code, deployment_model: 'dedicated_cloud' });
const app = await post(`/accounts/${acct.attributes.url_id}/apps`, ph, 'apps', { name: 'Bench app', rate_limit_per_minute: 100000 });
const key = await post(`/accounts/${acct.attributes.url_id}/apps/${app.id}/api_keys`, ph, 'api_keys', { name: 'bench', key_type: 'secret', rate_limit_per_minute: 100000 });
const kh = { 'x-app-id': app.id, 'x-api-key': key.attributes.key_id as string, 'content-type': 'application/json' };
for (let i = 0; i < 10; i++) await post('/v1/products', kh, 'products', { name: `Product ${i}`, sku: `SKU-${i}`, price: { amount: 100 * i, currency: 'USD' } });

// Every measured call uses the same keep-alive node:http client, so the differences are the servers'.
const gqlPost = async (url: string, query: string, headers: Record<string, string>, variables: Record<string, unknown> = {}) => {
  const r = await postJson(url, headers, JSON.stringify({ query, variables }));
  const body = JSON.parse(r.text) as any;
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body;
};
// The same tenant context the gateway would sign for this key (direct subgraph calls carry it too).
const verified = await stack.gateway.keys.verify({ appId: app.id, key: kh['x-api-key'], ip: '127.0.0.1' });
if (!verified.valid) throw new Error(verified.code);
const k = verified.key;
const tenant = {
  kind: 'key' as const, requestId: 'bench', scopes: k.scopes, appId: k.appId, keyId: k.keyId, environment: k.environment,
  accountId: k.accountId, platformId: k.platformId, platformCode: k.platformCode,
};
// signed headers are bound to the subgraph and the body (lib/tenant.ts), as the gateway signs them
const signed = (audience: string, query: string, variables: Record<string, unknown> = {}) => ({
  'content-type': 'application/json',
  [TENANT_HEADER]: signTenantContext(tenant, cfg.internalSecret, { audience, body: JSON.stringify({ query, variables }) }),
});
const sg = Object.fromEntries(stack.subgraphs.map((s) => [s.name, s.url]));

const FED = '{ currentApp { id name products { id name } } }';
const PLAT = '{ currentApp { id name } }';
const ENT = 'query($r:[_Any!]!){ _entities(representations:$r){ ... on App { products { id name } } } }';
const ONE = '{ products(pageSize: 10) { total items { id name } } }';

const lines: string[] = [];
const out = (s: string) => {
  lines.push(s);
  console.log(s);
};
out(`# bench/federation.bench.ts  (${new Date().toISOString()}, node ${process.version}, ${stack.infra.pubsub.kind} pub/sub, N=${N})`);
const fedGw = await sequential(N, 200, () => gqlPost(stack.gateway.url, FED, kh));
const fedDirect = await sequential(N, 200, async () => {
  await gqlPost(sg.platform, PLAT, signed('platform', PLAT));
  const r = { r: [{ __typename: 'App', id: app.id }] };
  await gqlPost(sg.catalog, ENT, signed('catalog', ENT, r), r);
});
out(fmt('federated query via gateway', fedGw));
out(fmt('same plan, 2 subgraph calls direct', fedDirect));
out(`  gateway overhead (federated) p50: ${(fedGw.p50 - fedDirect.p50).toFixed(3)} ms`);
const oneGw = await sequential(N, 200, () => gqlPost(stack.gateway.url, ONE, kh));
const oneDirect = await sequential(N, 200, () => gqlPost(sg.catalog, ONE, signed('catalog', ONE)));
out(fmt('single-subgraph query via gateway', oneGw));
out(fmt('single-subgraph query direct to catalog', oneDirect));
out(`  gateway overhead (single subgraph) p50: ${(oneGw.p50 - oneDirect.p50).toFixed(3)} ms`);
const viaRest = await sequential(N, 200, async () => {
  const r = await requestJson('GET', `${rest}/v1/products?page[size]=10`, kh);
  if (r.status !== 200) throw new Error(`REST ${r.status}`);
  JSON.parse(r.text);
});
const viaGw = await sequential(N, 200, () =>
  gqlPost(stack.gateway.url, 'query ListProducts($page: Int!, $pageSize: Int!) { products(page: $page, pageSize: $pageSize) { total page pageSize items { id name sku description status type price { amount currency compareAt formatted compareAtFormatted } attributes metadata createdAt updatedAt } } }', kh, { page: 1, pageSize: 10 }),
);
out(fmt('GET /v1/products via REST bridge', viaRest));
out(fmt('same operation via gateway', viaGw));
out(`  REST bridge overhead p50: ${(viaRest.p50 - viaGw.p50).toFixed(3)} ms`);
const load = await concurrent(N * 2, 16, () => gqlPost(stack.gateway.url, FED, kh));
out(fmt('federated query via gateway, 16 concurrent', load));

// Cached verification in-process (the gateway's own verifier object, warm cache).
const verifyReq = { appId: app.id as string, key: key.attributes.key_id as string, ip: '127.0.0.1' };
await stack.gateway.keys.verify(verifyReq);
const verify = await sequential(50_000, 1000, async () => {
  const v = await stack.gateway.keys.verify(verifyReq);
  if (!v.valid) throw new Error(v.code);
});
out(fmt('API-key verification (cached, in-process)', verify));
await stack.stop();
await scratch.drop();

// Start-up: `npm start` on the embedded defaults with a warm data dir (first boot warms it).
async function bootOnce(): Promise<number> {
  const started = performance.now();
  const child = spawn(resolve(ROOT, 'node_modules', '.bin', 'node'), ['--import', '@swc-node/register/esm-register', 'scripts/start-all.ts'], {
    cwd: ROOT,
    env: { ...env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: resolve(ROOT, '.data', 'bench-boot') },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('npm start exited early');
      try {
        const r = await fetch(`${rest}/health/ready`);
        if (r.ok) return performance.now() - started;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}
const cold = await bootOnce();
const warm = await bootOnce();
out(`npm start → all healthy: first boot ${(cold / 1000).toFixed(1)} s, warm data dir ${(warm / 1000).toFixed(1)} s`);
process.exit(0);
