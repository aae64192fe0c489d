// The shared security suite (Unkey's `.security` tests): every row of the bridge's route table whose
// auth is not 'none' is run through the same cases, generated from the row itself: path params are
// filled with the tenant's real ids, POST bodies are the smallest valid body of the row's data.type,
// credentials follow the row's auth mode. A new route with a path param or a body type this file
// does not know fails loudly (see PARAM_FIXTURES / MINIMAL_BODIES) instead of being skipped.
//
// Also here: the error-shape assertion every e2e test uses, written from the README's "Error shapes"
// decision (not imported from the bridge, so a drift in rest-bridge/errors.ts is caught).
import { randomBytes } from 'node:crypto';
import { signJwt } from '../../gateway/auth/jwt.js';
import type { Route, Service } from '../../rest-bridge/types.js';
import { createTenant, jsonApi, mintToken, rest, type HttpResult, type Tenant, uniq } from './client.js';
import { ensureServiceResources, SERVICE_BODIES, SERVICE_PARAM_FIXTURES, serviceScope } from './platform-services.fixtures.js';
import { ensureTaxonomyResources, TAXONOMY_BODIES, TAXONOMY_ROUTE_FIXTURES, TAXONOMY_UPDATE_BODIES } from './catalog-taxonomy.fixtures.js';
import { imageServer, photoUrl } from './images.js';
import { ensureProductResources, PRODUCT_BODIES, PRODUCT_ROUTE_BODIES, PRODUCT_ROUTE_FIXTURES, PRODUCT_UPDATE_BODIES } from './catalog-products.fixtures.js';
import { AI_CUSTOM_BODIES, AI_CUSTOM_PARAM_FIXTURES, AI_CUSTOM_ROUTE_FIXTURES } from './ai-custom.fixtures.js';
import { IMAGE_ROUTE_BODIES, IMAGE_ROUTE_FIXTURES, imageRouteForm } from './catalog-images.fixtures.js';
import { VISION_ROUTE_BODIES, VISION_ROUTE_FIXTURES, visionRouteForm } from './catalog-vision.fixtures.js';
import { INVENTORY_ROUTE_BODIES, INVENTORY_ROUTE_FIXTURES } from './catalog-inventory.fixtures.js';
import { loadFieldAccess, restReads } from './key-reach.js';
import type { FieldAccess } from '../../lib/field-access.js';

/** Every scope a key may carry (CONTRACT.md, Authentication). */
export const KEY_SCOPES = ['products:read', 'products:write', 'search:read', 'search:write', 'ai:read', 'ai:write'] as const;
export const PLATFORM_SCOPES = ['platform:admin', 'platform:manage', 'platform:read'] as const;

// ---------------------------------------------------------------------------------------------
// Error shapes

/** How the owning service writes a code (README, "Error shapes"). */
export function codeAs(service: Service, code: string): string {
  if (service === 'products') return code;
  if (code === 'RATE_LIMITED') return 'rate_limit_exceeded';
  if (service === 'ai' && code.includes('-')) return code;
  return code.toLowerCase().replace(/-/g, '_');
}

const LIST_ITEM_KEYS = ['code', 'detail', 'source', 'status', 'title'];
const PLATFORM_KEYS = ['error', 'message', 'parameter', 'request_id', 'status'];

function describeRes(res: HttpResult): string {
  return `HTTP ${res.status} ${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`;
}

/**
 * Asserts status AND body shape of `service`'s documented error, and the code (one of `codes`, in
 * the service's spelling), and `parameter` when given. Returns the (first) error object.
 *  - platform: { error: lower_snake, message, status: int, parameter? }
 *  - products: { errors: [{ status: "409", code: UPPER_SNAKE, title, detail, source?: { parameter } }] }
 *  - search / ai: the same list with lower_snake codes (ai keeps its kebab codes)
 *  - ai usr-not-registered: { error: { code, message, status } } (shape B)
 */
export function expectServiceError(
  res: HttpResult,
  service: Service,
  status: number,
  codes: string | readonly string[],
  opts: { parameter?: string } = {},
): Record<string, any> {
  const wanted = (typeof codes === 'string' ? [codes] : codes).map((c) => codeAs(service, c));
  const where = describeRes(res);
  expect({ status: res.status, where }).toEqual({ status, where });
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = res.body as Record<string, any>;
  expect(typeof body).toBe('object');

  if (service === 'platform') {
    expect(Object.keys(body).filter((k) => !PLATFORM_KEYS.includes(k))).toEqual([]);
    expect(body).toMatchObject({ status, message: expect.any(String), error: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
    expect(wanted).toContain(body.error);
    if (opts.parameter !== undefined) expect(body.parameter).toBe(opts.parameter);
    return body;
  }

  if (service === 'ai' && wanted.includes('usr-not-registered')) {
    expect(body).toEqual({ error: { code: 'usr-not-registered', message: expect.any(String), status }, meta: { request_id: expect.any(String) } });
    return body.error;
  }

  expect(Object.keys(body)).toEqual(['errors', 'meta']);
  expect(body.meta).toEqual({ request_id: expect.any(String) });
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.length).toBeGreaterThanOrEqual(1);
  for (const e of body.errors) {
    expect(Object.keys(e).filter((k) => !LIST_ITEM_KEYS.includes(k))).toEqual([]);
    expect(e).toMatchObject({ status: String(status), code: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    if (e.source !== undefined) expect(e.source).toEqual({ parameter: expect.any(String), ...(e.source.pointer !== undefined ? { pointer: expect.stringMatching(/^\/data(\/|$)/) } : {}) });
  }
  const first = body.errors[0];
  expect(wanted).toContain(first.code);
  if (opts.parameter !== undefined) expect(first.source?.parameter).toBe(opts.parameter);
  return first;
}

// ---------------------------------------------------------------------------------------------
// Credentials

export function randomBase62(n: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(n)].map((b) => alphabet[b % 62]).join('');
}

/** A key that matches the documented format but was never issued. */
export function unknownKeyLike(real: string): string {
  const prefix = /^((?:pk|sk)_(?:test|live)_(?:sh|ent|byok)_)/.exec(real)?.[1] ?? 'sk_live_ent_';
  return prefix + randomBase62(32);
}

/** A JWT with valid claims, signed with a secret the stack does not know. */
export function jwtWithWrongSecret(sub = uniq('user_'), scopes: readonly string[] = PLATFORM_SCOPES): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ sub, scope: scopes.join(' '), iat: now, exp: now + 600 }, 'not-the-stack-secret');
}

export function expiredJwt(sub = uniq('user_'), scopes: readonly string[] = PLATFORM_SCOPES): string {
  return mintToken({ sub, scopes: [...scopes], expiresInSec: -60 });
}

export interface KeyOptions {
  keyType?: 'secret' | 'publishable';
  environment?: 'test' | 'live';
  scopes?: readonly string[];
  rateLimitPerMinute?: number;
  expiresAt?: Date;
  name?: string;
  allowedIps?: string[];
}

/** Create one more key for the tenant's app through REST; returns the full key value and the resource. */
export async function createKey(t: Tenant, opts: KeyOptions = {}): Promise<{ key: string; res: HttpResult }> {
  const attributes: Record<string, unknown> = { name: opts.name ?? uniq('key '), key_type: opts.keyType ?? 'secret' };
  if (opts.environment) attributes.environment = opts.environment;
  if (opts.scopes) attributes.scopes = [...opts.scopes];
  if (opts.rateLimitPerMinute !== undefined) attributes.rate_limit_per_minute = opts.rateLimitPerMinute;
  if (opts.expiresAt) attributes.expires_at = opts.expiresAt.toISOString();
  if (opts.allowedIps) attributes.allowed_ips = opts.allowedIps;
  const res = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, { body: jsonApi('api_keys', attributes), headers: t.platformHeaders });
  if (res.status !== 201) throw new Error(`create key: expected 201, got ${describeRes(res)}`);
  return { key: res.body.data.attributes.key_id as string, res };
}

