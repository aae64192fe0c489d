// AI identity registration end to end: REST bridge → gateway → ai subgraph → PostgreSQL. The call
// carries the tenant's API key (X-Api-Key) and the user's JWT (Authorization).
import { createTenant, gql, mintToken, rest, uniq, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function userHeaders(t: Tenant, userId: string, scopes: string[] = []): Record<string, string> {
  return { 'x-app-id': t.appId, 'x-api-key': t.secretKey, authorization: `Bearer ${mintToken({ sub: userId, scopes })}` };
}

const register = (t: Tenant, user: string, headers: Record<string, string>) => rest('POST', `/identities/${encodeURIComponent(user)}/register`, { headers });

describe('POST /identities/:user_unique_id/register', () => {
  test('a user registers with their own JWT → 201, identity active; again → the same identity', async () => {
    const t = await createTenant();
    const user = uniq('user_');
    const first = await register(t, user, userHeaders(t, user));
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ type: 'identity', id: expect.stringMatching(/^idn_[A-Za-z0-9]{20}$/), attributes: { user_unique_id: user, status: 'active' } });
    expect(first.body.data.attributes.registered_at).toMatch(ISO);

    const again = await register(t, user, userHeaders(t, user));
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);

    // read back through the gateway (another operation, another path through the supergraph)
    const r = await gql('query($u: String!) { identity(userUniqueId: $u) { id userUniqueId status app { id } } }', { u: user }, t.keyHeaders);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ identity: { id: first.body.data.id, userUniqueId: user, status: 'active', app: { id: t.appId } } });
  });

  test('registering another user without identities:write → 403 (shape A); nothing is registered', async () => {
    const t = await createTenant();
    const admin = uniq('user_');
    const other = uniq('user_');
    const r = await register(t, other, userHeaders(t, admin, ['ai:write']));
    const e = expectServiceError(r, 'ai', 403, 'INSUFFICIENT_SCOPE');
    expect(e.detail).toContain('identities:write');
    const q = await gql('query($u: String!) { identity(userUniqueId: $u) { id } }', { u: other }, t.keyHeaders);
    expect(q.body.errors?.[0]?.extensions?.code).toBe('usr-not-registered');
  });

  test('registering another user with identities:write → 201 for that user', async () => {
    const t = await createTenant();
    const admin = uniq('user_');
    const other = uniq('user_');
    const r = await register(t, other, userHeaders(t, admin, ['identities:write']));
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toMatchObject({ user_unique_id: other, status: 'active' });
    // the user's own later registration finds the same identity
    const own = await register(t, other, userHeaders(t, other));
    expect(own.status).toBe(201);
    expect(own.body.data.id).toBe(r.body.data.id);
  });

  test('no user JWT → 401 (shape A)', async () => {
    const t = await createTenant();
    const r = await register(t, uniq('user_'), t.keyHeaders);
    expectServiceError(r, 'ai', 401, 'UNAUTHENTICATED');
  });

  test('identities are per tenant: the same user in two tenants gets two identities', async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const user = uniq('user_');
    const inA = await register(a, user, userHeaders(a, user));
    const inB = await register(b, user, userHeaders(b, user));
    expect(inA.status).toBe(201);
    expect(inB.status).toBe(201);
    expect(inB.body.data.id).not.toBe(inA.body.data.id);
  });

  test('a user id with control characters → 422 naming user_unique_id', async () => {
    const t = await createTenant();
    const bad = 'bad\u0001user';
    const r = await register(t, bad, userHeaders(t, bad));
    expectServiceError(r, 'ai', 422, 'VALIDATION_FAILED', { parameter: 'user_unique_id' });
  });
});
