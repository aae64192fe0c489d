// What a newcomer meets on a wrong first try, over real HTTP: each answer says what to do.
import { rest, stack } from '../harness/client.js';

test('a malformed JWT on a platform path → 401 invalid_token saying what a JWT is (not "X-App-Id required")', async () => {
  const r = await rest('GET', '/accounts', { headers: { authorization: 'Bearer abc.def', 'x-platform': 'acme' } });
  expect(r.status).toBe(401);
  expect(r.body).toMatchObject({ error: 'invalid_token', status: 401 });
  expect(r.body.message).toMatch(/^Bearer token rejected: malformed \(a JWT is three base64url parts.*mint-token/);
});

test('a subgraph port called directly → 401 naming the gateway to call instead', async () => {
  const r = await fetch(stack().subgraphs.catalog, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
  expect(r.status).toBe(401);
  const body = (await r.json()) as { errors: { message: string }[] };
  expect(body.errors[0].message).toBe(`Subgraphs accept only requests signed by the gateway (missing): send GraphQL to the gateway, ${stack().gateway}`);
});

test("the REST reference's Authorize dialog says which two of its five schemes to fill", async () => {
  const doc = (await rest('GET', '/openapi.json')).body;
  expect(doc.info.description).toMatch(/Authorize.*fill two: `bearerJwt` and `platformHeader` for the platform paths.*or `appId` and `apiKeyHeader` for products, search and AI/);
  const schemes = doc.components.securitySchemes as Record<string, { description?: string }>;
  expect(Object.keys(schemes).sort()).toEqual(['apiKeyHeader', 'appId', 'bearerApiKey', 'bearerJwt', 'platformHeader']);
  for (const [name, s] of Object.entries(schemes)) expect([name, s.description]).toEqual([name, expect.stringMatching(/with|AND|Alternative/)]);
});

test('GraphiQL opened with ?headers= (the seed prints such a link) starts with those headers', async () => {
  const headers = { 'X-App-Id': 'app_abc', 'X-Api-Key': 'sk_live_xyz' };
  const r = await fetch(`${stack().gateway}?headers=${encodeURIComponent(JSON.stringify(headers))}`, { headers: { accept: 'text/html' } });
  expect(r.status).toBe(200);
  const html = await r.text();
  const config = JSON.parse(/const RURU_CONFIG = (\{[\s\S]*?\});\n/.exec(html)![1]) as { initialHeaders?: string };
  expect(JSON.parse(config.initialHeaders!)).toEqual(headers);
  // without it, no initial headers (the editor keeps what the user saved)
  const plain = await (await fetch(stack().gateway, { headers: { accept: 'text/html' } })).text();
  expect(plain).not.toContain('initialHeaders');
});
