// Used by scripts/smoke-start.sh (CI): against a running `npm start`, create a tenant through the
// REST bridge, a product through REST, then one federated GraphQL query (platform + catalog).
import { signJwt } from '../gateway/auth/jwt.js';
import { loadConfig, randomToken } from '../lib/config.js';

const cfg = loadConfig();
const rest = `http://127.0.0.1:${cfg.restPort}`;
const now = Math.floor(Date.now() / 1000);
const token = signJwt({ sub: 'smoke', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 300 }, cfg.jwtSecret);
const code = `smoke${randomToken(4).toLowerCase().replace(/[^a-z0-9]/g, '')}`;
const ph = { authorization: `Bearer ${token}`, 'x-platform': code, 'content-type': 'application/json' };

async function call(method: string, path: string, body: unknown, headers: Record<string, string>) {
  const r = await fetch(`${rest}${path}`, { method, headers, body: JSON.stringify(body) });
  const json = (await r.json()) as any;
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(json)}`);
  return json;
}

await call('POST', '/platforms', { data: { type: 'platforms', attributes: { code, name: 'Smoke' } } }, ph);
const acct = await call('POST', '/accounts', { data: { type: 'accounts', attributes: { name: 'Smoke', code, deployment_model: 'shared_cloud' } } }, ph);
const urlId = acct.data.attributes.url_id;
const app = await call('POST', `/accounts/${urlId}/apps`, { data: { type: 'apps', attributes: { name: 'Smoke app' } } }, ph);
const key = await call('POST', `/accounts/${urlId}/apps/${app.data.id}/api_keys`, { data: { type: 'api_keys', attributes: { name: 'smoke', key_type: 'secret' } } }, ph);
const kh = { 'x-app-id': app.data.id, 'x-api-key': key.data.attributes.key_id, 'content-type': 'application/json' };
await call('POST', '/v1/products', { data: { type: 'products', attributes: { name: 'Smoke lamp', sku: `SKU-${code}`, price: { amount: 1999, currency: 'USD' } } } }, kh);
const r = await fetch(cfg.gatewayUrl, { method: 'POST', headers: kh, body: JSON.stringify({ query: '{ currentApp { id name products { id name price { formatted } } } }' }) });
const body = (await r.json()) as any;
console.log(JSON.stringify(body));
if (body.errors || body.data?.currentApp?.products?.[0]?.name !== 'Smoke lamp') {
  console.error('federated query failed');
  process.exit(1);
}
console.log('federated query through the gateway: ok');
