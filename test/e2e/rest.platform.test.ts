// Platform service REST paths end to end: REST bridge → gateway → platform subgraph → PostgreSQL.
// Platforms, accounts (capabilities from deployment_model), apps and API keys; every write is read
// back through another route.
import { createTenant, jsonApi, mintToken, rest, uniq, type Tenant } from '../harness/client.js';
import { createKey, expectServiceError } from '../harness/security.js';

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function adminHeaders(platformCode?: string) {
  const token = mintToken({ scopes: ['platform:admin', 'platform:manage', 'platform:read'] });
  return { authorization: `Bearer ${token}`, ...(platformCode ? { 'x-platform': platformCode } : {}) };
}

/** The documented capability table (README / capabilities.rules.ts), snake_case as REST shows it. */
const CAPABILITIES: Record<string, Record<string, boolean>> = {
  shared_cloud: {
    can_export_data: false,
    can_export_terraform: false,
    can_view_monitoring: false,
    can_instant_provision: true,
    has_dedicated_support: false,
    has_sla_guarantee: false,
    can_customize_infra: false,
    requires_vpn: false,
    data_residency_configurable: false,
  },
  dedicated_cloud: {
    can_export_data: true,
    can_export_terraform: true,
    can_view_monitoring: true,
    can_instant_provision: false,
    has_dedicated_support: true,
    has_sla_guarantee: true,
    can_customize_infra: true,
    requires_vpn: false,
    data_residency_configurable: true,
  },
  self_hosted: {
    can_export_data: true,
    can_export_terraform: true,
    can_view_monitoring: true,
    can_instant_provision: false,
    has_dedicated_support: true,
    has_sla_guarantee: false,
    can_customize_infra: true,
    requires_vpn: true,
    data_residency_configurable: true,
  },
  partner_cloud: {
    can_export_data: true,
    can_export_terraform: false,
    can_view_monitoring: true,
    can_instant_provision: false,
    has_dedicated_support: false,
    has_sla_guarantee: false,
    can_customize_infra: false,
    requires_vpn: false,
    data_residency_configurable: true,
  },
};

async function newPlatform(): Promise<{ code: string; headers: Record<string, string> }> {
  const code = uniq('p');
  const headers = adminHeaders(code);
  const r = await rest('POST', '/platforms', { body: jsonApi('platforms', { code, name: `Platform ${code}` }), headers });
  expect(r.status).toBe(201);
  return { code, headers };
}

