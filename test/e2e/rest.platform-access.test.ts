// User access end to end: grants on accounts and apps, the state machine move by move over REST,
// what /users/:user_id/apps|accounts|accesses show, idempotent and concurrent grants, tenancy.
import { createTenant, gql, jsonApi, mintToken, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

const grant = (t: Tenant, attributes: Record<string, unknown>, headers = t.platformHeaders) =>
  rest('POST', '/user_accesses', { body: jsonApi('user_accesses', attributes), headers });
const move = (t: Tenant, id: string, action: 'revoke' | 'suspend' | 'reactivate', headers = t.platformHeaders) =>
  rest('POST', `/user_accesses/${id}/${action}`, { headers });
const userList = (t: Tenant, user: string, what: 'apps' | 'accounts' | 'accesses', query = '') =>
  rest('GET', `/users/${encodeURIComponent(user)}/${what}${query}`, { headers: t.platformHeaders });

async function newApp(t: Tenant, accountUrlId = t.accountUrlId, name = uniq('App ')): Promise<string> {
  const r = await rest('POST', `/accounts/${accountUrlId}/apps`, { body: jsonApi('apps', { name }), headers: t.platformHeaders });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

async function newAccount(t: Tenant): Promise<{ urlId: string; id: string }> {
  const r = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: uniq('Account '), code: uniq('c') }), headers: t.platformHeaders });
  expect(r.status).toBe(201);
  return { urlId: r.body.data.attributes.url_id, id: r.body.data.id };
}

describe('POST /user_accesses', () => {
  test('an account grant → 201 with the record (role member by default); the same grant again → 200, same record', async () => {
    const admin = uniq('admin_');
    const t = await createTenant({ operator: admin }); // admin operates the platform (docs/security.md)
    const user = uniq('user_');
    const headers = { ...t.platformHeaders, authorization: `Bearer ${mintToken({ sub: admin })}` };
    const r = await grant(t, { user_id: user, account_id: t.accountUrlId }, headers);
    expect(r.status).toBe(201);
    expect(r.body.meta).toEqual({ created: true });
    expect(r.body.data).toMatchObject({ type: 'user_accesses', id: expect.stringMatching(/^uac_[0-9A-Za-z]{20}$/) });
    expect(r.body.data.attributes).toEqual({
      user_id: user,
      target_type: 'account',
      target_id: expect.stringMatching(/^acct_/),
      account_id: expect.stringMatching(/^acct_/),
      account_url_id: t.accountUrlId,
      app_id: null,
      role: 'member',
      status: 'active',
      granted_by: admin,
      suspended_at: null,
      revoked_at: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    // account_id also takes the unique_id
    const again = await grant(t, { user_id: user, account_id: r.body.data.attributes.account_id, role: 'member' });
    expect(again.status).toBe(200);
    expect(again.body.meta).toEqual({ created: false });
    expect(again.body.data.id).toBe(r.body.data.id);
  });

  test('an app grant names the app and its account', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const r = await grant(t, { user_id: user, app_id: t.appId, role: 'admin' });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toMatchObject({ target_type: 'app', target_id: t.appId, app_id: t.appId, account_url_id: t.accountUrlId, role: 'admin' });
    // with its own account too
    const same = await grant(t, { user_id: user, app_id: t.appId, account_id: t.accountUrlId, role: 'admin' });
    expect(same.status).toBe(200);
  });

  test('another role for a live grant → 409 access_already_exists; a suspended grant → 409 too', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const first = await grant(t, { user_id: user, account_id: t.accountUrlId, role: 'viewer' });
    const other = await grant(t, { user_id: user, account_id: t.accountUrlId, role: 'owner' });
    const err = expectServiceError(other, 'platform', 409, 'ACCESS_ALREADY_EXISTS', { parameter: 'role' });
    expect(err.message).toContain('viewer');
    await move(t, first.body.data.id, 'suspend');
    const suspended = await grant(t, { user_id: user, account_id: t.accountUrlId, role: 'viewer' });
    expect(expectServiceError(suspended, 'platform', 409, 'ACCESS_ALREADY_EXISTS').message).toContain('suspended');
  });

  test('after a revoke, granting again creates a new record; the old one stays in the history', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const first = await grant(t, { user_id: user, account_id: t.accountUrlId });
    await move(t, first.body.data.id, 'revoke');
    const second = await grant(t, { user_id: user, account_id: t.accountUrlId, role: 'admin' });
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    const all = await userList(t, user, 'accesses');
    expect(all.body.data.map((a: any) => [a.id, a.attributes.status])).toEqual([
      [first.body.data.id, 'revoked'],
      [second.body.data.id, 'active'],
    ]);
  });

  test('bad input → 422 naming the parameter; unknown targets → 404', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    expectServiceError(await grant(t, { account_id: t.accountUrlId }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'user_id' });
    expectServiceError(await grant(t, { user_id: ' ', account_id: t.accountUrlId }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'user_id' });
    expectServiceError(await grant(t, { user_id: 'x'.repeat(201), account_id: t.accountUrlId }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'user_id' });
    expectServiceError(await grant(t, { user_id: user }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'account_id' });
    expectServiceError(await grant(t, { user_id: user, account_id: t.accountUrlId, role: 'god' }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'role' });
    expectServiceError(await grant(t, { user_id: 42, account_id: t.accountUrlId }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'user_id' });
    expectServiceError(await grant(t, { user_id: user, account_id: 'no-such-account' }), 'platform', 404, 'ACCOUNT_NOT_FOUND', { parameter: 'account_id' });
    expectServiceError(await grant(t, { user_id: user, app_id: 'app_nope' }), 'platform', 404, 'APP_NOT_FOUND', { parameter: 'app_id' });
    // an app of another account than the one named
    const other = await newAccount(t);
    expectServiceError(await grant(t, { user_id: user, app_id: t.appId, account_id: other.urlId }), 'platform', 404, 'APP_NOT_FOUND', { parameter: 'app_id' });
  });

  test('10 concurrent grants of the same access → ONE record: one 201, nine 200, one id', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const results = await Promise.all(Array.from({ length: 10 }, () => grant(t, { user_id: user, account_id: t.accountUrlId, role: 'admin' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect((await userList(t, user, 'accesses')).body.data).toHaveLength(1);
  });

  test('concurrent grants of one app with different roles → one record, the others 409', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const roles = ['owner', 'admin', 'member', 'viewer', 'admin', 'viewer'];
    const results = await Promise.all(roles.map((role) => grant(t, { user_id: user, app_id: t.appId, role })));
    const won = results.find((r) => r.status === 201)!;
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results) {
      if (r.status === 409) expectServiceError(r, 'platform', 409, 'ACCESS_ALREADY_EXISTS');
      else expect(r.body.data.id).toBe(won.body.data.id);
    }
    expect((await userList(t, user, 'accesses')).body.data).toHaveLength(1);
  });
});