/** Sleep until a fixed one-minute rate-limit window has at least `ms` left, so N requests share one window. */
export async function awaitRoomInRateWindow(ms = 5000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await sleep(left + 50);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Route fixtures

/** A tenant as the security suite needs it: the harness tenant, its user token and lazily created resources. */
export interface SecTenant extends Tenant {
  platformId: string;
  /** the JWT sub that created the platform, so its owner operator (docs/security.md) */
  operator: string;
  userId: string;
  /** a user JWT (no scopes) for apiKey+jwt routes */
  userToken: string;
  productId?: string;
  indexUid?: string;
  /** blocks and user access (platform-blocks / platform-access routes) */
  licenseId?: string;
  blockInstanceId?: string;
  accessId?: string;
  credentialId?: string;
  exchangeId?: string;
  transferCode?: string;
  logoUploadId?: string;
  subscriptionId?: string;
  invoiceId?: string;
  /** resources created on demand by route-specific fixtures (ROUTE_PARAM_FIXTURES), by name */
  extra: Record<string, string>;
  documentId?: string;
  taskId?: string;
  webhookId?: string;
}

/** Search routes' tenants are on the growth plan (their fixtures create more indexes than Free allows), as is PATCH /ai/v1/model-choices. */
export async function createSecTenant(opts: { plan?: string } = {}): Promise<SecTenant> {
  const operator = uniq('op_');
  const t = await createTenant({ ...opts, operator });
  const p = await rest('GET', `/platforms/${t.platformCode}`, { headers: t.platformHeaders });
  if (p.status !== 200) throw new Error(`get platform: ${describeRes(p)}`);
  const userId = uniq('user_');
  return { ...t, operator, platformId: p.body.data.id, userId, userToken: mintToken({ sub: userId, scopes: [] }), extra: {} };
}

/** Let `sub` operate the tenant's platform with `scopes` (POST /platforms/:pid/operators). */
export async function addOperator(t: Pick<Tenant, 'platformCode' | 'platformHeaders'>, sub: string, scopes: readonly string[] = PLATFORM_SCOPES): Promise<void> {
  const r = await rest('POST', `/platforms/${t.platformCode}/operators`, { body: jsonApi('platform_operators', { user_id: sub, scopes: [...scopes] }), headers: t.platformHeaders });
  if (r.status !== 201) throw new Error(`add operator: ${describeRes(r)}`);
}

/** Headers of the tenant's operator with a token of `scopes` (platform claim: `platform`). */
export function operatorHeaders(t: SecTenant, scopes: readonly string[] = PLATFORM_SCOPES, xPlatform = t.platformCode): Record<string, string> {
  return { authorization: `Bearer ${mintToken({ sub: t.operator, scopes: [...scopes] })}`, 'x-platform': xPlatform };
}

/** Poll a search task until it leaves the queue (the fixture document must be readable). */
async function searchTaskDone(t: SecTenant, taskId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await rest('GET', `/search/v1/tasks/${taskId}`, { headers: t.keyHeaders });
    if (r.status === 200 && ['succeeded', 'failed', 'canceled'].includes(r.body.data.attributes.status)) return;
    await sleep(100);
  }
  throw new Error(`search task ${taskId} did not finish`);
}

/** Resources a path param may need; created once per tenant, on first use (also the contract suite's, test/harness/contract.ts). */
export async function ensureResources(route: Route, t: SecTenant): Promise<void> {
  for (const name of paramNames(route)) {
    const f = fixtureFor(route, name);
    if (f?.ensure) await f.ensure(t);
  }
  // A route that deletes the resource its path names gets a fresh one per call.
  if (route.method === 'DELETE' && /:index_uid$/.test(route.path)) t.indexUid = undefined;
  // (the AI webhook routes have a fixture of their own: ai-custom.fixtures.ts)
  if (route.method === 'DELETE' && /^\/search\/.*:webhook_id$/.test(route.path)) t.webhookId = undefined;
  if (route.method === 'DELETE' && /^\/search\/.*:document_id$/.test(route.path)) t.documentId = undefined;
  const needsIndex =
    route.path.includes(':index_uid') ||
    route.path.includes(':task_id') ||
    routeQuery(route) !== undefined ||
    ['search_events', 'multi_search_queries', 'federated_search_queries'].includes(route.body?.type ?? '');
  if (route.path.includes(':id') && fixtureFor(route, 'id') === PARAM_FIXTURES.id && !t.productId) {
    const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Fixture', sku: uniq('SKU-') }), headers: t.keyHeaders });
    if (r.status !== 201) throw new Error(`fixture product: ${describeRes(r)}`);
    t.productId = r.body.data.id;
  }
  if (needsIndex && !t.indexUid) {
    const uid = uniq('idx_');
    const r = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid, primary_key: 'id', settings: { filterable_attributes: ['genre'] } }), headers: t.keyHeaders });
    if (r.status !== 201) throw new Error(`fixture index: ${describeRes(r)}`);
    t.indexUid = uid;
  }
  if (route.body?.type === 'index_swaps' && !t.extra.swapB) {
    // a pair of the tenant's own to swap back and forth (swapping the fixture index would move its name)
    for (const name of ['swapA', 'swapB']) {
      const uid = uniq('swap_');
      const r = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid }), headers: t.keyHeaders });
      if (r.status !== 201) throw new Error(`fixture swap index: ${describeRes(r)}`);
      t.extra[name] = uid;
    }
  }
  if (route.body?.type === 'similar_queries' && !t.extra.similarDoc) {
    // similar documents need an index with embedding attributes and a document of it
    const settings = await rest('PATCH', `/search/v1/indexes/${t.indexUid}/settings`, { body: jsonApi('index_settings', { embedding_attributes: ['genre'] }), headers: t.keyHeaders });
    if (settings.status !== 202) throw new Error(`fixture embedding attributes: ${describeRes(settings)}`);
    const id = uniq('sim');
    const r = await rest('POST', `/search/v1/indexes/${t.indexUid}/documents`, { body: jsonApi('documents', { documents: [{ id, genre: 'fixture text' }] }), headers: t.keyHeaders });
    if (r.status !== 202) throw new Error(`fixture similar document: ${describeRes(r)}`);
    await searchTaskDone(t, r.body.data.id);
    t.extra.similarDoc = id;
  }
  if (route.path.includes(':document_id') && !t.documentId) {
    const id = uniq('doc');
    const r = await rest('POST', `/search/v1/indexes/${t.indexUid}/documents`, { body: jsonApi('documents', { documents: [{ id, genre: 'fixture' }] }), headers: t.keyHeaders });
    if (r.status !== 202) throw new Error(`fixture document: ${describeRes(r)}`);
    await searchTaskDone(t, r.body.data.id);
    t.documentId = id;
  }
  if (route.path.includes(':task_id') && !t.taskId) {
    const r = await rest('GET', `/search/v1/tasks?index_uid=${t.indexUid}`, { headers: t.keyHeaders });
    if (r.status !== 200 || !r.body.data.length) throw new Error(`fixture task: ${describeRes(r)}`);
    t.taskId = r.body.data[0].id;
  }
  if (route.path.startsWith('/search/') && route.path.includes(':webhook_id') && !t.webhookId) {
    const r = await rest('POST', '/search/v1/webhooks', { body: jsonApi('webhooks', MINIMAL_BODIES.webhooks(t)), headers: t.keyHeaders });
    if (r.status !== 201) throw new Error(`fixture webhook: ${describeRes(r)}`);
    t.webhookId = r.body.data.id;
  }
  if ((route.path.includes(':subscription_id') || route.path.includes(':invoice_id')) && !t.subscriptionId) {
    // a paid plan without trial: active, with its first invoice due; suspended for /reactivate
    const base = `/accounts/${t.accountUrlId}`;
    // security tenants are already on the growth plan (createTenant({ plan })): use that subscription
    const list = await rest('GET', `${base}/subscriptions`, { headers: t.platformHeaders });
    const live = (list.body?.data ?? []).find((x: any) => x.attributes.status !== 'canceled');
    const r = live ? { status: 201, body: { data: live } } : await rest('POST', `${base}/subscriptions`, { body: jsonApi('subscriptions', { model_code: 'growth', trial: false }), headers: t.platformHeaders });
    if (r.status !== 201) throw new Error(`fixture subscription: ${describeRes(r as any)}`);
    t.subscriptionId = r.body.data.id;
    const inv = await rest('GET', `${base}/invoices`, { headers: t.platformHeaders });
    t.invoiceId = inv.body.data[0].id;
    if (route.path.endsWith('/reactivate')) await rest('POST', `${base}/subscriptions/${t.subscriptionId}/suspend`, { headers: t.platformHeaders });
  }
  await ensureBlockAndAccessResources(route, t);
  await ensureServiceResources(route, t);
  await ensureTaxonomyResources(route, t);
  await ensureProductResources(route, t);
  // every AI call other than registration needs a registered user (ai.md, rule 1)
  if (route.service === 'ai' && route.operation !== 'RegisterIdentity') await ensureAiIdentity(t);
}

