// Platforms and accounts end to end: full CRUD on both path families (/accounts with X-Platform,
// /platforms/:pid/accounts), soft delete and restore, the operators' global list, uniqueness of
// code and url_id, capabilities recomputed on a deployment-model change, and who reaches what.
import { createTenant, jsonApi, mintToken, rest, uniq } from '../harness/client.js';
import { createKey, expectServiceError } from '../harness/security.js';

const ALL = ['platform:admin', 'platform:manage', 'platform:read'];

async function newPlatform(): Promise<{ id: string; code: string; headers: Record<string, string> }> {
  const code = uniq('p');
  const headers = { authorization: `Bearer ${mintToken({ scopes: ALL })}`, 'x-platform': code };
  const r = await rest('POST', '/platforms', { body: jsonApi('platforms', { code, name: `Platform ${code}` }), headers });
  expect(r.status).toBe(201);
  return { id: r.body.data.id, code, headers };
}

async function newAccount(headers: Record<string, string>, attrs: Record<string, unknown> = {}) {
  const r = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: `Acct ${uniq('')}`, code: uniq('a'), ...attrs }), headers });
  expect(r.status).toBe(201);
  return r.body.data;
}

describe('platforms: update, delete, restore', () => {
  test('PUT changes the given attributes only; code is immutable; url_id must be free', async () => {
    const p = await newPlatform();
    const r = await rest('PUT', `/platforms/${p.id}`, { body: jsonApi('platforms', { name: 'Renamed', status: 'suspended', settings: { a: 1 } }), headers: p.headers });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ name: 'Renamed', status: 'suspended', code: p.code, enabled: true, settings: { a: 1 } });
    const shown = await rest('GET', `/platforms/${p.code}`, { headers: p.headers });
    expect(shown.body.data.attributes).toMatchObject({ name: 'Renamed', status: 'suspended' });

    expectServiceError(await rest('PUT', `/platforms/${p.id}`, { body: jsonApi('platforms', { code: uniq('p') }), headers: p.headers }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'code' });
    expectServiceError(await rest('PUT', `/platforms/${p.id}`, { body: jsonApi('platforms', { status: 'sleeping' }), headers: p.headers }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'status' });
    const other = await newPlatform();
    const taken = await rest('GET', `/platforms/${other.id}`, { headers: other.headers });
    const clash = await rest('PUT', `/platforms/${p.id}`, { body: jsonApi('platforms', { url_id: taken.body.data.attributes.url_id }), headers: p.headers });
    expectServiceError(clash, 'platform', 409, 'URL_ID_ALREADY_EXISTS', { parameter: 'url_id' });
  });

  test('DELETE is refused while live accounts exist (409 platform_not_empty); an empty platform is soft-deleted and restorable', async () => {
    const p = await newPlatform();
    const acct = await newAccount(p.headers);
    expectServiceError(await rest('DELETE', `/platforms/${p.id}`, { headers: p.headers }), 'platform', 409, 'PLATFORM_NOT_EMPTY');
    expect((await rest('DELETE', `/accounts/${acct.attributes.url_id}`, { headers: p.headers })).status).toBe(200);

    const del = await rest('DELETE', `/platforms/${p.id}`, { headers: p.headers });
    expect(del.status).toBe(200);
    expect(del.body.data.attributes.deleted_at).toEqual(expect.any(String));
    // gone: show, list, and X-Platform lookups
    expectServiceError(await rest('GET', `/platforms/${p.id}`, { headers: p.headers }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    const list = await rest('GET', '/platforms', { headers: p.headers });
    expect((list.body.data as any[]).some((x) => x.id === p.id)).toBe(false);
    expectServiceError(await rest('GET', '/accounts', { headers: p.headers }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    // the code stays reserved
    expectServiceError(await rest('POST', '/platforms', { body: jsonApi('platforms', { code: p.code, name: 'Again' }), headers: p.headers }), 'platform', 409, 'CODE_ALREADY_EXISTS');

    const restored = await rest('POST', `/platforms/${p.id}/restore`, { headers: p.headers });
    expect(restored.status).toBe(200);
    expect(restored.body.data.attributes.deleted_at).toBeNull();
    expect((await rest('GET', '/accounts', { headers: p.headers })).status).toBe(200);
  });

  test('a token bound to its platform cannot delete it (403), and another platform is a 404', async () => {
    const p = await newPlatform();
    const other = await newPlatform();
    const bound = { authorization: `Bearer ${mintToken({ scopes: ALL, platform: p.code })}`, 'x-platform': p.code };
    expectServiceError(await rest('DELETE', `/platforms/${p.id}`, { headers: bound }), 'platform', 403, 'FORBIDDEN');
    expectServiceError(await rest('DELETE', `/platforms/${other.id}`, { headers: bound }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    expectServiceError(await rest('PUT', `/platforms/${other.id}`, { body: jsonApi('platforms', { name: 'x' }), headers: bound }), 'platform', 404, 'PLATFORM_NOT_FOUND');
  });

  test('keys stop working while their platform is not active, and work again once it is', async () => {
    const t = await createTenant();
    const admin = { authorization: `Bearer ${t.adminToken}` };
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);
    expect((await rest('PUT', `/platforms/${t.platformCode}`, { body: jsonApi('platforms', { enabled: false }), headers: admin })).status).toBe(200);
    expectServiceError(await rest('GET', '/v1/products', { headers: t.keyHeaders }), 'products', 403, 'FORBIDDEN');
    expect((await rest('PUT', `/platforms/${t.platformCode}`, { body: jsonApi('platforms', { enabled: true }), headers: admin })).status).toBe(200);
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);
  });
});

describe('accounts: update, soft delete, restore', () => {
  test('PUT: capabilities follow the new deployment_model; client capabilities are ignored', async () => {
    const p = await newPlatform();
    const a = await newAccount(p.headers, { deployment_model: 'shared_cloud' });
    expect(a.attributes.capabilities.has_sla_guarantee).toBe(false);
    const r = await rest('PUT', `/accounts/${a.attributes.url_id}`, {
      body: jsonApi('accounts', { deployment_model: 'dedicated_cloud', capabilities: { requires_vpn: true }, preferred_language: 'pt-BR' }),
      headers: p.headers,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ deployment_model: 'dedicated_cloud', preferred_language: 'pt-BR', name: a.attributes.name, code: a.attributes.code });
    expect(r.body.data.attributes.capabilities).toMatchObject({ has_sla_guarantee: true, requires_vpn: false, can_instant_provision: false });
    const shown = await rest('GET', `/accounts/${a.id}`, { headers: p.headers }); // by unique_id too
    expect(shown.body.data.attributes.capabilities).toEqual(r.body.data.attributes.capabilities);
  });

  test('PUT: code and url_id stay unique per platform (409 naming the parameter); status is validated', async () => {
    const p = await newPlatform();
    const a = await newAccount(p.headers);
    const b = await newAccount(p.headers);
    const path = `/accounts/${b.attributes.url_id}`;
    expectServiceError(await rest('PUT', path, { body: jsonApi('accounts', { code: a.attributes.code }), headers: p.headers }), 'platform', 409, 'CODE_ALREADY_EXISTS', { parameter: 'code' });
    expectServiceError(await rest('PUT', path, { body: jsonApi('accounts', { url_id: a.attributes.url_id }), headers: p.headers }), 'platform', 409, 'URL_ID_ALREADY_EXISTS', { parameter: 'url_id' });
    expectServiceError(await rest('PUT', path, { body: jsonApi('accounts', { url_id: 'Not A Slug' }), headers: p.headers }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'url_id' });
    expectServiceError(await rest('PUT', path, { body: jsonApi('accounts', { status: 'asleep' }), headers: p.headers }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'status' });
    const moved = await rest('PUT', path, { body: jsonApi('accounts', { url_id: 'new-home', status: 'suspended' }), headers: p.headers });
    expect(moved.status).toBe(200);
    expect(moved.body.data.attributes).toMatchObject({ url_id: 'new-home', status: 'suspended' });
    expect((await rest('GET', '/accounts/new-home', { headers: p.headers })).body.data.id).toBe(b.id);
    expectServiceError(await rest('GET', path, { headers: p.headers }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    // the same code in another platform is fine
    const q = await newPlatform();
    expect((await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'Twin', code: a.attributes.code }), headers: q.headers })).status).toBe(201);
  });

  test('moving to shared_cloud is refused while test keys are active (409), allowed once they are revoked', async () => {
    const t = await createTenant({ deploymentModel: 'dedicated_cloud' });
    const { res } = await createKey(t, { environment: 'test', name: 'staging' });
    const path = `/accounts/${t.accountUrlId}`;
    const refused = await rest('PUT', path, { body: jsonApi('accounts', { deployment_model: 'shared_cloud' }), headers: t.platformHeaders });
    expectServiceError(refused, 'platform', 409, 'DEPLOYMENT_MODEL_CONFLICT', { parameter: 'deployment_model' });
    expect(refused.body.message).toContain('test key');
    const keyPath = `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys/${res.body.data.id}`;
    expect((await rest('DELETE', keyPath, { headers: t.platformHeaders })).status).toBe(200);
    const ok = await rest('PUT', path, { body: jsonApi('accounts', { deployment_model: 'shared_cloud' }), headers: t.platformHeaders });
    expect(ok.status).toBe(200);
    expect(ok.body.data.attributes.capabilities.can_instant_provision).toBe(true);
  });

  test('DELETE is a soft delete: gone from list and lookups, its keys stop working; restore brings all back', async () => {
    const t = await createTenant();
    const ph = t.platformHeaders;
    const url = `/accounts/${t.accountUrlId}`;
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);

    const del = await rest('DELETE', url, { headers: ph });
    expect(del.status).toBe(200);
    expect(del.body.data.attributes.deleted_at).toEqual(expect.any(String));
    expectServiceError(await rest('GET', url, { headers: ph }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    expectServiceError(await rest('GET', `${url}/apps`, { headers: ph }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    expectServiceError(await rest('DELETE', url, { headers: ph }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    expect((await rest('GET', '/accounts', { headers: ph })).body.data).toEqual([]);
    expectServiceError(await rest('GET', '/v1/products', { headers: t.keyHeaders }), 'products', 403, 'FORBIDDEN');
    // kept in the database: the operators' list shows it with include_deleted
    const global = await rest('GET', '/global/accounts?include_deleted=true&page[size]=200', { headers: ph });
    expect((global.body.data as any[]).some((a) => a.attributes.url_id === t.accountUrlId)).toBe(true);
    // code and url_id stay reserved
    const dup = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'x', code: del.body.data.attributes.code }), headers: ph });
    expectServiceError(dup, 'platform', 409, 'CODE_ALREADY_EXISTS');

    // restore needs platform:admin
    const manager = { authorization: `Bearer ${mintToken({ scopes: ['platform:manage', 'platform:read'] })}`, 'x-platform': t.platformCode };
    expectServiceError(await rest('POST', `${url}/restore`, { headers: manager }), 'platform', 403, 'INSUFFICIENT_SCOPE');
    const restored = await rest('POST', `${url}/restore`, { headers: ph });
    expect(restored.status).toBe(200);
    expect(restored.body.data.attributes.deleted_at).toBeNull();
    expect((await rest('GET', url, { headers: ph })).status).toBe(200);
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);
    expectServiceError(await rest('POST', '/accounts/never-existed/restore', { headers: ph }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
  });

  test('GET /accounts is paged: page[number], page[size] and meta {total, page, per_page}; bad sizes are 400', async () => {
    const p = await newPlatform();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await newAccount(p.headers));
    const first = await rest('GET', '/accounts?page[size]=2', { headers: p.headers });
    expect(first.body.meta).toEqual({ total: 3, page: 1, per_page: 2 });
    expect(first.body.data.map((a: any) => a.id)).toEqual([made[0].id, made[1].id]);
    const second = await rest('GET', '/accounts?page[size]=2&page[number]=2', { headers: p.headers });
    expect(second.body.data.map((a: any) => a.id)).toEqual([made[2].id]);
    expectServiceError(await rest('GET', '/accounts?page[size]=201', { headers: p.headers }), 'platform', 400, 'BAD_REQUEST', { parameter: 'page[size]' });
  });
});

describe('/platforms/:pid/accounts', () => {
  test('full CRUD through the platform path, by the platform id, url_id or code', async () => {
    const p = await newPlatform();
    const base = `/platforms/${p.id}/accounts`;
    const created = await rest('POST', base, { body: jsonApi('accounts', { name: 'Via path', code: uniq('a'), deployment_model: 'self_hosted' }), headers: p.headers });
    expect(created.status).toBe(201);
    const a = created.body.data;
    expect(a.attributes.capabilities.requires_vpn).toBe(true);
    const list = await rest('GET', `/platforms/${p.code}/accounts`, { headers: p.headers });
    expect(list.body.data.map((x: any) => x.id)).toEqual([a.id]);
    expect(list.body.meta.total).toBe(1);
    expect((await rest('GET', `${base}/${a.attributes.url_id}`, { headers: p.headers })).body.data).toEqual(a);
    expect((await rest('GET', `${base}/${a.id}`, { headers: p.headers })).body.data.id).toBe(a.id);
    const upd = await rest('PUT', `${base}/${a.id}`, { body: jsonApi('accounts', { name: 'Renamed' }), headers: p.headers });
    expect(upd.body.data.attributes.name).toBe('Renamed');
    expect((await rest('DELETE', `${base}/${a.id}`, { headers: p.headers })).status).toBe(200);
    expectServiceError(await rest('GET', `${base}/${a.id}`, { headers: p.headers }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    expect((await rest('GET', base, { headers: p.headers })).body.data).toEqual([]);
  });

  test('an operator of both platforms may name either in the path; an operator of one only that one (404 otherwise)', async () => {
    const p = await newPlatform();
    const q = await newPlatform();
    const a = await newAccount(q.headers);
    // the operator of both: X-Platform says p, the path names q
    const op = await rest('GET', `/platforms/${q.code}/accounts/${a.attributes.url_id}`, { headers: p.headers });
    expect(op.body.data.id).toBe(a.id);
    // a manager operates q only (docs/security.md, "Platform operators"): p is 404 whatever X-Platform says
    const managerSub = uniq('manager_');
    const added = await rest('POST', `/platforms/${q.code}/operators`, { body: jsonApi('platform_operators', { user_id: managerSub, scopes: ['platform:manage', 'platform:read'] }), headers: q.headers });
    expect(added.status).toBe(201);
    const manager = (code: string) => ({ authorization: `Bearer ${mintToken({ sub: managerSub, scopes: ['platform:manage', 'platform:read'] })}`, 'x-platform': code });
    expectServiceError(await rest('GET', `/platforms/${p.code}/accounts`, { headers: manager(q.code) }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    expectServiceError(await rest('POST', `/platforms/${p.code}/accounts`, { body: jsonApi('accounts', { name: 'x', code: uniq('a') }), headers: manager(q.code) }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    expectServiceError(await rest('GET', `/platforms/${p.code}/accounts`, { headers: manager(p.code) }), 'platform', 404, 'PLATFORM_NOT_FOUND');
    expect((await rest('GET', `/platforms/${q.code}/accounts`, { headers: manager(q.code) })).body.data.map((x: any) => x.id)).toEqual([a.id]);
    expect((await rest('GET', `/platforms/${q.code}/accounts`, { headers: manager(p.code) })).body.data.map((x: any) => x.id)).toEqual([a.id]);
    // an account of p is not reachable under q's path
    const mine = await newAccount(p.headers);
    expectServiceError(await rest('GET', `/platforms/${q.code}/accounts/${mine.attributes.url_id}`, { headers: p.headers }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
  });
});

describe('/global/accounts', () => {
  test('accounts of every platform, newest first, with their platform; platform:admin only; a bound token sees its own', async () => {
    const p = await newPlatform();
    const q = await newPlatform();
    const a = await newAccount(p.headers);
    const b = await newAccount(q.headers);
    const r = await rest('GET', '/global/accounts?page[size]=200', { headers: p.headers });
    expect(r.status).toBe(200);
    const ids = (r.body.data as any[]).map((x) => x.id);
    expect(ids.indexOf(b.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id)); // newest first
    expect((r.body.data as any[]).find((x) => x.id === b.id).attributes.platform).toMatchObject({ code: q.code });
    expect(r.body.meta).toMatchObject({ page: 1, per_page: 200, total: expect.any(Number) });

    const bound = { authorization: `Bearer ${mintToken({ scopes: ALL, platform: p.code })}`, 'x-platform': p.code };
    const own = await rest('GET', '/global/accounts', { headers: bound });
    expect((own.body.data as any[]).map((x) => x.id)).toEqual([a.id]);
    const reader = { authorization: `Bearer ${mintToken({ scopes: ['platform:manage', 'platform:read'] })}`, 'x-platform': p.code };
    expectServiceError(await rest('GET', '/global/accounts', { headers: reader }), 'platform', 403, 'INSUFFICIENT_SCOPE');
    expectServiceError(await rest('GET', '/global/accounts?include_deleted=maybe', { headers: p.headers }), 'platform', 400, 'BAD_REQUEST', { parameter: 'include_deleted' });
  });
});

describe('apps: update and delete', () => {
  test('PUT validates app_type, purpose and status; suspending an app stops its keys at once', async () => {
    const t = await createTenant();
    const path = `/accounts/${t.accountUrlId}/apps/${t.appId}`;
    for (const [attr, bad] of [['app_type', 'toaster'], ['purpose', 'fun'], ['status', 'paused']] as const) {
      expectServiceError(await rest('PUT', path, { body: jsonApi('apps', { [attr]: bad }), headers: t.platformHeaders }), 'platform', 422, 'VALIDATION_FAILED', { parameter: attr });
    }
    const r = await rest('PUT', path, { body: jsonApi('apps', { name: 'Renamed', app_type: 'backend', purpose: 'internal', rate_limit_per_minute: 50 }), headers: t.platformHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ name: 'Renamed', app_type: 'backend', purpose: 'internal', rate_limit_per_minute: 50, status: 'active' });

    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);
    expect((await rest('PUT', path, { body: jsonApi('apps', { status: 'suspended' }), headers: t.platformHeaders })).status).toBe(200);
    expectServiceError(await rest('GET', '/v1/products', { headers: t.keyHeaders }), 'products', 403, 'FORBIDDEN');
    expect((await rest('PUT', path, { body: jsonApi('apps', { status: 'active' }), headers: t.platformHeaders })).status).toBe(200);
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);
  });

  test('DELETE removes the app from the list and lookups, and its keys stop working at once', async () => {
    const t = await createTenant();
    const path = `/accounts/${t.accountUrlId}/apps/${t.appId}`;
    expect((await rest('GET', '/v1/products', { headers: t.keyHeaders })).status).toBe(200);
    const del = await rest('DELETE', path, { headers: t.platformHeaders });
    expect(del.status).toBe(200);
    expect(del.body.data.attributes.deleted_at).toEqual(expect.any(String));
    expect((await rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders })).body.data).toEqual([]);
    expectServiceError(await rest('PUT', path, { body: jsonApi('apps', { name: 'x' }), headers: t.platformHeaders }), 'platform', 404, 'APP_NOT_FOUND');
    expectServiceError(await rest('GET', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, { headers: t.platformHeaders }), 'platform', 404, 'APP_NOT_FOUND');
    expectServiceError(await rest('GET', '/v1/products', { headers: t.keyHeaders }), 'products', 401, 'KEY_NOT_FOUND');
  });
});
