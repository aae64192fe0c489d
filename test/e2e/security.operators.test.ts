// Platform operators (docs/security.md, "Platform operators"): a platform token reaches a platform
// only through an operator record of its `sub` (the creator is the owner), a `platform` claim naming
// it, or the super-admin scope; the record's scopes cap the token's; records are managed under
// /platforms/:pid/operators and a change applies at once.
import { createTenant, gql, jsonApi, mintToken, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError, PLATFORM_SCOPES } from '../harness/security.js';

const P = 'platform';
const ALL = [...PLATFORM_SCOPES];
const as = (sub: string, code: string, scopes: string[] = ALL) => ({ authorization: `Bearer ${mintToken({ sub, scopes })}`, 'x-platform': code });

let owner: string;
let t: Tenant;
beforeAll(async () => {
  owner = uniq('owner_');
  t = await createTenant({ operator: owner });
});

test('the creator is the owner operator, with every platform scope', async () => {
  const r = await rest('GET', `/platforms/${t.platformCode}/operators`, { headers: t.platformHeaders });
  expect(r.status).toBe(200);
  expect(r.body.data).toEqual([
    {
      id: expect.stringMatching(/^op_/),
      type: 'platform_operators',
      attributes: expect.objectContaining({ user_id: owner, role: 'owner', scopes: ALL, platform_id: expect.stringMatching(/^plat_/) }),
      relationships: { platform: { data: { type: 'platforms', id: r.body.data[0].attributes.platform_id }, links: { related: `/platforms/${t.platformCode}` } } },
    },
  ]);
});