describe('the state machine, move by move', () => {
  test('active → suspend → reactivate → suspend → revoke; every illegal move → 409 invalid_state_transition', async () => {
    const t = await createTenant();
    const id = (await grant(t, { user_id: uniq('user_'), account_id: t.accountUrlId })).body.data.id;
    const illegal = async (action: 'revoke' | 'suspend' | 'reactivate', from: string) => {
      const r = await move(t, id, action);
      expect(expectServiceError(r, 'platform', 409, 'INVALID_STATE_TRANSITION').message).toContain(from);
    };

    await illegal('reactivate', 'active');
    const s = await move(t, id, 'suspend');
    expect(s.status).toBe(200);
    expect(s.body.data.attributes).toMatchObject({ status: 'suspended', suspended_at: expect.stringMatching(ISO), revoked_at: null });
    await illegal('suspend', 'suspended');
    const a = await move(t, id, 'reactivate');
    expect(a.body.data.attributes).toMatchObject({ status: 'active', suspended_at: null });
    expect((await move(t, id, 'suspend')).body.data.attributes.status).toBe('suspended');
    const v = await move(t, id, 'revoke');
    expect(v.body.data.attributes).toMatchObject({ status: 'revoked', revoked_at: expect.stringMatching(ISO) });
    for (const action of ['revoke', 'suspend', 'reactivate'] as const) await illegal(action, 'revoked');
  });

  test('active → revoke directly', async () => {
    const t = await createTenant();
    const id = (await grant(t, { user_id: uniq('user_'), app_id: t.appId })).body.data.id;
    expect((await move(t, id, 'revoke')).body.data.attributes.status).toBe('revoked');
  });

  test('unknown id → 404 access_not_found', async () => {
    const t = await createTenant();
    expectServiceError(await move(t, 'uac_doesnotexist', 'suspend'), 'platform', 404, 'ACCESS_NOT_FOUND', { parameter: 'access_id' });
  });

  test('10 concurrent suspends → exactly one 200, nine 409', async () => {
    const t = await createTenant();
    const id = (await grant(t, { user_id: uniq('user_'), account_id: t.accountUrlId })).body.data.id;
    const results = await Promise.all(Array.from({ length: 10 }, () => move(t, id, 'suspend')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectServiceError(r, 'platform', 409, 'INVALID_STATE_TRANSITION');
  });
});

describe('what a user can reach', () => {
  test('an account grant reaches all its apps; an app grant only its app; the strongest role wins', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const second = await newApp(t, t.accountUrlId, 'Second');
    const other = await newAccount(t);
    const otherApp = await newApp(t, other.urlId, 'Elsewhere');
    await newApp(t, other.urlId, 'Not granted');

    const acctGrant = (await grant(t, { user_id: user, account_id: t.accountUrlId, role: 'viewer' })).body.data.id;
    const appGrant = (await grant(t, { user_id: user, app_id: t.appId, role: 'admin' })).body.data.id;
    const otherGrant = (await grant(t, { user_id: user, app_id: otherApp, role: 'member' })).body.data.id;

    const apps = await userList(t, user, 'apps');
    expect(apps.status).toBe(200);
    expect(apps.body.data.map((a: any) => [a.id, a.type, a.attributes.role, a.attributes.access_via, a.attributes.access_id])).toEqual([
      [t.appId, 'apps', 'admin', 'app', appGrant],
      [second, 'apps', 'viewer', 'account', acctGrant],
      [otherApp, 'apps', 'member', 'app', otherGrant],
    ]);
    expect(apps.body.data[1].attributes).toMatchObject({ unique_id: second, name: 'Second' });

    // the accounts the user can reach: an app grant reaches its account (document 1: "the apps and
    // accounts a user can reach"); the account grant's role where there is one, access_via says which
    const accounts = await userList(t, user, 'accounts');
    expect(accounts.body.data.map((a: any) => [a.attributes.url_id, a.type, a.attributes.role, a.attributes.access_via, a.attributes.access_id])).toEqual([
      [t.accountUrlId, 'accounts', 'viewer', 'account', acctGrant],
      [other.urlId, 'accounts', 'member', 'app', otherGrant],
    ]);
    expect(accounts.body.data[0].attributes.capabilities).toBeDefined();
  });

  test('suspended and revoked grants vanish from apps and accounts; accesses lists every record with its status', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const second = await newApp(t);
    const acct = (await grant(t, { user_id: user, account_id: t.accountUrlId })).body.data.id;
    const app = (await grant(t, { user_id: user, app_id: second, role: 'owner' })).body.data.id;

    await move(t, acct, 'suspend');
    expect((await userList(t, user, 'apps')).body.data.map((a: any) => a.id)).toEqual([second]);
    // the account is still reached through the app grant
    expect((await userList(t, user, 'accounts')).body.data.map((a: any) => [a.attributes.url_id, a.attributes.role, a.attributes.access_via])).toEqual([[t.accountUrlId, 'owner', 'app']]);

    await move(t, app, 'revoke');
    expect((await userList(t, user, 'apps')).body.data).toEqual([]);
    expect((await userList(t, user, 'accounts')).body.data).toEqual([]);

    await move(t, acct, 'reactivate');
    expect((await userList(t, user, 'apps')).body.data.map((a: any) => [a.id, a.attributes.role])).toEqual([
      [t.appId, 'member'],
      [second, 'member'],
    ]);
    expect((await userList(t, user, 'accounts')).body.data).toHaveLength(1);

    const all = await userList(t, user, 'accesses');
    expect(all.body.data.map((a: any) => [a.id, a.attributes.status])).toEqual([
      [acct, 'active'],
      [app, 'revoked'],
    ]);
    expect((await userList(t, user, 'accesses', '?status=revoked')).body.data.map((a: any) => a.id)).toEqual([app]);
    expectServiceError(await userList(t, user, 'accesses', '?status=gone'), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'status' });
  });

  test('a user with nothing → empty lists; user ids with reserved characters round-trip', async () => {
    const t = await createTenant();
    const user = `auth0|${uniq('')}@example.com`;
    for (const what of ['apps', 'accounts', 'accesses'] as const) expect((await userList(t, user, what)).body.data).toEqual([]);
    await grant(t, { user_id: user, account_id: t.accountUrlId });
    expect((await userList(t, user, 'accesses')).body.data[0].attributes.user_id).toBe(user);
  });
});

