// issue 12 item 5: the signed tenant header is bound to its subgraph (audience), to the exact
// request body and to 30 seconds, so a header captured on one request is refused on another.
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../../lib/tenant.js';
import { createTenant, stack, type Tenant } from '../harness/client.js';

let t: Tenant;
let tenant: TenantContext;
beforeAll(async () => {
  t = await createTenant();
  const r = await fetch(stack().gateway, { method: 'POST', headers: { 'content-type': 'application/json', ...t.keyHeaders }, body: JSON.stringify({ query: '{ currentApp { id account { id } } }' }) });
  expect(r.status).toBe(200);
  // the context the gateway builds for this key (ids as the platform knows them)
  tenant = { kind: 'key', requestId: 'captured', scopes: ['products:read', 'products:write'], appId: t.appId, environment: 'live' };
});

const LIST = JSON.stringify({ query: '{ products(page: 1, pageSize: 5) { total } }', variables: {} });
const DELETE = JSON.stringify({ query: 'mutation($id: ID!) { deleteProduct(id: $id) }', variables: { id: 'prod_x' } });

async function send(subgraph: keyof ReturnType<typeof stack>['subgraphs'], header: string, body: string) {
  const r = await fetch(stack().subgraphs[subgraph], { method: 'POST', headers: { 'content-type': 'application/json', [TENANT_HEADER]: header }, body });
  return { status: r.status, body: (await r.json()) as { data?: any; errors?: any[] } };
}

test('the header signed for this body and this subgraph is accepted', async () => {
  const header = signTenantContext(tenant, stack().env.INTERNAL_SECRET, { audience: 'catalog', body: LIST });
  const r = await send('catalog', header, LIST);
  expect(r.status).toBe(200);
  expect(r.body.data?.products.total).toBe(0);
});

test('replayed with another operation on the same subgraph → 401', async () => {
  const header = signTenantContext(tenant, stack().env.INTERNAL_SECRET, { audience: 'catalog', body: LIST });
  const r = await send('catalog', header, DELETE);
  expect(r.status).toBe(401);
  expect(r.body.errors?.[0].message).toMatch(/wrong_request/);
});

test('replayed on another subgraph → 401', async () => {
  const header = signTenantContext(tenant, stack().env.INTERNAL_SECRET, { audience: 'catalog', body: LIST });
  const r = await send('search', header, LIST);
  expect(r.status).toBe(401);
  expect(r.body.errors?.[0].message).toMatch(/wrong_audience/);
});

test('replayed after 30 seconds → 401', async () => {
  const header = signTenantContext(tenant, stack().env.INTERNAL_SECRET, { audience: 'catalog', body: LIST }, Date.now() - 31_000);
  const r = await send('catalog', header, LIST);
  expect(r.status).toBe(401);
  expect(r.body.errors?.[0].message).toMatch(/expired/);
});
