// npm run bench:platform-keys: API-key authentication figures (issue 3, "Speed").
//  1. cached verification in-process: the gateway's own ApiKeyVerifier with a warm cache (hash,
//     Map lookup, expiry/IP/origin checks, rate-limit hit, usage count); target p99 ≤ 1 ms;
//  2. the same for a key with a CIDR allow-list and an origin allow-list (the compiled BlockList path);
//  3. end to end: GET /v1/products/:id through the REST bridge with X-App-Id + X-Api-Key, keep-alive,
//     sequential; target p95 ≤ 10 ms; and the same request straight to the gateway as GraphQL;
//  4. a cold verification (cache dropped before each call: one platform subgraph round trip).
// Uses DATABASE_URL/REDIS_URL when set (a scratch database is created and dropped), else embedded.
// Ports: BENCH_PORT_BASE (default 16500) .. +329.
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { signJwt } from '../gateway/auth/jwt.js';
import { postJson, requestJson } from '../lib/http-client.js';
import { startStack } from '../scripts/stack.js';
import { scratchDatabase, stackPorts } from './harness.js';
import { fmt, sequential } from './stats.js';

const N = Number(process.env.BENCH_N ?? 3000);
const base = Number(process.env.BENCH_PORT_BASE ?? 16500);
const scratch = await scratchDatabase('keys');
const dbUrl = scratch.url;
const cfg = loadConfig({
  ...process.env,
  DATABASE_URL: dbUrl ?? '',
  ...stackPorts(base),
  DATA_DIR: '.data/bench-keys',
  JWT_SECRET: 'bench-secret',
  LOG_LEVEL: 'error',
  API_KEY_CACHE_TTL_MS: '600000',
});
const stack = await startStack(cfg, createLogger({}, 'error'));
const rest = `http://127.0.0.1:${cfg.restPort}`;
try {
  const now = Math.floor(Date.now() / 1000);
  const token = signJwt({ sub: 'bench', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 3600 }, cfg.jwtSecret);
  const code = `benchkeys${process.pid}`;
  const ph = { authorization: `Bearer ${token}`, 'x-platform': code, 'content-type': 'application/json' };
  const post = async (path: string, headers: Record<string, string>, type: string, attributes: Record<string, unknown>) => {
    const r = await postJson(`${rest}${path}`, headers, JSON.stringify({ data: { type, attributes } }));
    const body = JSON.parse(r.text);
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.text}`);
    return body.data;
  };
  await post('/platforms', ph, 'platforms', { code, name: 'Bench keys' });
  const acct = await post('/accounts', ph, 'accounts', { name: 'Bench keys', code, deployment_model: 'dedicated_cloud' });
  const app = await post(`/accounts/${acct.attributes.url_id}/apps`, ph, 'apps', { name: 'Bench app', rate_limit_per_minute: 100000 });
  const keysPath = `/accounts/${acct.attributes.url_id}/apps/${app.id}/api_keys`;
  const key = (await post(keysPath, ph, 'api_keys', { name: 'bench', key_type: 'secret', rate_limit_per_minute: 100000 })).attributes.key_id as string;
  const fenced = (
    await post(keysPath, ph, 'api_keys', {
      name: 'fenced',
      key_type: 'secret',
      rate_limit_per_minute: 100000,
      allowed_ips: ['10.0.0.0/8', '192.168.0.0/16', '127.0.0.0/8', '2001:db8::/32'],
      allowed_origins: ['https://shop.example.com', 'https://admin.example.com'],
    })
  ).attributes.key_id as string;
  const kh = { 'x-app-id': app.id as string, 'x-api-key': key, 'content-type': 'application/json' };
  const product = await post('/v1/products', kh, 'products', { name: 'Bench lamp', sku: 'BENCH-1', price: { amount: 1999, currency: 'USD' } });

  console.log(`# bench/platform-keys.bench.ts  (${new Date().toISOString()}, node ${process.version}, ${stack.infra.pubsub.kind} pub/sub and rate limiter, N=${N})`);
  const keys = stack.gateway.keys;
  const plain = { appId: app.id as string, key, ip: '127.0.0.1' };
  const withLists = { appId: app.id as string, key: fenced, ip: '192.168.4.20', origin: 'https://admin.example.com' };
  const verifyOk = (req: typeof plain) => async () => {
    const v = await keys.verify(req);
    if (!v.valid) throw new Error(v.code);
  };
  const cached = await sequential(50_000, 2000, verifyOk(plain));
  console.log(fmt('API-key verification, cached, in-process', cached));
  const cachedLists = await sequential(50_000, 2000, verifyOk(withLists));
  console.log(fmt('  same, key with CIDR + origin allow-lists', cachedLists));
  const cold = await sequential(500, 50, async () => {
    keys.invalidate();
    await verifyOk(plain)();
  });
  console.log(fmt('API-key verification, cold (platform lookup)', cold));

  const viaRest = await sequential(N, 300, async () => {
    const r = await requestJson('GET', `${rest}/v1/products/${product.id}`, kh);
    if (r.status !== 200) throw new Error(`REST ${r.status} ${r.text}`);
    JSON.parse(r.text);
  });
  console.log(fmt('GET /v1/products/:id via REST, key auth', viaRest));
  const viaGw = await sequential(N, 300, async () => {
    const r = await postJson(stack.gateway.url, kh, JSON.stringify({ query: 'query($id: ID!) { product(id: $id) { id name sku price { amount currency formatted } } }', variables: { id: product.id } }));
    if (r.status !== 200 || JSON.parse(r.text).errors) throw new Error(`gateway ${r.status} ${r.text}`);
  });
  console.log(fmt('  same read as GraphQL straight to the gateway', viaGw));
  console.log(
    `targets: cached verification p99 ${cached.p99.toFixed(3)} ms (≤ 1 ms: ${cached.p99 <= 1 ? 'met' : 'MISSED'}); ` +
      `REST with key auth p95 ${viaRest.p95.toFixed(3)} ms (≤ 10 ms: ${viaRest.p95 <= 10 ? 'met' : 'MISSED'})`,
  );
} finally {
  await stack.stop();
  await scratch.drop();
}
process.exit(0);