describe('tenancy', () => {
  test("another platform's token cannot see or change this platform's accesses", async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const user = uniq('user_');
    const id = (await grant(a, { user_id: user, account_id: a.accountUrlId })).body.data.id;
    const bHeaders = { authorization: `Bearer ${mintToken({ platform: b.platformCode })}`, 'x-platform': b.platformCode };
    for (const action of ['suspend', 'revoke', 'reactivate'] as const) {
      expectServiceError(await move(a, id, action, bHeaders), 'platform', 404, 'ACCESS_NOT_FOUND');
    }
    expectServiceError(await grant(a, { user_id: user, account_id: a.accountUrlId }, bHeaders), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    expectServiceError(await grant(a, { user_id: user, app_id: a.appId }, bHeaders), 'platform', 404, 'APP_NOT_FOUND');
    for (const what of ['apps', 'accounts', 'accesses'] as const) {
      expect((await rest('GET', `/users/${user}/${what}`, { headers: bHeaders })).body.data).toEqual([]);
    }
    expect((await userList(a, user, 'accesses')).body.data[0].attributes.status).toBe('active');
  });
});

describe('GraphQL', () => {
  test('UserAccess.account and .app resolve; userApps returns App objects', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    await grant(t, { user_id: user, app_id: t.appId, role: 'viewer' });
    const r = await gql(
      `query($u: String!) { userAccesses(userId: $u) { role account { urlId } app { id name } } userApps(userId: $u) { via app { id } } }`,
      { u: user },
      t.platformHeaders,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({
      userAccesses: [{ role: 'viewer', account: { urlId: t.accountUrlId }, app: { id: t.appId, name: 'App' } }],
      userApps: [{ via: 'app', app: { id: t.appId } }],
    });
  });
});
