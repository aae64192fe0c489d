// What the per-area attack suites (security.platform, .catalog, .search, .ai) rely on: every service
// has protected routes in the table, and every route belongs to one area; plus the checks that concern
// the stack as a whole: subgraph ports refuse unsigned requests.
import { ROUTES } from '../../rest-bridge/routes/index.js';
import { createTenant, gql, stack } from '../harness/client.js';
import { protectedRoutes } from '../harness/security.js';

test('the table has protected routes of every service, each in one area suite', () => {
  expect(new Set(protectedRoutes(ROUTES).map((r) => r.service))).toEqual(new Set(['platform', 'products', 'search', 'ai']));
});

describe('subgraph ports', () => {
  const query = '{ __typename }';

  test.each(['platform', 'ai', 'catalog', 'search'] as const)('%s refuses a request without the gateway signature (401)', async (name) => {
    const r = await gql(query, {}, {}, stack().subgraphs[name]);
    expect(r.status).toBe(401);
    expect(r.body.data ?? null).toBeNull();
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  test('catalog refuses valid API-key headers and a forged x-tenant-context (401), and lists nothing', async () => {
    const t = await createTenant();
    const forged = Buffer.from(JSON.stringify({ kind: 'service', requestId: 'x', scopes: [], iat: Date.now() })).toString('base64url') + '.AAAA';
    const r = await gql('{ products(page: 1, pageSize: 5) { total } }', {}, { ...t.keyHeaders, 'x-tenant-context': forged }, stack().subgraphs.catalog);
    expect(r.status).toBe(401);
    expect(r.body.data ?? null).toBeNull();
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