describe('platforms', () => {
  test('POST /platforms → 201 with snake_case attributes; GET lists it and shows it by id and by code', async () => {
    const code = uniq('p');
    const suffix = uniq('');
    const headers = adminHeaders();
    const created = await rest('POST', '/platforms', {
      body: jsonApi('platforms', { code, name: `Acme ${suffix}`, email: 'ops@acme.example', settings: { themeColor: 'blue' }, metadata: { tier_name: 'gold' } }),
      headers,
    });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.type).toBe('platforms');
    expect(data.id).toMatch(/^plat_[A-Za-z0-9]{20}$/);
    expect(data.attributes).toMatchObject({
      unique_id: data.id,
      code,
      name: `Acme ${suffix}`,
      email: 'ops@acme.example',
      url_id: `acme-${suffix}`,
      status: 'active',
      enabled: true,
      schema_name: `tenant_${code}`,
      // free-form objects keep the client's keys
      settings: { themeColor: 'blue' },
      metadata: { tier_name: 'gold' },
    });
    expect(data.attributes.created_at).toMatch(ISO);
    for (const k of Object.keys(data.attributes)) expect(k).toMatch(SNAKE);

    const list = await rest('GET', '/platforms', { headers });
    expect(list.status).toBe(200);
    const listed = (list.body.data as any[]).find((p) => p.id === data.id);
    expect(listed).toEqual(data);

    const byId = await rest('GET', `/platforms/${data.id}`, { headers });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(data);
    const byCode = await rest('GET', `/platforms/${code}`, { headers });
    expect(byCode.status).toBe(200);
    expect(byCode.body.data.id).toBe(data.id);
  });

  test('unknown platform id → 404 platform_not_found; duplicate platform code → 409 code_already_exists', async () => {
    const { code, headers } = await newPlatform();
    expectServiceError(await rest('GET', '/platforms/plat_doesnotexist0000000', { headers }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    const dup = await rest('POST', '/platforms', { body: jsonApi('platforms', { code, name: 'Again' }), headers });
    expectServiceError(dup, 'platform', 409, 'CODE_ALREADY_EXISTS', { parameter: 'code' });
  });
  test('concurrent creates of one name (different codes) all succeed, each with its own url_id', async () => {
    const name = `Race ${uniq('')}`;
    const headers = adminHeaders();
    const results = await Promise.all(Array.from({ length: 6 }, () => rest('POST', '/platforms', { body: jsonApi('platforms', { code: uniq('p'), name }), headers })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const urlIds = results.map((r) => r.body.data.attributes.url_id as string);
    expect(new Set(urlIds).size).toBe(6);
  });
  test('settings that is not a JSON object → 422 naming settings (not 500)', async () => {
    const r = await rest('POST', '/platforms', { body: jsonApi('platforms', { code: uniq('p'), name: 'Bad settings', settings: 5 }), headers: adminHeaders() });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'settings' });
  });
});

describe('accounts', () => {
  test('POST /accounts → 201 with url_id generated and nine capabilities from deployment_model; client capabilities ignored', async () => {
    const { headers } = await newPlatform();
    const suffix = uniq('');
    const code = uniq('a');
    const created = await rest('POST', '/accounts', {
      body: jsonApi('accounts', {
        name: `Shop ${suffix}`,
        code,
        deployment_model: 'shared_cloud',
        // read-only: a client cannot grant itself capabilities
        capabilities: { can_export_data: true, has_sla_guarantee: true, requires_vpn: true },
      }),
      headers,
    });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.type).toBe('accounts');
    expect(data.id).toMatch(/^acct_[A-Za-z0-9]{20}$/);
    expect(data.attributes).toMatchObject({ unique_id: data.id, code, name: `Shop ${suffix}`, url_id: `shop-${suffix}`, status: 'active', deployment_model: 'shared_cloud' });
    expect(data.attributes.capabilities).toEqual(CAPABILITIES.shared_cloud);
    for (const k of Object.keys(data.attributes)) expect(k).toMatch(SNAKE);

    // read back: list and show by url_id
    const list = await rest('GET', '/accounts', { headers });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([data]);
    const shown = await rest('GET', `/accounts/${data.attributes.url_id}`, { headers });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(data);
  });

  test.each(Object.keys(CAPABILITIES))('deployment_model %s → its capability row', async (model) => {
    const { headers } = await newPlatform();
    const r = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'Acct', code: uniq('a'), deployment_model: model }), headers });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes.deployment_model).toBe(model);
    expect(r.body.data.attributes.capabilities).toEqual(CAPABILITIES[model]);
    const shown = await rest('GET', `/accounts/${r.body.data.attributes.url_id}`, { headers });
    expect(shown.body.data.attributes.capabilities).toEqual(CAPABILITIES[model]);
  });

  test('duplicate account code → 409 {error: code_already_exists, message, status: 409}', async () => {
    const { headers } = await newPlatform();
    const code = uniq('a');
    expect((await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'First', code }), headers })).status).toBe(201);
    const dup = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'Second', code }), headers });
    expectServiceError(dup, 'platform', 409, 'CODE_ALREADY_EXISTS');
    expect(dup.body).toMatchObject({ error: 'code_already_exists', status: 409, message: expect.stringContaining(code) });
    // nothing was written by the refused call
    const list = await rest('GET', '/accounts', { headers });
    expect((list.body.data as any[]).map((a) => a.attributes.name)).toEqual(['First']);
  });

  test('concurrent creates of one name (different codes) all succeed, each with its own url_id', async () => {
    const { headers } = await newPlatform();
    const name = `Race ${uniq('')}`;
    const results = await Promise.all(Array.from({ length: 6 }, () => rest('POST', '/accounts', { body: jsonApi('accounts', { name, code: uniq('a') }), headers })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.body.data.attributes.url_id)).size).toBe(6);
  });
  test('invalid deployment_model → 422 naming the parameter', async () => {
    const { headers } = await newPlatform();
    const r = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'Bad', code: uniq('a'), deployment_model: 'on_the_moon' }), headers });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'deployment_model' });
    expect(r.body.message).toContain('deployment_model');
  });

  test('unknown url_id → 404 account_not_found', async () => {
    const { headers } = await newPlatform();
    expectServiceError(await rest('GET', '/accounts/no-such-account', { headers }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
  });
});