test('a platform:admin token of someone else (no record, no claim) reaches nothing of the platform: 404 everywhere', async () => {
  const stranger = as(uniq('stranger_'), t.platformCode);
  expectServiceError(await rest('GET', '/accounts', { headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND', { parameter: 'X-Platform' });
  expectServiceError(await rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND');
  expectServiceError(await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'x', code: uniq('a') }), headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND');
  expectServiceError(await rest('GET', `/platforms/${t.platformCode}`, { headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND');
  expectServiceError(await rest('GET', `/platforms/${t.platformCode}/accounts`, { headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND', { parameter: 'pid' });
  expectServiceError(await rest('GET', `/platforms/${t.platformCode}/operators`, { headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND');
  expectServiceError(await rest('PUT', `/platforms/${t.platformCode}`, { body: jsonApi('platforms', { name: 'taken' }), headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND');
  expectServiceError(await rest('GET', `/reporting/revenue?platform=${t.platformCode}`, { headers: stranger }), P, 404, 'PLATFORM_NOT_FOUND');
  // the cross-platform views leave it out
  const list = await rest('GET', '/platforms', { headers: stranger });
  expect(list.status).toBe(200);
  expect(JSON.stringify(list.body)).not.toContain(t.platformCode);
  const global = await rest('GET', '/global/accounts?page[size]=200', { headers: stranger });
  expect(global.status).toBe(200);
  expect(JSON.stringify(global.body)).not.toContain(t.accountUrlId);
  // and over GraphQL
  const g = await gql('query($id: ID!) { platform(id: $id) { id } }', { id: t.platformCode }, stranger);
  expect(g.body.errors?.[0]?.extensions).toMatchObject({ code: 'PLATFORM_NOT_FOUND' });
});

test('an added operator reaches the platform with the scopes of its record; removed, it is 404 again at once', async () => {
  const sub = uniq('reader_');
  const headers = as(sub, t.platformCode);
  expectServiceError(await rest('GET', '/accounts', { headers }), P, 404, 'PLATFORM_NOT_FOUND');
  const add = await rest('POST', `/platforms/${t.platformCode}/operators`, { body: jsonApi('platform_operators', { user_id: sub, scopes: ['platform:read'] }), headers: t.platformHeaders });
  expect(add.status).toBe(201);
  expect(add.body.data.attributes).toMatchObject({ user_id: sub, scopes: ['platform:read'], role: 'operator', added_by: owner });

  // a token of every platform scope is capped to the record's platform:read
  expect((await rest('GET', '/accounts', { headers })).status).toBe(200);
  expect((await rest('GET', `/platforms/${t.platformCode}/accounts`, { headers })).status).toBe(200);
  expectServiceError(await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'x', code: uniq('a') }), headers }), P, 403, 'INSUFFICIENT_SCOPE');
  expectServiceError(await rest('POST', `/platforms/${t.platformCode}/accounts`, { body: jsonApi('accounts', { name: 'x', code: uniq('a') }), headers }), P, 403, 'INSUFFICIENT_SCOPE');
  expectServiceError(await rest('POST', `/platforms/${t.platformCode}/operators`, { body: jsonApi('platform_operators', { user_id: uniq('x') }), headers }), P, 403, 'INSUFFICIENT_SCOPE');
  // the list needs platform:admin in the token, uncapped without X-Platform: the platforms it operates
  const mine = await rest('GET', '/platforms', { headers: { authorization: headers.authorization } });
  expect((mine.body.data as any[]).map((p) => p.attributes.code)).toEqual([t.platformCode]);

  const removed = await rest('DELETE', `/platforms/${t.platformCode}/operators/${sub}`, { headers: t.platformHeaders });
  expect(removed.status).toBe(200);
  expectServiceError(await rest('GET', '/accounts', { headers }), P, 404, 'PLATFORM_NOT_FOUND');
});

test('operator records: validation, duplicates, unknown ones, and the last platform:admin stays', async () => {
  const h = t.platformHeaders;
  const path = `/platforms/${t.platformCode}/operators`;
  expectServiceError(await rest('POST', path, { body: jsonApi('platform_operators', { user_id: uniq('u'), scopes: ['platform:root'] }), headers: h }), P, 422, 'VALIDATION_FAILED', { parameter: 'scopes' });
  expectServiceError(await rest('POST', path, { body: jsonApi('platform_operators', { user_id: ' ' }), headers: h }), P, 422, 'VALIDATION_FAILED', { parameter: 'user_id' });
  expectServiceError(await rest('POST', path, { body: jsonApi('platform_operators', { user_id: owner }), headers: h }), P, 409, 'OPERATOR_ALREADY_EXISTS', { parameter: 'user_id' });
  expectServiceError(await rest('DELETE', `${path}/${uniq('nobody_')}`, { headers: h }), P, 404, 'OPERATOR_NOT_FOUND', { parameter: 'user_id' });
  expectServiceError(await rest('DELETE', `${path}/${owner}`, { headers: h }), P, 409, 'LAST_PLATFORM_ADMIN');
  // with a second admin, the owner may go
  const second = uniq('admin_');
  expect((await rest('POST', path, { body: jsonApi('platform_operators', { user_id: second, scopes: ALL }), headers: h })).status).toBe(201);
  expect((await rest('DELETE', `${path}/${owner}`, { headers: as(second, t.platformCode) })).status).toBe(200);
  expectServiceError(await rest('GET', '/accounts', { headers: h }), P, 404, 'PLATFORM_NOT_FOUND');
  expect((await rest('POST', path, { body: jsonApi('platform_operators', { user_id: owner, scopes: ALL }), headers: as(second, t.platformCode) })).status).toBe(201);
  expect((await rest('GET', '/accounts', { headers: h })).status).toBe(200);
});

test('a platform claim and the super-admin scope reach a platform without a record', async () => {
  const bound = { authorization: `Bearer ${mintToken({ sub: uniq('bound_'), scopes: ALL, platform: t.platformCode })}`, 'x-platform': t.platformCode };
  expect((await rest('GET', '/accounts', { headers: bound })).status).toBe(200);
  const root = as(uniq('root_'), t.platformCode, ['platform:superadmin', ...ALL]);
  expect((await rest('GET', '/accounts', { headers: root })).status).toBe(200);
  expect((await rest('GET', `/platforms/${t.platformCode}/operators`, { headers: root })).status).toBe(200);
  const all = await rest('GET', '/global/accounts?page[size]=200', { headers: root });
  expect(all.status).toBe(200);
  expect(all.body.meta.total).toBeGreaterThanOrEqual(1);
});
