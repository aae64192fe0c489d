// The AI benches' tenant: a platform, an enterprise account (no AI request limit unless configured,
// so the benches measure latency, not the plan), a web app, a live secret key and a registered user,
// all made through the REST bridge; plus the JSON call helper and the detailed health (which needs a
// super-admin token since /health/detailed shows up/down only to anyone else).
import { resolve } from 'node:path';
import { signJwt } from '../gateway/auth/jwt.js';
import { SUPER_ADMIN_SCOPE } from '../lib/tenant.js';

export type Call = (method: string, path: string, headers: Record<string, string>, body?: unknown) => Promise<any>;

export interface AiBenchTenant {
  call: Call;
  doc: (type: string, attributes: Record<string, unknown>) => { data: { type: string; attributes: Record<string, unknown> } };
  /** X-App-Id, X-Api-Key and the registered user's JWT */
  headers: Record<string, string>;
  appId: string;
  /** the gateway's /health/detailed, with details (a super-admin token) */
  health(): Promise<any>;
}

/** `retries503`: a call that meets a 503 (key verification timing out on a loaded machine) is tried again. */
export async function aiBenchTenant(url: string, gatewayHealthUrl: string, secret: string, label: string, retries503 = 0): Promise<AiBenchTenant> {
  const now = Math.floor(Date.now() / 1000);
  const token = (sub: string, scope: string) => signJwt({ sub, scope, iat: now, exp: now + 7200 }, secret);
  const call: Call = async (method, path, headers, body) => {
    for (let attempt = 0; ; attempt++) {
      const r = await fetch(url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body ? JSON.stringify(body) : undefined });
      if (r.status === 503 && attempt < retries503) {
        await r.text();
        await new Promise((res) => setTimeout(res, 500));
        continue;
      }
      const json = await r.json();
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
      return json;
    }
  };
  const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
  const code = `${label}${process.pid}`;
  const admin = { authorization: `Bearer ${token('admin', 'platform:admin platform:manage platform:read')}`, 'x-platform': code };
  await call('POST', '/platforms', admin, doc('platforms', { code, name: 'Bench' }));
  const acct = await call('POST', '/accounts', admin, doc('accounts', { name: 'Bench', code: `a${code}`, deployment_model: 'dedicated_cloud' }));
  const urlId = acct.data.attributes.url_id;
  await call('POST', `/accounts/${urlId}/subscriptions`, admin, doc('subscriptions', { model_code: 'enterprise', trial: false }));
  const app = await call('POST', `/accounts/${urlId}/apps`, admin, doc('apps', { name: 'Bench', app_type: 'web', purpose: 'production', rate_limit_per_minute: 100_000 }));
  const key = await call('POST', `/accounts/${urlId}/apps/${app.data.id}/api_keys`, admin, doc('api_keys', { name: 'bench', key_type: 'secret', environment: 'live' }));
  const headers = { 'x-app-id': app.data.id, 'x-api-key': key.data.attributes.key_id, authorization: `Bearer ${token('bench-user', '')}` };
  await call('POST', '/identities/bench-user/register', headers);
  const superAdmin = { authorization: `Bearer ${token('bench-operator', SUPER_ADMIN_SCOPE)}` };
  const health = async () => (await fetch(gatewayHealthUrl, { headers: superAdmin })).json();
  return { call, doc, headers, appId: app.data.id, health };
}

/** the JWT secret of the AI benches' stacks (their tenant's tokens are signed with it) */
export const AI_BENCH_SECRET = 'bench-secret';

/**
 * The env of an AI bench's in-process stack: its scratch database and ports, quiet logs, no Redis,
 * the enterprise plan, its own data folder (.data/<dataDir>) and `extra` (e.g. lifted image budgets).
 * The AI runtime reads its plan (and `processEnv`) from process.env, so those are set there too.
 */
export function aiBenchEnv(dbUrl: string | undefined, ports: NodeJS.ProcessEnv, dataDir: string, extra: NodeJS.ProcessEnv = {}, processEnv: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  Object.assign(process.env, { AI_DEFAULT_PLAN: 'enterprise', ...processEnv });
  return {
    ...process.env,
    DATABASE_URL: dbUrl ?? '',
    JWT_SECRET: AI_BENCH_SECRET,
    INTERNAL_SECRET: 'bench-internal',
    LOG_LEVEL: 'error',
    REDIS_URL: '',
    AI_DEFAULT_PLAN: 'enterprise',
    ...extra,
    ...ports,
    DATA_DIR: resolve(import.meta.dirname, '..', '.data', dataDir),
  };
}
