// Blocks end to end: the seeded catalog, licensing to an account, provisioning to apps, the 409 that
// protects a license still in use, idempotent repeats, concurrent calls, and tenancy.
import { createTenant, gql, jsonApi, mintToken, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** The documented catalog: ids and codes are part of the API and must never change. */
const CATALOG: [string, string, string][] = [
  ['blk_auth', 'auth', 'Auth'],
  ['blk_crm', 'crm', 'CRM'],
  ['blk_content', 'content', 'Content'],
  ['blk_files', 'files', 'Files'],
  ['blk_forms', 'forms', 'Forms'],
  ['blk_geolocation', 'geolocation', 'Geolocation'],
  ['blk_jarvis', 'jarvis', 'Jarvis (AI)'],
  ['blk_messaging', 'messaging', 'Messaging'],
  ['blk_notifications', 'notifications', 'Notifications'],
  ['blk_onboarding', 'onboarding', 'Onboarding'],
  ['blk_products', 'products', 'Products'],
  ['blk_rewards', 'rewards', 'Rewards'],
  ['blk_sales', 'sales', 'Sales'],
  ['blk_search', 'search', 'Search'],
  ['blk_social', 'social', 'Social'],
  ['blk_university', 'university', 'University'],
  ['blk_wallet', 'wallet', 'Wallet'],
];

const license = (t: Tenant, block: string, headers = t.platformHeaders) =>
  rest('POST', `/accounts/${t.accountUrlId}/blocks`, { body: jsonApi('block_licenses', { block_unique_id: block }), headers });
const provision = (t: Tenant, block: string, appId = t.appId, headers = t.platformHeaders) =>
  rest('POST', `/accounts/${t.accountUrlId}/apps/${appId}/blocks`, { body: jsonApi('block_instances', { block_unique_id: block }), headers });
const listLicenses = (t: Tenant) => rest('GET', `/accounts/${t.accountUrlId}/blocks`, { headers: t.platformHeaders });
const listInstances = (t: Tenant, appId = t.appId) => rest('GET', `/accounts/${t.accountUrlId}/apps/${appId}/blocks`, { headers: t.platformHeaders });

async function secondApp(t: Tenant, name = 'Second app'): Promise<string> {
  const r = await rest('POST', `/accounts/${t.accountUrlId}/apps`, { body: jsonApi('apps', { name }), headers: t.platformHeaders });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

describe('GET /blocks', () => {
  test('the 17 blocks in catalog order, with stable unique_id, code and name', async () => {
    const t = await createTenant();
    const r = await rest('GET', '/blocks', { headers: t.platformHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data.map((b: any) => [b.id, b.attributes.code, b.attributes.name])).toEqual(CATALOG);
    for (const [i, b] of r.body.data.entries()) {
      expect(b.type).toBe('blocks');
      expect(b.attributes).toMatchObject({ unique_id: b.id, position: i + 1, description: expect.any(String) });
    }
  });

  test('a platform:read token is enough; no X-Platform → 400 platform_required', async () => {
    const t = await createTenant();
    const reader = { authorization: `Bearer ${mintToken({ scopes: ['platform:read'] })}`, 'x-platform': t.platformCode };
    expect((await rest('GET', '/blocks', { headers: reader })).body.data).toHaveLength(17);
    const r = await rest('GET', '/blocks', { headers: { authorization: t.platformHeaders.authorization } });
    expectServiceError(r, 'platform', 400, 'PLATFORM_REQUIRED', { parameter: 'X-Platform' });
  });
});

describe('licensing blocks to an account', () => {
  test('POST → 201 with the license; a repeat → 200 with the same license (idempotent); GET lists it', async () => {
    const sub = uniq('admin_');
    const t = await createTenant({ operator: sub }); // sub operates the platform (docs/security.md)
    const headers = { ...t.platformHeaders, authorization: `Bearer ${mintToken({ sub })}` };
    const created = await license(t, 'blk_crm', headers);
    expect(created.status).toBe(201);
    expect(created.body.meta).toEqual({ created: true });
    expect(created.body.data).toMatchObject({ type: 'block_licenses', id: expect.stringMatching(/^lic_[0-9A-Za-z]{20}$/) });
    expect(created.body.data.attributes).toEqual({
      block_unique_id: 'blk_crm',
      block_code: 'crm',
      block_name: 'CRM',
      account_id: expect.stringMatching(/^acct_/),
      provisioned_app_ids: [],
      licensed_by: sub,
      created_at: expect.stringMatching(ISO),
    });

    const again = await license(t, 'blk_crm');
    expect(again.status).toBe(200);
    expect(again.body.meta).toEqual({ created: false });
    expect(again.body.data.id).toBe(created.body.data.id);

    await license(t, 'blk_auth');
    const list = await listLicenses(t);
    expect(list.status).toBe(200);
    // catalog order, not licensing order
    expect(list.body.data.map((l: any) => l.attributes.block_unique_id)).toEqual(['blk_auth', 'blk_crm']);
  });

  test('unknown block → 404 block_not_found; missing block_unique_id → 422; wrong data.type → 409', async () => {
    const t = await createTenant();
    expectServiceError(await license(t, 'blk_nope'), 'platform', 404, 'BLOCK_NOT_FOUND', { parameter: 'block_unique_id' });
    expectServiceError(await license(t, '  '), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'block_unique_id' });
    const missing = await rest('POST', `/accounts/${t.accountUrlId}/blocks`, { body: jsonApi('block_licenses', {}), headers: t.platformHeaders });
    expectServiceError(missing, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'block_unique_id' });
    const wrongType = await rest('POST', `/accounts/${t.accountUrlId}/blocks`, { body: jsonApi('blocks', { block_unique_id: 'blk_crm' }), headers: t.platformHeaders });
    expectServiceError(wrongType, 'platform', 409, 'INVALID_RESOURCE_TYPE');
    expectServiceError(await rest('GET', '/accounts/nope-nope/blocks', { headers: t.platformHeaders }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
  });

  test('DELETE by license id or by block unique_id → 200 with the removed license; again → 404', async () => {
    const t = await createTenant();
    const crm = await license(t, 'blk_crm');
    await license(t, 'blk_files');
    const byId = await rest('DELETE', `/accounts/${t.accountUrlId}/blocks/${crm.body.data.id}`, { headers: t.platformHeaders });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toMatchObject({ id: crm.body.data.id, type: 'block_licenses', attributes: { block_unique_id: 'blk_crm' } });
    const byBlock = await rest('DELETE', `/accounts/${t.accountUrlId}/blocks/blk_files`, { headers: t.platformHeaders });
    expect(byBlock.status).toBe(200);
    expect(byBlock.body.data.attributes.block_unique_id).toBe('blk_files');
    expect((await listLicenses(t)).body.data).toEqual([]);
    const again = await rest('DELETE', `/accounts/${t.accountUrlId}/blocks/blk_files`, { headers: t.platformHeaders });
    expectServiceError(again, 'platform', 404, 'BLOCK_LICENSE_NOT_FOUND', { parameter: 'license_id' });
  });

  test('10 concurrent licenses of one block → one license: one 201, nine 200, one id', async () => {
    const t = await createTenant();
    const results = await Promise.all(Array.from({ length: 10 }, () => license(t, 'blk_wallet')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect((await listLicenses(t)).body.data).toHaveLength(1);
  });
});

describe('provisioning blocks to apps', () => {
  test('an unlicensed block → 422 block_not_licensed; licensed → 201, repeat → 200; lists agree', async () => {
    const t = await createTenant();
    const refused = await provision(t, 'blk_search');
    expectServiceError(refused, 'platform', 422, 'BLOCK_NOT_LICENSED', { parameter: 'block_unique_id' });
    expect(refused.body.message).toContain(`POST /accounts/${t.accountUrlId}/blocks`);

    const lic = await license(t, 'blk_search');
    const created = await provision(t, 'blk_search');
    expect(created.status).toBe(201);
    expect(created.body.meta).toEqual({ created: true });
    expect(created.body.data).toMatchObject({ type: 'block_instances', id: expect.stringMatching(/^bki_/) });
    expect(created.body.data.attributes).toMatchObject({
      block_unique_id: 'blk_search',
      block_code: 'search',
      block_name: 'Search',
      app_id: t.appId,
      license_id: lic.body.data.id,
      created_at: expect.stringMatching(ISO),
    });
    const again = await provision(t, 'blk_search');
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(created.body.data.id);

    expect((await listInstances(t)).body.data.map((i: any) => i.id)).toEqual([created.body.data.id]);
    expect((await listLicenses(t)).body.data[0].attributes.provisioned_app_ids).toEqual([t.appId]);
    // a repeated license reports where it is provisioned too
    expect((await license(t, 'blk_search')).body.data.attributes.provisioned_app_ids).toEqual([t.appId]);
  });

  test('removing a license still provisioned → 409 naming every app; after deprovisioning it goes', async () => {
    const t = await createTenant();
    const other = await secondApp(t, 'Back office');
    await license(t, 'blk_jarvis');
    await provision(t, 'blk_jarvis');
    await provision(t, 'blk_jarvis', other);

    const refused = await rest('DELETE', `/accounts/${t.accountUrlId}/blocks/blk_jarvis`, { headers: t.platformHeaders });
    const err = expectServiceError(refused, 'platform', 409, 'BLOCK_STILL_PROVISIONED');
    expect(err.message).toContain(t.appId);
    expect(err.message).toContain(other);
    expect(err.message).toContain('Back office');

    const byBlock = await rest('DELETE', `/accounts/${t.accountUrlId}/apps/${t.appId}/blocks/blk_jarvis`, { headers: t.platformHeaders });
    expect(byBlock.status).toBe(200);
    expect(byBlock.body.data.attributes).toMatchObject({ block_unique_id: 'blk_jarvis', app_id: t.appId });
    const instance = (await listInstances(t, other)).body.data[0];
    const byId = await rest('DELETE', `/accounts/${t.accountUrlId}/apps/${other}/blocks/${instance.id}`, { headers: t.platformHeaders });
    expect(byId.status).toBe(200);
    const again = await rest('DELETE', `/accounts/${t.accountUrlId}/apps/${other}/blocks/blk_jarvis`, { headers: t.platformHeaders });
    expectServiceError(again, 'platform', 404, 'BLOCK_NOT_PROVISIONED', { parameter: 'block_id' });

    expect((await rest('DELETE', `/accounts/${t.accountUrlId}/blocks/blk_jarvis`, { headers: t.platformHeaders })).status).toBe(200);
  });

  test('an app of another account of the same platform → 404 app_not_found', async () => {
    const t = await createTenant();
    const acct = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: uniq('Other '), code: uniq('o') }), headers: t.platformHeaders });
    const otherUrl = acct.body.data.attributes.url_id;
    await license(t, 'blk_crm');
    const r = await rest('POST', `/accounts/${otherUrl}/apps/${t.appId}/blocks`, { body: jsonApi('block_instances', { block_unique_id: 'blk_crm' }), headers: t.platformHeaders });
    expectServiceError(r, 'platform', 404, 'APP_NOT_FOUND', { parameter: 'app_id' });
  });

  test('10 concurrent provisions of one block to one app → one instance', async () => {
    const t = await createTenant();
    await license(t, 'blk_forms');
    const results = await Promise.all(Array.from({ length: 10 }, () => provision(t, 'blk_forms')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect((await listInstances(t)).body.data).toHaveLength(1);
  });

  test('provisions racing a license removal never leave an instance without its license', async () => {
    const t = await createTenant();
    const apps = [t.appId, await secondApp(t, 'B'), await secondApp(t, 'C')];
    for (let round = 0; round < 5; round++) {
      await license(t, 'blk_social');
      const [removal, ...provisions] = await Promise.all([
        rest('DELETE', `/accounts/${t.accountUrlId}/blocks/blk_social`, { headers: t.platformHeaders }),
        ...apps.map((a) => provision(t, 'blk_social', a)),
      ]);
      const provisioned = provisions.filter((p) => p.status === 201).length;
      for (const p of provisions) expect([201, 422]).toContain(p.status);
      const licenses = (await listLicenses(t)).body.data;
      if (removal.status === 200) {
        expect(provisioned).toBe(0);
        expect(licenses).toEqual([]);
      } else {
        expectServiceError(removal, 'platform', 409, 'BLOCK_STILL_PROVISIONED');
        expect(licenses[0].attributes.provisioned_app_ids.length).toBe(provisioned);
      }
      for (const a of apps) await rest('DELETE', `/accounts/${t.accountUrlId}/apps/${a}/blocks/blk_social`, { headers: t.platformHeaders });
      await rest('DELETE', `/accounts/${t.accountUrlId}/blocks/blk_social`, { headers: t.platformHeaders });
    }
  });
});

describe('tenancy', () => {
  test("another platform's token sees none of this account's blocks: every path → 404", async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    await license(a, 'blk_crm');
    await provision(a, 'blk_crm');
    const bHeaders = { authorization: `Bearer ${mintToken({ platform: b.platformCode })}`, 'x-platform': b.platformCode };
    expectServiceError(await rest('GET', `/accounts/${a.accountUrlId}/blocks`, { headers: bHeaders }), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    expectServiceError(await license(a, 'blk_auth', bHeaders), 'platform', 404, 'ACCOUNT_NOT_FOUND');
    // B's own account, A's app
    const r = await rest('POST', `/accounts/${b.accountUrlId}/apps/${a.appId}/blocks`, { body: jsonApi('block_instances', { block_unique_id: 'blk_crm' }), headers: bHeaders });
    expectServiceError(r, 'platform', 404, 'APP_NOT_FOUND');
    const aLicense = (await listLicenses(a)).body.data[0].id;
    expectServiceError(
      await rest('DELETE', `/accounts/${b.accountUrlId}/blocks/${aLicense}`, { headers: bHeaders }),
      'platform',
      404,
      'BLOCK_LICENSE_NOT_FOUND',
    );
    // nothing changed for A
    expect((await listInstances(a)).body.data).toHaveLength(1);
  });
});

describe('GraphQL', () => {
  test('Account.blockLicenses and App.blocks resolve in one query (batched)', async () => {
    const t = await createTenant();
    const other = await secondApp(t);
    await license(t, 'blk_crm');
    await license(t, 'blk_files');
    await provision(t, 'blk_crm');
    await provision(t, 'blk_files', other);
    const r = await gql(
      `query($u: String!) { account(urlId: $u) { blockLicenses { blockUniqueId provisionedAppIds block { name } } apps { id blocks { block { code } licenseId } } } }`,
      { u: t.accountUrlId },
      t.platformHeaders,
    );
    expect(r.body.errors).toBeUndefined();
    const acct = r.body.data.account;
    expect(acct.blockLicenses).toEqual([
      { blockUniqueId: 'blk_crm', provisionedAppIds: [t.appId], block: { name: 'CRM' } },
      { blockUniqueId: 'blk_files', provisionedAppIds: [other], block: { name: 'Files' } },
    ]);
    const byApp = Object.fromEntries(acct.apps.map((a: any) => [a.id, a.blocks.map((b: any) => b.block.code)]));
    expect(byApp).toEqual({ [t.appId]: ['crm'], [other]: ['files'] });
  });
});