const aiHeaders = (t: SecTenant) => ({ 'x-app-id': t.appId, 'x-api-key': t.secretKey, authorization: `Bearer ${t.userToken}` });

async function ensureAiIdentity(t: SecTenant): Promise<void> {
  if (t.extra.aiIdentity) return;
  const r = await rest('POST', `/identities/${t.userId}/register`, { headers: aiHeaders(t) });
  if (r.status !== 201) throw new Error(`fixture identity: ${describeRes(r)}`);
  t.extra.aiIdentity = r.body.data.id;
}

/** The CRM block licensed to the account (and provisioned to the app where the path needs it); an access for :access_id. */
async function ensureBlockAndAccessResources(route: Route, t: SecTenant): Promise<void> {
  const h = t.platformHeaders;
  const appBlocks = route.path.startsWith('/accounts/:url_id/apps/:app_id/blocks');
  if ((route.path.includes(':license_id') || appBlocks) && !t.licenseId) {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/blocks`, { body: jsonApi('block_licenses', { block_unique_id: 'blk_crm' }), headers: h });
    if (r.status !== 201) throw new Error(`fixture license: ${describeRes(r)}`);
    t.licenseId = r.body.data.id;
  }
  if (route.path.includes(':block_id') && !t.blockInstanceId) {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/blocks`, { body: jsonApi('block_instances', { block_unique_id: 'blk_crm' }), headers: h });
    if (r.status !== 201) throw new Error(`fixture block instance: ${describeRes(r)}`);
    t.blockInstanceId = r.body.data.id;
  }
  if (route.path.includes(':access_id') && !t.accessId) {
    const r = await rest('POST', '/user_accesses', { body: jsonApi('user_accesses', { user_id: t.userId, account_id: t.accountUrlId }), headers: h });
    if (r.status !== 201) throw new Error(`fixture access: ${describeRes(r)}`);
    t.accessId = r.body.data.id as string;
    // reactivate starts from suspended
    if (route.path.endsWith('/reactivate')) {
      const s = await rest('POST', `/user_accesses/${t.accessId}/suspend`, { headers: h });
      if (s.status !== 200) throw new Error(`fixture suspend: ${describeRes(s)}`);
    }
  }
}

/**
 * How each path param is filled from a tenant, and which code answers when the value is another
 * tenant's (`foreignCode`; null: the param names no tenant-owned resource, e.g. a user id that
 * registration creates on demand in the caller's own tenant).
 */
export interface ParamFixture {
  value(t: SecTenant): string;
  foreignCode: string | null;
  /** the value is a number counted per tenant (app and environment), so another tenant may have one of its own */
  perTenant?: boolean;
  /** create what value() reads, once per tenant */
  ensure?(t: SecTenant): Promise<void>;
}

/** An answer with the parts that differ per request (request ids) taken out. */
function withoutRequestIds(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body ?? null), (k, v) => (k === 'requestId' || k === 'request_id' ? undefined : v));
}

export const PARAM_FIXTURES: Record<string, ParamFixture> = {
  unique_id: { value: (t) => t.platformId, foreignCode: 'PLATFORM_NOT_FOUND' },
  url_id: { value: (t) => t.accountUrlId, foreignCode: 'ACCOUNT_NOT_FOUND' },
  app_id: { value: (t) => t.appId, foreignCode: 'APP_NOT_FOUND' },
  id: { value: (t) => t.productId!, foreignCode: 'PRODUCT_NOT_FOUND' },
  index_uid: { value: (t) => t.indexUid!, foreignCode: 'index_not_found' },
  document_id: { value: (t) => t.documentId!, foreignCode: 'document_not_found' },
  task_id: { value: (t) => t.taskId!, foreignCode: 'task_not_found', perTenant: true },
  webhook_id: { value: (t) => t.webhookId!, foreignCode: 'webhook_not_found' },
  user_unique_id: { value: (t) => t.userId, foreignCode: null },
  license_id: { value: (t) => t.licenseId!, foreignCode: 'BLOCK_LICENSE_NOT_FOUND' },
  block_id: { value: (t) => t.blockInstanceId!, foreignCode: 'BLOCK_NOT_PROVISIONED' },
  access_id: { value: (t) => t.accessId!, foreignCode: 'ACCESS_NOT_FOUND' },
  // users are not platform-owned: another platform's user id lists that platform's records (none), not 404
  user_id: { value: (t) => t.userId, foreignCode: null },
  ...SERVICE_PARAM_FIXTURES,
  subscription_id: { value: (t) => t.subscriptionId!, foreignCode: 'SUBSCRIPTION_NOT_FOUND' },
  batch_id: {
    value: (t) => t.extra.aiBatch,
    foreignCode: 'batch_not_found',
    ensure: once('aiBatch', async (t) => {
      await ensureAiIdentity(t);
      const r = await rest('POST', '/ai/v1/batches', { body: jsonApi('batch_requests', MINIMAL_BODIES.batch_requests(t)), headers: aiHeaders(t) });
      if (r.status !== 202) throw new Error(`fixture batch: ${describeRes(r)}`);
      return r.body.data.id;
    }),
  },
  invoice_id: { value: (t) => t.invoiceId!, foreignCode: 'INVOICE_NOT_FOUND' },
  platform_code: { value: (t) => t.platformCode, foreignCode: 'PLATFORM_NOT_FOUND' },
  ...AI_CUSTOM_PARAM_FIXTURES,
};

