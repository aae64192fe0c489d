// What tests use to talk to the one stack of the run: REST and GraphQL over real HTTP, token
// minting, and a fresh tenant (platform → account → app → keys) per test.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { request as httpRequest } from 'node:http';
import { signJwt } from '../../gateway/auth/jwt.js';
import { bodyOf } from '../../lib/http-client.js';
import { ROOT } from './spawn.js';

export interface StackInfo {
  rest: string;
  gateway: string;
  subgraphs: Record<'platform' | 'ai' | 'catalog' | 'search', string>;
  env: Record<string, string>;
  redis: boolean;
}

let cached: StackInfo | undefined;
export function stack(): StackInfo {
  cached ??= JSON.parse(readFileSync(resolve(ROOT, '.data', `test-stack-${process.env.TEST_PORT_BASE ?? 14000}.json`), 'utf8')) as StackInfo;
  return cached;
}

export function uniq(prefix = 't'): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

/**
 * The `sub` of tokens minted without one: the operator of every platform the tests create with
 * such a token (the creator of a platform is its owner operator, docs/security.md), so a test's
 * second token for "its" platform reaches it. Tests of cross-platform access mint with their own subs.
 */
export const HARNESS_OPERATOR = 'harness-operator';

export function mintToken(opts: { sub?: string; scopes?: string[]; platform?: string; expiresInSec?: number } = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      sub: opts.sub ?? HARNESS_OPERATOR,
      scope: (opts.scopes ?? ['platform:admin', 'platform:manage', 'platform:read']).join(' '),
      iat: now,
      exp: now + (opts.expiresInSec ?? 600),
      ...(opts.platform ? { platform: opts.platform } : {}),
    },
    stack().env.JWT_SECRET,
  );
}

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** `form`: a multipart/form-data body (fetch sets its content type and boundary). */
export async function rest<T = any>(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string>; raw?: string; form?: FormData } = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.body !== undefined || opts.raw !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const payload = opts.form ?? opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  const r = await fetch(`${stack().rest}${path}`, { method, headers, body: payload });
  return { status: r.status, body: bodyOf(await r.text()), headers: r.headers };
}

export async function gql<T = any>(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, url = stack().gateway): Promise<HttpResult<{ data?: T; errors?: any[] }>> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: r.status, body: (await r.json()) as { data?: T; errors?: any[] }, headers: r.headers };
}

/** A GraphQL POST from a chosen local address (127.0.0.2 is the stack's trusted proxy, TRUSTED_PROXIES). */
export function gqlFrom<T = any>(localAddress: string, query: string, headers: Record<string, string> = {}, url = stack().gateway): Promise<HttpResult<{ data?: T; errors?: any[] }>> {
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: h });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function jsonApi(type: string, attributes: Record<string, unknown>) {
  return { data: { type, attributes } };
}

export interface Tenant {
  platformCode: string;
  adminToken: string;
  platformHeaders: Record<string, string>;
  accountUrlId: string;
  appId: string;
  secretKey: string;
  publishableKey: string;
  /** headers for products/search/ai calls with the secret key */
  keyHeaders: Record<string, string>;
}

function expectStatus(r: HttpResult, status: number, what: string): void {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
}

/** A fresh platform, account (dedicated_cloud unless said otherwise), app and two keys, all through REST. */
/**
 * `plan`: subscribe the account to that subscription model first (no trial), so its keys carry the
 * plan; without it the account has no subscription and its apps get the Free plan's limits.
 */
/** `operator`: the JWT sub that creates (and so operates) the platform; HARNESS_OPERATOR by default. */
export async function createTenant(opts: { deploymentModel?: string; environment?: 'test' | 'live'; plan?: string; operator?: string } = {}): Promise<Tenant> {
  const platformCode = uniq('p');
  const adminToken = mintToken({ sub: opts.operator, scopes: ['platform:admin', 'platform:manage', 'platform:read'] });
  const platformHeaders = { authorization: `Bearer ${adminToken}`, 'x-platform': platformCode };
  expectStatus(await rest('POST', '/platforms', { body: jsonApi('platforms', { code: platformCode, name: `Platform ${platformCode}` }), headers: platformHeaders }), 201, 'create platform');
  const acct = await rest('POST', '/accounts', {
    body: jsonApi('accounts', { name: `Account ${platformCode}`, code: uniq('a'), deployment_model: opts.deploymentModel ?? 'dedicated_cloud' }),
    headers: platformHeaders,
  });
  expectStatus(acct, 201, 'create account');
  const accountUrlId = acct.body.data.attributes.url_id as string;
  if (opts.plan) {
    const sub = await rest('POST', `/accounts/${accountUrlId}/subscriptions`, { body: jsonApi('subscriptions', { model_code: opts.plan, trial: false }), headers: platformHeaders });
    expectStatus(sub, 201, `subscribe to ${opts.plan}`);
  }
  const app = await rest('POST', `/accounts/${accountUrlId}/apps`, { body: jsonApi('apps', { name: 'App', app_type: 'web', purpose: 'production' }), headers: platformHeaders });
  expectStatus(app, 201, 'create app');
  const appId = app.body.data.id as string;
  const environment = opts.environment ?? 'live';
  const mk = async (keyType: string) => {
    const r = await rest('POST', `/accounts/${accountUrlId}/apps/${appId}/api_keys`, {
      body: jsonApi('api_keys', { name: keyType, key_type: keyType, environment }),
      headers: platformHeaders,
    });
    expectStatus(r, 201, `create ${keyType} key`);
    return r.body.data.attributes.key_id as string;
  };
  const secretKey = await mk('secret');
  const publishableKey = await mk('publishable');
  return {
    platformCode,
    adminToken,
    platformHeaders,
    accountUrlId,
    appId,
    secretKey,
    publishableKey,
    keyHeaders: { 'x-app-id': appId, 'x-api-key': secretKey },
  };
}
