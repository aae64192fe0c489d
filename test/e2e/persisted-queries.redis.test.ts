// Persisted and registered operations across two gateway processes over Redis:
// - automatic persisted queries: a query registered by hash through gateway A is answered by hash
//   alone through gateway B (Apollo's APQ store in Redis, README "Persisted queries");
// - an app's registry of trusted operations (platform subgraph, README "Registered operations"):
//   a manifest uploaded through A is served by id through B, "registered operations only" refuses
//   documents and unknown ids with their codes, and a deletion through A is seen by B at once.
import { createHash } from 'node:crypto';
import { createTenant, gql, uniq } from '../harness/client.js';
import { poll } from '../harness/spawn.js';
import { twoGatewaysOverRedis } from '../harness/redis-gateways.js';

const REDIS_URL = process.env.REDIS_URL;
const maybe = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('persisted-queries.redis.test: REDIS_URL is not set; the two-gateway tests are skipped');
const SLOW = 120_000;

type Answer = { status: number; body: { data?: any; errors?: { message: string; extensions?: { code?: string; meta?: Record<string, unknown> } }[] } };
async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Answer['body'] };
}
const byId = (id: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: id } } });
const codeOf = (a: Answer) => a.body.errors?.[0]?.extensions?.code;

maybe('persisted and registered operations over Redis', () => {
  const { gatewayA, gatewayB } = twoGatewaysOverRedis(REDIS_URL!, 1600, 'apq-redis');

  test(
    'automatic persisted queries: registered through gateway A, answered by hash through gateway B',
    async () => {
      const t = await createTenant();
      const query = `query ${uniq('Apq')} { currentApp { id } }`;
      const hash = createHash('sha256').update(query).digest('hex');

      // Apollo's PERSISTED_QUERY_NOT_FOUND, under the platform's code (lib/graphql-errors.ts) and Apollo's message, which Apollo Client's link reads
      const miss = await post(gatewayB, t.keyHeaders, byId(hash));
      expect(miss.body.errors?.[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'BAD_REQUEST' } });
      const registered = await post(gatewayA, t.keyHeaders, { query, ...byId(hash) });
      expect(registered.body.errors).toBeUndefined();
      const again = await post(gatewayB, t.keyHeaders, byId(hash));
      expect(again.body.errors).toBeUndefined();
      expect(again.body.data.currentApp.id).toBe(t.appId);
    },
    SLOW,
  );

  test(
    'a registry uploaded through A serves B; "registered operations only" refuses the rest; a deletion reaches B',
    async () => {
      const t = await createTenant();
      const manage = (q: string, v: Record<string, unknown>) => gql(q, { accountUrlId: t.accountUrlId, appId: t.appId, ...v }, t.platformHeaders, gatewayA);
      // ids need not be the body's SHA-256 (Codegen may use SHA-1): Apollo's APQ alone would refuse these
      const apolloId = 'a'.repeat(64);
      const codegenId = 'c'.repeat(40);
      const upload = await manage('mutation($accountUrlId: String!, $appId: ID!, $manifest: JSON!) { uploadOperationManifest(accountUrlId: $accountUrlId, appId: $appId, manifest: $manifest) { added unchanged total } }', {
        manifest: { format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: apolloId, name: 'Current', type: 'query', body: 'query Current { currentApp { id } }' }] },
      });
      expect(upload.body.errors).toBeUndefined();
      expect(upload.body.data.uploadOperationManifest).toEqual({ added: 1, unchanged: 0, total: 1 });
      const codegen = await manage('mutation($accountUrlId: String!, $appId: ID!, $manifest: JSON!) { uploadOperationManifest(accountUrlId: $accountUrlId, appId: $appId, manifest: $manifest) { added total } }', {
        manifest: { [codegenId]: 'query Named { currentApp { name } }', [apolloId]: 'query Current { currentApp { id } }' },
      });
      expect(codegen.body.data.uploadOperationManifest).toEqual({ added: 1, total: 2 });
      const list = await manage('query($accountUrlId: String!, $appId: ID!) { registeredOperations(accountUrlId: $accountUrlId, appId: $appId) { id name type } }', {});
      expect(list.body.data.registeredOperations).toEqual([
        { id: apolloId, name: 'Current', type: 'query' },
        { id: codegenId, name: 'Named', type: 'query' },
      ]);

      const served = await post(gatewayB, t.keyHeaders, byId(apolloId));
      expect(served.body.errors).toBeUndefined();
      expect(served.body.data.currentApp.id).toBe(t.appId);
      const byDocumentId = await post(gatewayB, t.keyHeaders, { documentId: codegenId });
      expect(byDocumentId.body.errors).toBeUndefined();
      expect(typeof byDocumentId.body.data.currentApp.name).toBe('string');
      // documents still run while the setting is off
      expect((await post(gatewayB, t.keyHeaders, { query: '{ currentApp { id } }' })).body.errors).toBeUndefined();

      const on = await manage('mutation($accountUrlId: String!, $appId: ID!) { setRegisteredOperationsOnly(accountUrlId: $accountUrlId, appId: $appId, enabled: true) { appOnly keyIds } }', {});
      expect(on.body.data.setRegisteredOperationsOnly).toEqual({ appOnly: true, keyIds: [] });
      const document = await post(gatewayB, t.keyHeaders, { query: '{ currentApp { id } }' });
      expect(document.status).toBe(403);
      expect(codeOf(document)).toBe('REGISTERED_OPERATIONS_ONLY');
      const unknownId = 'f'.repeat(64);
      const unknown = await post(gatewayB, t.keyHeaders, byId(unknownId));
      expect(unknown.status).toBe(403);
      expect(codeOf(unknown)).toBe('OPERATION_NOT_REGISTERED');
      expect(unknown.body.errors?.[0].extensions?.meta).toEqual({ operationId: unknownId });
      expect((await post(gatewayB, t.keyHeaders, byId(apolloId))).body.data.currentApp.id).toBe(t.appId);

      const deleted = await manage('mutation($accountUrlId: String!, $appId: ID!, $id: ID!) { deleteRegisteredOperation(accountUrlId: $accountUrlId, appId: $appId, id: $id) }', { id: apolloId });
      expect(deleted.body.data.deleteRegisteredOperation).toBe(true);
      // B dropped its copy on the event: no wait for the registry's TTL
      await expect(poll(() => post(gatewayB, t.keyHeaders, byId(apolloId)), (a) => codeOf(a) === 'OPERATION_NOT_REGISTERED', 3000)).resolves.toBe(true);
    },
    SLOW,
  );

  test(
    "another tenant's app: not found; a bad manifest: the entry named",
    async () => {
      const [t, other] = await Promise.all([createTenant(), createTenant()]);
      const q = 'mutation($accountUrlId: String!, $appId: ID!, $manifest: JSON!) { uploadOperationManifest(accountUrlId: $accountUrlId, appId: $appId, manifest: $manifest) { added } }';
      const foreign = await gql(q, { accountUrlId: t.accountUrlId, appId: other.appId, manifest: { ['a'.repeat(64)]: '{ currentApp { id } }' } }, t.platformHeaders, gatewayA);
      expect(foreign.body.errors?.[0].extensions?.code).toBe('APP_NOT_FOUND');
      const bad = await gql(q, { accountUrlId: t.accountUrlId, appId: t.appId, manifest: { format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'a'.repeat(64), body: 'query {' }] } }, t.platformHeaders, gatewayA);
      expect(bad.body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
      expect(bad.body.errors?.[0].extensions?.parameter).toBe('manifest.operations[0].body');
    },
    SLOW,
  );
});