/** The smallest valid body of each JSON:API type; unique values, so the row can be called repeatedly. */
export const MINIMAL_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  platforms: () => ({ code: uniq('p'), name: `Security fixture ${uniq('')}` }),
  platform_operators: () => ({ user_id: uniq('op_'), scopes: ['platform:read'] }),
  accounts: () => ({ name: `Security ${uniq('')}`, code: uniq('a') }),
  apps: () => ({ name: 'Security fixture' }),
  api_keys: () => ({ name: 'security fixture', key_type: 'secret' }),
  operation_manifests: () => ({ manifest: { [operationId()]: 'query Fixture { currentApp { id } }' } }),
  operation_settings: () => ({ enabled: false }),
  products: () => ({ name: 'Security fixture', sku: uniq('SKU-') }),
  indexes: () => ({ uid: uniq('idx_') }),
  index_settings: () => ({ filterable_attributes: ['genre'] }),
  synonyms: () => ({ synonyms: { tv: ['television'] } }),
  stop_words: () => ({ stop_words: ['the'] }),
  ranking_rules: () => ({ ranking_rules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'] }),
  similar_queries: (t) => ({ id: t.extra.similarDoc }),
  searchable_attributes: () => ({ searchable_attributes: ['title'] }),
  filterable_attributes: () => ({ filterable_attributes: ['color'] }),
  sortable_attributes: () => ({ sortable_attributes: ['year'] }),
  distinct_attribute: () => ({ distinct_attribute: 'sku' }),
  typo_tolerance: () => ({ typo_tolerance: { enabled: true } }),
  languages: () => ({ languages: ['en'] }),
  embedding_attributes: () => ({ embedding_attributes: [] }),
  faceting: () => ({ faceting: { max_values_per_facet: 100 } }),
  pagination: () => ({ pagination: { max_total_hits: 1000 } }),
  suggestion_settings: () => ({ enabled: true }),
  documents: () => ({ documents: [{ id: uniq('d'), genre: 'fixture' }] }),
  document_deletions: () => ({ document_ids: [uniq('d')], filter: 'genre = "nothing"' }),
  document_queries: () => ({ limit: 5, filter: 'genre = fixture' }),
  search_queries: () => ({ query: 'fixture' }),
  multi_search_queries: (t) => ({ queries: [{ index_uid: t.indexUid, query: 'fixture' }] }),
  federated_search_queries: (t) => ({ queries: [{ index_uid: t.indexUid, query: 'fixture' }], federation: { limit: 5 } }),
  facet_search_queries: () => ({ facet_name: 'genre', facet_query: 'fix' }),
  suggestion_queries: () => ({ query: 'fix' }),
  index_swaps: (t) => ({ swaps: [{ indexes: [t.extra.swapA, t.extra.swapB] }] }),
  search_events: (t) => ({ event_type: 'click', index_uid: t.indexUid, query: 'fixture', document_id: 'd1', position: 1 }),
  webhooks: () => ({ url: 'http://127.0.0.1:9/hook', events: ['index.created'], secret: 'security-fixture-secret' }),
  block_licenses: () => ({ block_unique_id: 'blk_crm' }),
  block_instances: () => ({ block_unique_id: 'blk_crm' }),
  user_accesses: (t) => ({ user_id: uniq('user_'), account_id: t.accountUrlId }),
  ...SERVICE_BODIES,
  ...TAXONOMY_BODIES,
  ...PRODUCT_BODIES,
  subscriptions: () => ({ model_code: 'starter', billing_cycle: 'monthly', trial: false }),
  payments: () => ({ reference: uniq('wire-') }),
  // AI analysis (ai.md): a short real text each
  sentiment_requests: () => ({ text: 'The service was friendly and fast.' }),
  entity_requests: () => ({ text: 'Ada Lovelace visited London on 5 June 1833.' }),
  key_phrase_requests: () => ({ text: 'Battery prices fell, so electric vehicles got cheaper.' }),
  language_requests: () => ({ text: 'This sentence is written in English.' }),
  summarize_requests: () => ({ text: 'Battery prices fell last year. Electric vehicles got cheaper as a result. Sales of electric vehicles doubled.', max_length: 60 }),
  moderation_requests: () => ({ text: 'Have a lovely day.' }),
  embedding_requests: () => ({ inputs: ['a red apple', 'a green pear'] }),
  similarity_requests: () => ({ source: 'a red apple', targets: ['a green apple', 'stock prices'] }),
  translation_requests: () => ({ text: 'The cat sleeps.', source_language: 'en', target_language: 'es' }),
  batch_requests: () => ({ operation: 'sentiment', inputs: ['Lovely day.', 'Awful traffic.'] }),
  model_choices: () => ({ embeddings: 'builtin' }),
  // a data.type two services share: `<service>/<type>` picks the service's own body
  'ai/webhooks': () => ({ url: 'http://127.0.0.1:9/hook', events: ['batch.completed'], secret: 'security-fixture-secret' }),
  ...AI_CUSTOM_BODIES,
  // AI image analysis: a real photo served by test/harness/images.ts (started in securityTenants)
  image_classify_requests: () => ({ image_url: photoUrl('dog'), max_labels: 3 }),
  object_detect_requests: () => ({ image_url: photoUrl('dog'), min_confidence: 0.4 }),
  ocr_requests: () => ({ image_url: photoUrl('dog') }),
  image_moderation_requests: () => ({ image_url: photoUrl('dog'), categories: ['adult'] }),
};

/** A registered operation's id (a hash's shape), unique per call. */
const operationId = () => `sha256:${uniq('op').replace(/[^A-Za-z0-9]/g, '')}`;

/** Create a resource through REST once per tenant and remember its id under `name`. */
function once(name: string, create: (t: SecTenant) => Promise<string>): (t: SecTenant) => Promise<void> {
  return async (t) => {
    t.extra[name] ??= await create(t);
  };
}

async function created(res: Promise<HttpResult>, what: string): Promise<HttpResult> {
  const r = await res;
  if (r.status !== 201) throw new Error(`fixture ${what}: ${describeRes(r)}`);
  return r;
}

/** An app of the tenant's account with a preferred_domain (for the domain routes; DELETE removes it, not the harness app). */
const extraApp: ParamFixture = {
  value: (t) => t.extra.app,
  foreignCode: 'APP_NOT_FOUND',
  ensure: once('app', async (t) => {
    const body = jsonApi('apps', { name: 'Fixture app', preferred_domain: `${uniq('d')}.example.test` });
    return (await created(rest('POST', `/accounts/${t.accountUrlId}/apps`, { body, headers: t.platformHeaders }), 'app')).body.data.id;
  }),
};

/**
 * Params whose meaning depends on the route (`:id` is a product under /v1, an app under /apps/, a
 * key under /api_keys/...): the first entry whose method (when given) and path match wins over
 * PARAM_FIXTURES.
 */
export const ROUTE_PARAM_FIXTURES: { path: RegExp; method?: string; param: string; fixture: ParamFixture }[] = [
  ...TAXONOMY_ROUTE_FIXTURES,
  ...IMAGE_ROUTE_FIXTURES,
  ...VISION_ROUTE_FIXTURES,
  ...INVENTORY_ROUTE_FIXTURES,
  ...PRODUCT_ROUTE_FIXTURES,
  ...AI_CUSTOM_ROUTE_FIXTURES,
  { path: /^\/platforms\/:pid\//, param: 'pid', fixture: { value: (t) => t.platformCode, foreignCode: 'PLATFORM_NOT_FOUND' } },
  {
    // an operator removed by the call: a fresh one each time
    path: /^\/platforms\/:pid\/operators\/:user_id$/,
    param: 'user_id',
    fixture: {
      value: (t) => t.extra.operatorToRemove,
      foreignCode: 'OPERATOR_NOT_FOUND',
      ensure: async (t) => {
        const sub = uniq('op_');
        await addOperator(t, sub, ['platform:read']);
        t.extra.operatorToRemove = sub;
      },
    },
  },
  { path: /^\/platforms\/:pid\/accounts\/:id$/, param: 'id', fixture: { value: (t) => t.accountUrlId, foreignCode: 'ACCOUNT_NOT_FOUND' } },
  { path: /^\/accounts\/:url_id\/apps\/:id(\/|$)/, param: 'id', fixture: extraApp },
  {
    // a registered operation of the tenant's app: a fresh one each call (DELETE removes it)
    path: /^\/accounts\/:url_id\/apps\/:app_id\/operations\/:id$/,
    param: 'id',
    fixture: {
      value: (t) => t.extra.operation,
      foreignCode: 'NOT_FOUND',
      ensure: async (t) => {
        const id = operationId();
        const r = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/operations`, { body: { manifest: { [id]: 'query Fixture { currentApp { id } }' } }, headers: t.platformHeaders });
        if (r.status !== 200) throw new Error(`fixture operation: ${describeRes(r)}`);
        t.extra.operation = id;
      },
    },
  },
  {
    path: /\/api_keys\/:id(\/|$)/,
    param: 'id',
    fixture: {
      value: (t) => t.extra.key,
      foreignCode: 'API_KEY_NOT_FOUND',
      ensure: once('key', async (t) => (await createKey(t, { name: 'fixture key' })).res.body.data.id),
    },
  },
  {
    // an account with a preferred_domain
    path: /^\/accounts\/:url_id\/domain\//,
    param: 'url_id',
    fixture: {
      value: (t) => t.extra.domainAccount,
      foreignCode: 'ACCOUNT_NOT_FOUND',
      ensure: once('domainAccount', async (t) => {
        const body = jsonApi('accounts', { name: `Domain ${uniq('')}`, code: uniq('a'), preferred_domain: `${uniq('d')}.example.test` });
        return (await created(rest('POST', '/accounts', { body, headers: t.platformHeaders }), 'account')).body.data.attributes.url_id;
      }),
    },
  },
  {
    // deleting (and restoring) needs a platform without accounts
    path: /^\/platforms\/:unique_id(\/restore)?$/,
    method: 'DELETE|POST',
    param: 'unique_id',
    fixture: {
      value: (t) => t.extra.emptyPlatform,
      foreignCode: 'PLATFORM_NOT_FOUND',
      ensure: once('emptyPlatform', async (t) => {
        const body = jsonApi('platforms', { code: uniq('p'), name: `Empty fixture ${uniq('')}` });
        return (await created(rest('POST', '/platforms', { body, headers: { authorization: `Bearer ${t.adminToken}` } }), 'platform')).body.data.id;
      }),
    },
  },
];

export function fixtureFor(route: Route, name: string): ParamFixture | undefined {
  const hit = ROUTE_PARAM_FIXTURES.find((f) => f.param === name && f.path.test(route.path) && (!f.method || f.method.split('|').includes(route.method)));
  return hit?.fixture ?? PARAM_FIXTURES[name];
}

export function paramNames(route: Route): string[] {
  return [...route.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]);
}

/** Query strings of routes that need one to be valid (a bulk cancel names its tasks). */
/** Query strings a route needs, by path or by "METHOD path". */
const ROUTE_QUERIES: Record<string, (t: SecTenant) => string> = {
  '/search/v1/tasks/cancel': (t) => `?index_uid=${encodeURIComponent(t.indexUid ?? '')}`,
  // only canceled tasks of the fixture index: the history the other rows read stays
  'DELETE /search/v1/tasks': (t) => `?index_uid=${encodeURIComponent(t.indexUid ?? '')}&status=canceled`,
};
const routeQuery = (route: Route) => ROUTE_QUERIES[`${route.method} ${route.path}`] ?? ROUTE_QUERIES[route.path];

/** The route's path with params from `t`, and `override` values where given (and its ROUTE_QUERIES query). */
export function pathFor(route: Route, t: SecTenant, override: Record<string, string> = {}): string {
  const path = route.path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    const v = override[name] ?? fixtureFor(route, name)?.value(t);
    if (v === undefined) throw new Error(`${route.method} ${route.path}: no fixture for :${name} (add it to PARAM_FIXTURES in test/harness/security.ts)`);
    return encodeURIComponent(v);
  });
  return path + (routeQuery(route)?.(t) ?? '');
}

/** PUT/PATCH bodies: the smallest valid change (no new code: a platform's code is immutable). */
export const MINIMAL_UPDATE_BODIES: Record<string, () => Record<string, unknown>> = {
  platforms: () => ({ name: `Renamed ${uniq('')}` }),
  accounts: () => ({ name: `Renamed ${uniq('')}` }),
  apps: () => ({ name: `Renamed ${uniq('')}` }),
  ...TAXONOMY_UPDATE_BODIES,
  ...PRODUCT_UPDATE_BODIES,
};

/** Bodies of routes that share a data.type with a route taking other attributes (an unknown attribute is a 422). */
const SHARED_TYPE_ROUTE_BODIES: Record<string, () => Record<string, unknown>> = {
  'POST /accounts/:url_id/subscriptions/:subscription_id/change_plan': () => ({ model_code: 'starter', billing_cycle: 'monthly' }),
  'DELETE /search/v1/indexes/:index_uid/documents': () => ({ document_ids: [uniq('d')] }),
  'POST /search/v1/indexes/:index_uid/documents/delete-by-filter': () => ({ filter: 'genre = "nothing"' }),
  // the fixture index's own key: the task succeeds whatever the index holds
  'PATCH /search/v1/indexes/:index_uid': () => ({ primary_key: 'id' }),
};

export function bodyFor(route: Route, t?: SecTenant): unknown {
  if (!route.body) return undefined;
  const shared = SHARED_TYPE_ROUTE_BODIES[`${route.method} ${route.path}`];
  if (shared) return jsonApi(route.body.type, shared());
  const update = route.method === 'PUT' || route.method === 'PATCH' ? MINIMAL_UPDATE_BODIES[route.body.type] : undefined;
  const make = PRODUCT_ROUTE_BODIES[`${route.method} ${route.path}`] ?? IMAGE_ROUTE_BODIES[`${route.method} ${route.path}`] ?? VISION_ROUTE_BODIES[`${route.method} ${route.path}`] ?? INVENTORY_ROUTE_BODIES[`${route.method} ${route.path}`] ?? update ?? MINIMAL_BODIES[`${route.service}/${route.body.type}`] ?? MINIMAL_BODIES[route.body.type];
  if (!make) throw new Error(`${route.method} ${route.path}: no minimal body for data.type "${route.body.type}" (add it to MINIMAL_BODIES)`);
  return jsonApi(route.body.type, make(t!));
}

/** The scope a route needs, as documented in the spec and the route summaries. */
export function requiredScope(route: Route): string | null {
  if (route.scope) return route.scope;
  switch (route.service) {
    case 'platform':
      if (serviceScope(route)) return serviceScope(route);
      if (route.path === '/platforms' || route.path.startsWith('/platforms/')) return 'platform:admin';
      if (route.path.startsWith('/reporting/')) return 'platform:admin';
      return route.method === 'GET' ? 'platform:read' : 'platform:manage';
    case 'products':
      return route.method === 'GET' ? 'products:read' : 'products:write';
    case 'search':
      // searching is reading (publishable keys search), though the request is a POST
      return route.method === 'GET' || /\/(search|multi-search|suggest)$/.test(route.path) ? 'search:read' : 'search:write';
    case 'ai':
      // self-registration needs no scope; registering another user needs identities:write (ai.md rule 3)
      return route.operation === 'RegisterIdentity' ? 'identities:write' : route.method === 'GET' ? 'ai:read' : 'ai:write';
  }
}

/** Valid credentials of `t` for the route's auth mode. */
export function credentialsFor(route: Route, t: SecTenant, key = t.secretKey): Record<string, string> {
  switch (route.auth) {
    case 'jwt+platform':
      return { ...t.platformHeaders };
    case 'apiKey':
      return { 'x-app-id': t.appId, 'x-api-key': key };
    case 'apiKey+jwt':
      return { 'x-app-id': t.appId, 'x-api-key': key, authorization: `Bearer ${t.userToken}` };
    case 'none':
      return {};
  }
}

export interface Call {
  headers: Record<string, string>;
  params?: Record<string, string>;
}

/** One request of the route as tenant `t`'s route, with the given credentials. */
export async function call(route: Route, t: SecTenant, c: Call): Promise<HttpResult> {
  await ensureResources(route, t);
  if (route.multipart) return rest(route.method, pathFor(route, t, c.params), { headers: c.headers, form: (await visionRouteForm(route)) ?? (await imageRouteForm()) });
  return rest(route.method, pathFor(route, t, c.params), { headers: c.headers, ...(route.body ? { body: bodyFor(route, t) } : {}) });
}

/** Asserts a success of the route (its documented status and a JSON:API document). */
export function expectSuccess(route: Route, res: HttpResult): void {
  const where = describeRes(res);
  expect({ status: res.status, where }).toEqual({ status: route.status, where });
  const data = res.body?.data;
  if (route.list) expect(Array.isArray(data)).toBe(true);
  // ids are strings, except a rendered prompt's (an integer, ai.md Versioning)
  // (suggest answers its members right under data, as document 3 writes them: no attributes)
  else expect(data).toMatchObject({ id: route.responseType === 'rendered_prompts' ? expect.any(Number) : expect.any(String), type: route.responseType, ...(route.responseType === 'product_suggestions' ? { suggestions: expect.any(Array) } : { attributes: expect.any(Object) }) });
}

// ---------------------------------------------------------------------------------------------
// The suite

export interface SecurityCase {
  name: string;
  /**
   * NOT_APPLICABLE: the route's data gives the case nothing to try (not counted). A function: the
   * rest of the case, to run after the route's other cases (a wait that should not hold them up).
   */
  run(route: Route, ctx: { a: SecTenant; b: SecTenant }): Promise<void | typeof NOT_APPLICABLE | (() => Promise<void>)>;
}

/** The cases that apply to one route, derived from its auth mode, params and service. */
export function securityCases(route: Route): SecurityCase[] {
  const s = route.service;
  const cases: SecurityCase[] = [
    {
      name: `valid credentials → ${route.status} (the fixture itself is valid)`,
      run: async (r, { a }) => expectSuccess(r, await call(r, a, { headers: credentialsFor(r, a) })),
    },
    {
      name: 'no credentials → 401',
      run: async (r, { a }) => void expectServiceError(await call(r, a, { headers: {} }), s, 401, 'UNAUTHENTICATED'),
    },
  ];

  if (route.auth === 'apiKey' || route.auth === 'apiKey+jwt') {
    cases.push(
      {
        name: 'unknown (well-formed, never issued) key → 401',
        run: async (r, { a }) => void expectServiceError(await call(r, a, { headers: credentialsFor(r, a, unknownKeyLike(a.secretKey)) }), s, 401, 'KEY_NOT_FOUND'),
      },
      {
        name: "another app's valid key with this app's X-App-Id → 401",
        run: async (r, { a, b }) => void expectServiceError(await call(r, a, { headers: credentialsFor(r, a, b.secretKey) }), s, 401, ['KEY_NOT_FOUND', 'APP_MISMATCH']),
      },
      {
        name: 'X-App-Id without any key → 401',
        run: async (r, { a }) => {
          const headers = credentialsFor(r, a);
          delete headers['x-api-key'];
          const res = await call(r, a, { headers });
          expectServiceError(res, s, 401, 'UNAUTHENTICATED');
        },
      },
      {
        name: 'a platform JWT in Authorization with X-App-Id and no key → 401 saying an API key is required',
        run: async (r, { a }) => {
          const headers: Record<string, string> = { ...credentialsFor(r, a), authorization: `Bearer ${mintToken({ sub: a.operator, scopes: [...PLATFORM_SCOPES] })}` };
          delete headers['x-api-key'];
          const res = await call(r, a, { headers });
          expectServiceError(res, s, 401, 'UNAUTHENTICATED');
          expect(JSON.stringify(res.body)).toMatch(/An API key/);
        },
      },
      {
        name: 'a key that worked until its expires_at → 401 once it has passed',
        run: async (r, { a }) => {
          // room for a slow fixture (a deleted product is made per call): on a loaded machine the call
          // can outlast a short window, and then it is tried once more with a longer one
          let expiresAt!: Date;
          let key!: string;
          for (const windowMs of [4000, 20_000]) {
            expiresAt = new Date(Date.now() + windowMs);
            ({ key } = await createKey(a, { expiresAt, name: 'expiring' }));
            const res = await call(r, a, { headers: credentialsFor(r, a, key) });
            if (res.status === 401 && Date.now() >= expiresAt.getTime() && windowMs < 20_000) continue;
            expectSuccess(r, res);
            break;
          }
          // the rest once it has expired, while the route's other cases run
          return async () => {
            await sleep(expiresAt.getTime() - Date.now() + 100);
            expectServiceError(await call(r, a, { headers: credentialsFor(r, a, key) }), s, 401, 'KEY_EXPIRED');
          };
        },
      },
      {
        name: 'rate_limit_per_minute: 3 → the 4th request is 429 with Retry-After',
        run: async (r, { a }) => {
          // the four requests must share one fixed minute window: on a loaded machine slow routes
          // (image analysis) can cross into the next one, and then the sequence is tried once more
          let res!: HttpResult;
          for (let attempt = 0; attempt < 2; attempt++) {
            const { key } = await createKey(a, { rateLimitPerMinute: 3, name: 'limited' });
            await awaitRoomInRateWindow(attempt ? 30_000 : 5000);
            const window = Math.floor(Date.now() / 60_000);
            for (let i = 0; i < 3; i++) expectSuccess(r, await call(r, a, { headers: credentialsFor(r, a, key) }));
            res = await call(r, a, { headers: credentialsFor(r, a, key) });
            if (res.status === 429 || Math.floor(Date.now() / 60_000) === window) break;
          }
          expectServiceError(res, s, 429, 'RATE_LIMITED');
          const retryAfter = Number(res.headers.get('retry-after'));
          expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
        },
      },
    );
  }

  if (route.auth === 'apiKey') {
    const scope = requiredScope(route)!;
    cases.push({
      name: `a key with every scope but ${scope} → 403`,
      run: async (r, { a }) => {
        const { key } = await createKey(a, { scopes: KEY_SCOPES.filter((x) => x !== scope), name: `no ${scope}` });
        expectServiceError(await call(r, a, { headers: credentialsFor(r, a, key) }), s, 403, 'INSUFFICIENT_SCOPE');
      },
    });
  }

  if (route.auth === 'apiKey+jwt') {
    cases.push(
      {
        name: 'a valid key but no user JWT → 401',
        run: async (r, { a }) => {
          const headers = credentialsFor(r, a);
          delete headers.authorization;
          expectServiceError(await call(r, a, { headers }), s, 401, 'UNAUTHENTICATED');
        },
      },
      {
        name: 'a user JWT signed with the wrong secret → 401',
        run: async (r, { a }) => {
          const headers = { ...credentialsFor(r, a), authorization: `Bearer ${jwtWithWrongSecret(a.userId, [])}` };
          expectServiceError(await call(r, a, { headers }), s, 401, 'INVALID_TOKEN');
        },
      },
      {
        name: 'an expired user JWT → 401',
        run: async (r, { a }) => {
          const headers = { ...credentialsFor(r, a), authorization: `Bearer ${expiredJwt(a.userId, [])}` };
          expectServiceError(await call(r, a, { headers }), s, 401, 'INVALID_TOKEN');
        },
      },
    );
    if (route.service === 'ai' && route.operation !== 'RegisterIdentity') {
      const scope = requiredScope(route)!;
      cases.push(
        {
          name: `a key with every scope but ${scope} → 403`,
          run: async (r, { a }) => {
            const { key } = await createKey(a, { scopes: KEY_SCOPES.filter((x) => x !== scope), name: `no ${scope}` });
            expectServiceError(await call(r, a, { headers: credentialsFor(r, a, key) }), s, 403, 'INSUFFICIENT_SCOPE');
          },
        },
        {
          name: 'a user JWT of a user not registered in this tenant → 404 usr-not-registered (shape B)',
          run: async (r, { a }) => {
            const headers = { ...credentialsFor(r, a), authorization: `Bearer ${mintToken({ sub: uniq('stranger_'), scopes: [] })}` };
            expectServiceError(await call(r, a, { headers }), s, 404, 'usr-not-registered');
          },
        },
      );
    }
    if (route.operation === 'RegisterIdentity') {
      cases.push({
        name: 'registering another user without identities:write → 403',
        run: async (r, { a }) => {
          const res = await call(r, a, { headers: credentialsFor(r, a), params: { user_unique_id: uniq('other_') } });
          expectServiceError(res, s, 403, 'INSUFFICIENT_SCOPE');
        },
      });
    }
  }

  if (route.auth === 'jwt+platform') {
    const scope = requiredScope(route)!;
    // platform:read routes: a token with no platform scope; write routes: only platform:read (the
    // brief's case); admin routes: everything but admin.
    const lacking = scope === 'platform:admin' ? ['platform:manage', 'platform:read'] : scope === 'platform:manage' ? ['platform:read'] : ['identities:write'];
    cases.push(
      {
        // without X-App-Id, a bearer value not shaped like a key is taken for a broken JWT, and said so
        name: 'a bearer value that is neither a JWT nor a key → 401 INVALID_TOKEN',
        run: async (r, { a }) => {
          const res = await call(r, a, { headers: { authorization: `Bearer ${randomBase62(40)}`, 'x-platform': a.platformCode } });
          expectServiceError(res, s, 401, 'INVALID_TOKEN');
        },
      },
      {
        name: 'a JWT signed with the wrong secret → 401',
        run: async (r, { a }) => {
          const res = await call(r, a, { headers: { authorization: `Bearer ${jwtWithWrongSecret(a.operator)}`, 'x-platform': a.platformCode } });
          expectServiceError(res, s, 401, 'INVALID_TOKEN');
        },
      },
      {
        name: 'an expired JWT → 401',
        run: async (r, { a }) => {
          const res = await call(r, a, { headers: { authorization: `Bearer ${expiredJwt(a.operator)}`, 'x-platform': a.platformCode } });
          expectServiceError(res, s, 401, 'INVALID_TOKEN');
        },
      },
      {
        name: `the platform's operator with a token of only ${lacking.join(' ')} (no ${scope}) → 403`,
        run: async (r, { a }) => void expectServiceError(await call(r, a, { headers: operatorHeaders(a, lacking) }), s, 403, 'INSUFFICIENT_SCOPE'),
      },
      {
        name: 'a token bound to platform B sending X-Platform of platform A → 403',
        run: async (r, { a, b }) => {
          const token = mintToken({ scopes: [...PLATFORM_SCOPES], platform: b.platformCode });
          const res = await call(r, a, { headers: { authorization: `Bearer ${token}`, 'x-platform': a.platformCode } });
          expectServiceError(res, s, 403, 'FORBIDDEN');
        },
      },
    );
    if (!CROSS_PLATFORM_VIEWS.has(`${route.method} ${route.path}`)) {
      cases.push({
        name: "platform B's operator (every platform scope, no platform claim) sending X-Platform of A with A's ids → 404",
        run: async (r, { a, b }) => {
          const res = await call(r, a, { headers: operatorHeaders(b, PLATFORM_SCOPES, a.platformCode) });
          expectServiceError(res, s, 404, 'PLATFORM_NOT_FOUND');
        },
      });
      if (scope !== 'platform:read') {
        cases.push({
          name: `an operator of A whose record grants platform:read only, with a token of every platform scope → 403 (no ${scope} there)`,
          run: async (r, { a }) => {
            await readOnlyOperatorOf(a);
            const headers = { authorization: `Bearer ${mintToken({ sub: a.extra.readOperator, scopes: [...PLATFORM_SCOPES] })}`, 'x-platform': a.platformCode };
            expectServiceError(await call(r, a, { headers }), s, 403, 'INSUFFICIENT_SCOPE');
          },
        });
      }
    } else {
      cases.push({
        name: "platform B's operator sending X-Platform of A → B's own view, nothing of A",
        run: async (r, { a, b }) => {
          const res = await call(r, a, { headers: operatorHeaders(b, PLATFORM_SCOPES, a.platformCode) });
          expect(res.status).toBe(r.status);
          expectNothingOf(a, res);
        },
      });
    }
    if (route.method === 'GET') {
      cases.push({
        name: `a super-admin token (${SUPER_ADMIN}, no operator record) reaches A → ${route.status}`,
        run: async (r, { a }) => {
          const headers = { authorization: `Bearer ${mintToken({ sub: uniq('root_'), scopes: [SUPER_ADMIN, ...PLATFORM_SCOPES] })}`, 'x-platform': a.platformCode };
          expectSuccess(r, await call(r, a, { headers }));
        },
      });
    }
  }

  if (route.auth === 'apiKey' || route.auth === 'apiKey+jwt') {
    const aiRoute = ai(route);
    cases.push({
      name: 'a revoked key → 401',
      run: async (r, { a }) => {
        const { key, res } = await createKey(a, { name: 'revoked' });
        const del = await rest('DELETE', `/accounts/${a.accountUrlId}/apps/${a.appId}/api_keys/${res.body.data.id}`, { headers: a.platformHeaders });
        if (del.status !== 200) throw new Error(`revoke: ${describeRes(del)}`);
        expectServiceError(await call(r, a, { headers: credentialsFor(r, a, key) }), s, 401, ['KEY_REVOKED', 'KEY_NOT_FOUND']);
      },
    });
    if (needsSecretKey(route)) {
      cases.push({
        name: `the app's publishable key on a route that needs a secret key (${requiredScope(route)}) → 403`,
        run: async (r, { a }) => void expectServiceError(await call(r, a, { headers: credentialsFor(r, a, a.publishableKey) }), s, 403, 'INSUFFICIENT_SCOPE'),
      });
    } else if (route.method === 'GET' && route.auth === 'apiKey') {
      cases.push({
        name: `the app's publishable key on a read open to browsers (${requiredScope(route)}) → ${route.status}`,
        run: async (r, { a }) => expectSuccess(r, await call(r, a, { headers: credentialsFor(r, a, a.publishableKey) })),
      });
    }
    const foreignParams = paramNames(route).filter((p) => fixtureFor(route, p)?.foreignCode);
    if (foreignParams.length) {
      cases.push({
        name: "a key of the same app's other environment (test) on the live partition's ids → 404",
        run: async (r, { a }) => {
          await ensureResources(r, a);
          const params = Object.fromEntries(foreignParams.map((p) => [p, fixtureFor(r, p)!.value(a)]));
          const { key } = await otherEnvironmentKey(a);
          const codes = foreignParams.map((p) => fixtureFor(r, p)!.foreignCode!);
          expectNotFound(await call(r, a, { headers: credentialsFor(r, a, key), params }), s, codes, aiRoute);
        },
      });
    } else if (route.method === 'GET') {
      cases.push({
        name: "a key of the same app's other environment (test) lists nothing of the live partition",
        run: async (r, { a }) => {
          const { key } = await otherEnvironmentKey(a);
          const res = await call(r, a, { headers: credentialsFor(r, a, key) });
          if (aiRoute && res.status === 404) return void expectServiceError(res, s, 404, 'usr-not-registered');
          expectSuccess(r, res);
          expectNothingOf(a, res);
        },
      });
    }
  }

  // A foreign tenant's resource id → 404 (never 200, never 500): tenant B's own credentials, with
  // tenant A's ids in the path. For multi-param paths, also B's own parent with A's child.
  const foreign = paramNames(route).filter((p) => fixtureFor(route, p)?.foreignCode);
  if (foreign.length) {
    const variants: string[][] = [foreign];
    if (foreign.length > 1) variants.push(foreign.slice(-1));
    for (const replaced of variants) {
      const code = fixtureFor(route, replaced[0])!.foreignCode!;
      cases.push({
        name: `tenant B asking for tenant A's ${replaced.map((p) => `:${p}`).join(' and ')} → 404`,
        run: async (r, { a, b }) => {
          await ensureResources(r, a);
          const params = Object.fromEntries(replaced.map((p) => [p, fixtureFor(r, p)!.value(a)]));
          // platform routes: B's operator, who does not operate A's platform
          const headers = r.auth === 'jwt+platform' ? operatorHeaders(b) : credentialsFor(r, b);
          const res = await call(r, b, { headers, params });
          // a per-tenant number (search task uids) may name a record of B's own: never A's
          if (res.status < 300 && replaced.every((p) => fixtureFor(r, p)!.perTenant)) {
            if (r.method !== 'GET') return;
            const own = await call(r, a, { headers: credentialsFor(r, a), params });
            expect(withoutRequestIds(res.body)).not.toEqual(withoutRequestIds(own.body));
            return;
          }
          expectServiceError(res, s, 404, code);
        },
      });
    }
    const child = foreign[foreign.length - 1];
    if (foreign.length > 1 && !INDEPENDENT_CHILDREN.has(child)) {
      // IDOR on nested ids: A's own credentials, another parent of A's (a sibling product, index...) with A's child
      cases.push({
        name: `tenant A's :${child} under another of A's own ${foreign.slice(0, -1).map((p) => `:${p}`).join(' and ')} → 404 (IDOR)`,
        run: async (r, { a }) => {
          await ensureResources(r, a);
          const childValue = fixtureFor(r, child)!.value(a);
          const sibling = siblingOf(a);
          await ensureResources(r, sibling);
          const parents = Object.fromEntries(foreign.slice(0, -1).map((p) => [p, fixtureFor(r, p)!.value(sibling)]));
          if (Object.entries(parents).every(([p, v]) => v === fixtureFor(r, p)!.value(a))) return NOT_APPLICABLE;
          expectNotFound(await call(r, a, { headers: credentialsFor(r, a), params: { ...parents, [child]: childValue } }), s, [fixtureFor(r, child)!.foreignCode!], ai(r));
        },
      });
    }
  }

  // A foreign id in the body: tenant B sends the body built from A's resources (A's product in a
  // bundle, A's index in a multi-search, A's account in a grant) → refused (404 or 422), never applied.
  if (route.body && !route.multipart && !route.upload && route.method !== 'DELETE') {
    cases.push({
      name: "tenant B sending a body that names tenant A's resources → 404/422",
      run: async (r, { a, b }) => {
        await ensureResources(r, a);
        const body = bodyFor(r, a);
        const named = idsOf(a).filter((id) => JSON.stringify(body).includes(id));
        if (!named.length) return NOT_APPLICABLE;
        await ensureResources(r, b);
        const headers = r.auth === 'jwt+platform' ? operatorHeaders(b) : credentialsFor(r, b);
        const res = await rest(r.method, pathFor(r, b), { headers, body });
        expect({ refused: [404, 422].includes(res.status), where: describeRes(res) }).toEqual({ refused: true, where: describeRes(res) });
      },
    });
  }
  return cases;
}

const ai = (r: Route) => r.service === 'ai' && r.operation !== 'RegisterIdentity';

/**
 * Path children that are resources of their own, not parts of their parent: a product named under a
 * category or a collection is placed there (an association), so naming it under another category of
 * the same tenant is no IDOR. Every other nested child (an image, a variant, a document, a scheduled
 * price...) belongs to its parent, and under another parent it must be 404.
 */
const INDEPENDENT_CHILDREN = new Set(['product_id']);

/** A 404 with one of `codes`; an AI route may answer usr-not-registered (shape B) first, when the user is not known in that partition. */
function expectNotFound(res: HttpResult, service: Service, codes: string[], aiRoute: boolean): void {
  if (aiRoute && res.body?.error?.code === 'usr-not-registered') expectServiceError(res, service, 404, 'usr-not-registered');
  else expectServiceError(res, service, 404, codes);
}

/** Routes that are not one platform's: they answer the caller's own platforms whatever X-Platform says. */
const CROSS_PLATFORM_VIEWS = new Set([
  'POST /platforms',
  'GET /platforms',
  'GET /global/accounts',
  'GET /reporting/dashboard',
  'GET /reporting/revenue',
  'GET /reporting/customers',
  'GET /reporting/growth',
  'GET /reporting/engagement',
  'GET /reporting/platforms',
]);

const SUPER_ADMIN = 'platform:superadmin';

/** A case that does not apply to this route's data (it is not counted). */
export const NOT_APPLICABLE = Symbol('not applicable');

/**
 * Publishable keys get only :read scopes, and a read whose operation selects a field declaring a
 * secret key (SECRET_KEY in schema/field-access.json: webhooks, reservations, the ledger, customer
 * prices, search tasks and analytics) refuses them as a whole (docs/security.md, key table).
 */
export function needsSecretKey(route: Route): boolean {
  if (route.operation === 'RegisterIdentity') return false; // self-registration needs no scope
  const scope = requiredScope(route) ?? '';
  return scope.endsWith(':write') || !restReads([route], fieldAccess()).every((r) => r.keyTypes.includes('publishable'));
}

let access: FieldAccess | undefined;
const fieldAccess = (): FieldAccess => (access ??= loadFieldAccess());

/** A secret key of the app's test environment (the tenant is live), once per tenant. */
async function otherEnvironmentKey(t: SecTenant): Promise<{ key: string }> {
  t.extra.testKey ??= (await createKey(t, { environment: t.keyHeaders['x-api-key'].startsWith('sk_live_') ? 'test' : 'live', name: 'other environment' })).key;
  return { key: t.extra.testKey };
}

/** An operator of A's platform whose record grants platform:read only, once per tenant. */
async function readOnlyOperatorOf(t: SecTenant): Promise<void> {
  if (t.extra.readOperator) return;
  const sub = uniq('reader_');
  await addOperator(t, sub, ['platform:read']);
  t.extra.readOperator = sub;
}

/**
 * The same app and credentials without its app data (products, indexes...) nor its route-specific
 * resources: ensureResources creates a second set (sibling parents). The account's own resources
 * (licenses, accesses, subscription...) are kept: an account has one of each.
 */
function siblingOf(t: SecTenant): SecTenant {
  const { productId: _p, indexUid: _i, documentId: _d, taskId: _t, webhookId: _w, ...base } = t;
  return { ...base, extra: t.extra.aiIdentity ? { aiIdentity: t.extra.aiIdentity } : {} };
}

/** Ids of A's resources that B's responses must never show. */
function idsOf(t: SecTenant): string[] {
  const own = [t.platformId, t.accountUrlId, t.appId, t.productId, t.indexUid, t.documentId, t.taskId, t.webhookId, t.licenseId, t.blockInstanceId, t.accessId, t.credentialId, t.exchangeId, t.transferCode, t.logoUploadId, t.subscriptionId, t.invoiceId];
  const extra = Object.entries(t.extra).filter(([k]) => !['testKey', 'readOperator', 'aiIdentity'].includes(k)).map(([, v]) => v);
  // short values (a sku, a size) could appear by chance: ids only
  return [...own, ...extra].filter((v): v is string => typeof v === 'string' && v.length >= 8);
}

/** The response shows nothing of tenant A (no id of its resources, not its platform code). */
export function expectNothingOf(t: SecTenant, res: HttpResult): void {
  const text = JSON.stringify(res.body);
  const shown = [...idsOf(t), t.platformCode].filter((id) => text.includes(id));
  expect({ shown, where: describeRes(res) }).toEqual({ shown: [], where: describeRes(res) });
}

/** Routes whose tenants must be on the growth plan: choosing AI models is a growth feature (docs/ai.md, Model choices). */
const GROWTH_ROUTES = new Set(['PATCH /ai/v1/model-choices']);

/** Tenants A and B for one route's cases. */
export async function securityTenants(route?: Route): Promise<{ a: SecTenant; b: SecTenant }> {
  const opts = route?.service === 'search' || (route && GROWTH_ROUTES.has(`${route.method} ${route.path}`)) ? { plan: 'growth' } : {};
  if (route?.service === 'ai') await imageServer();
  const [a, b] = await Promise.all([createSecTenant(opts), createSecTenant(opts)]);
  return { a, b };
}

// ---------------------------------------------------------------------------------------------
// The attack suite of one area (test/e2e/security.<area>.test.ts)

/** Every protected route of the table (auth other than 'none'), of one service or all. */
export function protectedRoutes(routes: readonly Route[], service?: Service): Route[] {
  return routes.filter((r) => r.auth !== 'none' && (!service || r.service === service));
}

interface CaseOutcome {
  name: string;
  /** undefined: passed; a message: failed */
  error?: string;
  skipped?: boolean;
}

/** Run `task` over `items`, at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

/**
 * One area's attack suite: every route of `routes` gets its own tenants A and B and runs every case
 * securityCases generates for it, the routes SECURITY_CONCURRENCY (default 4) at a time (a route's
 * cases in order: some expect success first and then a refusal). One test per route reports its
 * failed cases; the number of combinations tried is printed.
 */
export function attackSuite(area: string, routes: readonly Route[]): void {
  const outcomes = new Map<string, CaseOutcome[]>();
  const key = (r: Route) => `${r.method} ${r.path}`;
  let seconds = 0;
  const concurrency = Number(process.env.SECURITY_CONCURRENCY) || 4;

  beforeAll(async () => {
    const started = Date.now();
    await pool(routes, concurrency, async (route) => {
      const out: CaseOutcome[] = [];
      outcomes.set(key(route), out);
      let tenants: { a: SecTenant; b: SecTenant };
      try {
        tenants = await securityTenants(route);
      } catch (e) {
        out.push({ name: 'tenants', error: (e as Error).message });
        return;
      }
      const later: { name: string; rest: () => Promise<void> }[] = [];
      const outcome = async (name: string, step: () => Promise<unknown>) => {
        try {
          const r = await step();
          if (typeof r === 'function') later.push({ name, rest: r as () => Promise<void> });
          else out.push({ name, skipped: r === NOT_APPLICABLE });
        } catch (e) {
          out.push({ name, error: (e as Error).message.slice(0, 2000) });
        }
      };
      for (const c of securityCases(route)) await outcome(c.name, () => c.run(route, tenants));
      for (const l of later) await outcome(l.name, l.rest);
    });
    seconds = Math.round((Date.now() - started) / 1000);
  }, 1_800_000);

  afterAll(() => {
    const all = [...outcomes.values()].flat().filter((o) => !o.skipped && o.name !== 'tenants');
    const failed = all.filter((o) => o.error).length;
    console.log(`security (${area}): ${all.length} combinations tried over ${routes.length} routes in ${seconds} s (${concurrency} routes at a time); ${failed} failed`);
  });

  test(`the ${area} table has protected routes`, () => expect(routes.length).toBeGreaterThan(0));

  test.each(routes.map((r) => [key(r)]))('%s', (name) => {
    const failures = (outcomes.get(name) ?? [{ name: 'not run', error: 'the route was not run' }]).filter((o) => o.error).map((o) => `${o.name}:\n  ${o.error}`);
    expect(failures).toEqual([]);
  });
}