describe('apps', () => {
  test('POST /accounts/:url_id/apps → 201; GET lists it', async () => {
    const t = await createTenant();
    const created = await rest('POST', `/accounts/${t.accountUrlId}/apps`, {
      body: jsonApi('apps', { name: 'Mobile', description: 'iOS client', app_type: 'mobile', purpose: 'development', allowed_origins: ['https://app.example.com'] }),
      headers: t.platformHeaders,
    });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.type).toBe('apps');
    expect(data.id).toMatch(/^app_[A-Za-z0-9]{20}$/);
    expect(data.attributes).toMatchObject({
      unique_id: data.id,
      name: 'Mobile',
      description: 'iOS client',
      app_type: 'mobile',
      purpose: 'development',
      status: 'active',
      oauth_enabled: false,
      rate_limit_per_minute: 1000,
      allowed_origins: ['https://app.example.com'],
      domain_verified: false,
    });
    for (const k of Object.keys(data.attributes)) expect(k).toMatch(SNAKE);

    const list = await rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders });
    expect(list.status).toBe(200);
    expect((list.body.data as any[]).map((a) => a.id)).toEqual([t.appId, data.id]);
    expect((list.body.data as any[])[1]).toEqual(data);
  });

  test('invalid app_type → 422 naming app_type', async () => {
    const t = await createTenant();
    const r = await rest('POST', `/accounts/${t.accountUrlId}/apps`, { body: jsonApi('apps', { name: 'X', app_type: 'toaster' }), headers: t.platformHeaders });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'app_type' });
  });
});

describe('api keys', () => {
  const keysPath = (t: Tenant) => `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`;

  test('create: full key_id only in the create response; the list shows it masked and never in full', async () => {
    const t = await createTenant({ deploymentModel: 'shared_cloud' });
    const created = await rest('POST', keysPath(t), { body: jsonApi('api_keys', { name: 'server', key_type: 'secret' }), headers: t.platformHeaders });
    expect(created.status).toBe(201);
    const data = created.body.data;
    const full = data.attributes.key_id as string;
    expect(data.type).toBe('api_keys');
    expect(full).toMatch(/^sk_live_(sh|ent|byok)_[A-Za-z0-9]+$/);
    expect(full).toMatch(/^sk_live_sh_/); // shared_cloud → sh tier
    expect(data.attributes).toMatchObject({ unique_id: data.id, name: 'server', key_type: 'secret', environment: 'live', usage_count: 0 });
    expect(data.attributes.scopes).toEqual(['products:read', 'products:write', 'search:read', 'search:write', 'ai:read', 'ai:write']);

    const list = await rest('GET', keysPath(t), { headers: t.platformHeaders });
    expect(list.status).toBe(200);
    const listed = (list.body.data as any[]).find((k) => k.id === data.id);
    expect(listed).toBeDefined();
    expect(listed.attributes.key_id).not.toBe(full);
    expect(listed.attributes.key_id).toMatch(/^sk_live_sh_/);
    expect(listed.attributes.key_id.endsWith(full.slice(-4))).toBe(true);
    expect(listed.attributes.key_id.length).toBeLessThan(full.length);
    // the full value appears nowhere in the list (nor do the two harness keys)
    const text = JSON.stringify(list.body);
    for (const secret of [full, t.secretKey, t.publishableKey]) expect(text).not.toContain(secret);
    expect(list.body.data).toHaveLength(3);

    // and the full value works as a key
    const products = await rest('GET', '/v1/products', { headers: { 'x-app-id': t.appId, 'x-api-key': full } });
    expect(products.status).toBe(200);
  });

  test('key tiers follow the deployment model (dedicated_cloud → ent, partner_cloud → byok)', async () => {
    const ent = await createTenant({ deploymentModel: 'dedicated_cloud' });
    expect(ent.secretKey).toMatch(/^sk_live_ent_[A-Za-z0-9]+$/);
    expect(ent.publishableKey).toMatch(/^pk_live_ent_[A-Za-z0-9]+$/);
    const byok = await createTenant({ deploymentModel: 'partner_cloud' });
    expect(byok.secretKey).toMatch(/^sk_live_byok_[A-Za-z0-9]+$/);
  });

  test('a publishable key gets only the :read scopes by default, and cannot write', async () => {
    const t = await createTenant();
    const r = await rest('POST', keysPath(t), { body: jsonApi('api_keys', { name: 'browser', key_type: 'publishable' }), headers: t.platformHeaders });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes.key_id).toMatch(/^pk_live_ent_/);
    expect(r.body.data.attributes.scopes).toEqual(['products:read', 'search:read', 'ai:read']);
    const pk = { 'x-app-id': t.appId, 'x-api-key': r.body.data.attributes.key_id };
    expectServiceError(await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'No', sku: uniq('S') }), headers: pk }), 'products', 403, 'INSUFFICIENT_SCOPE');
    expect((await rest('GET', '/v1/products', { headers: pk })).status).toBe(200);
    // asking for a write scope on a publishable key is refused
    const w = await rest('POST', keysPath(t), { body: jsonApi('api_keys', { name: 'bad', key_type: 'publishable', scopes: ['products:write'] }), headers: t.platformHeaders });
    expectServiceError(w, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'scopes' });
  });

  test('unknown scope → 422 naming scopes', async () => {
    const t = await createTenant();
    const r = await rest('POST', keysPath(t), { body: jsonApi('api_keys', { name: 'x', key_type: 'secret', scopes: ['products:read', 'products:delete'] }), headers: t.platformHeaders });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'scopes' });
    expect(r.body.message).toContain('products:delete');
  });

  test('environment: test on a shared_cloud account → 422 naming environment', async () => {
    const t = await createTenant({ deploymentModel: 'shared_cloud' });
    const r = await rest('POST', keysPath(t), { body: jsonApi('api_keys', { name: 'staging', key_type: 'secret', environment: 'test' }), headers: t.platformHeaders });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'environment' });
    // no key was written
    const list = await rest('GET', keysPath(t), { headers: t.platformHeaders });
    expect((list.body.data as any[]).map((k) => k.attributes.name).sort()).toEqual(['publishable', 'secret']);
  });

  test('expires_at that is not a date-time → 422 naming expires_at (not 500)', async () => {
    const t = await createTenant();
    const r = await rest('POST', keysPath(t), { body: jsonApi('api_keys', { name: 'x', key_type: 'secret', expires_at: 'not-a-date' }), headers: t.platformHeaders });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'expires_at' });
  });

  test('expires_at in the past → 422 naming expires_at', async () => {
    const t = await createTenant();
    const r = await rest('POST', keysPath(t), { body: jsonApi('api_keys', { name: 'x', key_type: 'secret', expires_at: '2001-01-01T00:00:00Z' }), headers: t.platformHeaders });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'expires_at' });
  });

  test('test keys work on dedicated_cloud, and the environment partitions the data of one app', async () => {
    const t = await createTenant({ deploymentModel: 'dedicated_cloud' });
    const { key: testKey, res } = await createKey(t, { environment: 'test', name: 'staging' });
    expect(testKey).toMatch(/^sk_test_ent_[A-Za-z0-9]+$/);
    expect(res.body.data.attributes.environment).toBe('test');
    const testHeaders = { 'x-app-id': t.appId, 'x-api-key': testKey };
    const liveHeaders = t.keyHeaders;

    const created = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Staging only', sku: 'SHARED-SKU' }), headers: testHeaders });
    expect(created.status).toBe(201);
    const id = created.body.data.id;

    expect((await rest('GET', `/v1/products/${id}`, { headers: testHeaders })).body.data.id).toBe(id);
    expectServiceError(await rest('GET', `/v1/products/${id}`, { headers: liveHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    const liveList = await rest('GET', '/v1/products', { headers: liveHeaders });
    expect(liveList.status).toBe(200);
    expect(liveList.body.meta.total).toBe(0);
    expect(liveList.body.data).toEqual([]);
    const testList = await rest('GET', '/v1/products', { headers: testHeaders });
    expect(testList.body.data.map((p: any) => p.id)).toEqual([id]);

    // the same SKU is free in the live partition
    const live = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Production', sku: 'SHARED-SKU' }), headers: liveHeaders });
    expect(live.status).toBe(201);
    expect(live.body.data.id).not.toBe(id);
  });

  test('create for an app of another account of the same platform → 404 app_not_found', async () => {
    const t = await createTenant();
    const other = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'Other', code: uniq('a') }), headers: t.platformHeaders });
    expect(other.status).toBe(201);
    const r = await rest('POST', `/accounts/${other.body.data.attributes.url_id}/apps/${t.appId}/api_keys`, {
      body: jsonApi('api_keys', { name: 'x', key_type: 'secret' }),
      headers: t.platformHeaders,
    });
    expectServiceError(r, 'platform', 404, 'APP_NOT_FOUND');
  });
});
