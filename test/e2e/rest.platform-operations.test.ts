// An app's registered operations over REST (/accounts/:url_id/apps/:app_id/operations and
// /operation_settings) and "registered operations only" enforced on every way in: HTTP, graphql-ws
// subscribe messages (subscriptions, queries) and graphql-sse. Platform JWTs are not subject to an app's
// setting (README "Registered operations").
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { createTenant, gql, jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { poll } from '../harness/spawn.js';
import { expectServiceError } from '../harness/security.js';

const base = (t: Tenant, appId = t.appId) => `/accounts/${t.accountUrlId}/apps/${appId}`;
const byId = (id: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: id } } });
const SUB_ID = 's'.repeat(64);
const SUB_DOC = 'subscription Events { productEvents { event productId } }';
const QUERY_ID = 'q'.repeat(64);
const QUERY_DOC = 'query Current { currentApp { id } }';

async function post(t: Tenant, body: unknown) {
  const r = await fetch(stack().gateway, { method: 'POST', headers: { 'content-type': 'application/json', ...t.keyHeaders }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] } };
}

function socket(t: Tenant): Client {
  return createClient({ url: stack().gateway.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { 'x-app-id': t.appId, 'x-api-key': t.secretKey }, retryAttempts: 0, lazy: true });
}

/** The first thing a subscribe message gets: a result (`next`) or the operation's errors (`error`). */
function first(client: Client, payload: { query: string; extensions?: Record<string, unknown> }): { result: Promise<{ data?: any; errors?: any[] }>; stop: () => void } {
  let stop = () => undefined as void;
  const result = new Promise<{ data?: any; errors?: any[] }>((resolve) => {
    stop = client.subscribe(payload, {
      next: (v) => resolve(v as { data?: any }),
      error: (e) => resolve({ errors: Array.isArray(e) ? e : [{ message: String((e as Error).message ?? e) }] }),
      complete: () => undefined,
    });
  });
  return { result, stop: () => stop() };
}

async function setOnly(t: Tenant, attributes: Record<string, unknown>) {
  const r = await rest('PUT', `${base(t)}/operation_settings`, { body: jsonApi('operation_settings', attributes), headers: t.platformHeaders });
  expect(r.status).toBe(200);
  return r.body.data;
}


describe('registered operations over REST', () => {
  test('upload (both manifest formats), list, delete; the setting read and written', async () => {
    const t = await createTenant();
    const apollo = { format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: QUERY_ID, name: 'Current', type: 'query', body: QUERY_DOC }] };
    const up = await rest('POST', `${base(t)}/operations`, { body: jsonApi('operation_manifests', { manifest: apollo }), headers: t.platformHeaders });
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ id: t.appId, type: 'operation_manifests', attributes: { added: 1, unchanged: 0, total: 1 } });
    // Codegen's persisted-documents map, as a plain JSON body: keys (the ids) kept as written
    const codegen = await rest('POST', `${base(t)}/operations`, { body: { manifest: { [SUB_ID]: SUB_DOC, [QUERY_ID]: QUERY_DOC } }, headers: t.platformHeaders });
    expect(codegen.status).toBe(200);
    expect(codegen.body.data.attributes).toMatchObject({ added: 1, unchanged: 1, total: 2 });

    const list = await rest('GET', `${base(t)}/operations`, { headers: t.platformHeaders });
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ total: 2 });
    expect(list.body.data.map((o: any) => [o.id, o.type, o.attributes.name, o.attributes.type, o.attributes.body])).toEqual([
      [QUERY_ID, 'registered_operations', 'Current', 'query', QUERY_DOC],
      [SUB_ID, 'registered_operations', 'Events', 'subscription', SUB_DOC],
    ]);

    const del = await rest('DELETE', `${base(t)}/operations/${QUERY_ID}`, { headers: t.platformHeaders });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ data: { id: QUERY_ID, type: 'registered_operations' }, meta: { deleted: true } });
    expectServiceError(await rest('DELETE', `${base(t)}/operations/${QUERY_ID}`, { headers: t.platformHeaders }), 'platform', 404, 'NOT_FOUND');
    expect((await rest('GET', `${base(t)}/operations`, { headers: t.platformHeaders })).body.data.map((o: any) => o.id)).toEqual([SUB_ID]);

    const setting = await rest('GET', `${base(t)}/operation_settings`, { headers: t.platformHeaders });
    expect(setting.status).toBe(200);
    expect(setting.body.data).toMatchObject({ id: t.appId, type: 'operation_settings', attributes: { app_only: false, key_ids: [] } });
    const keys = await rest('GET', `${base(t)}/api_keys`, { headers: t.platformHeaders });
    const keyId = keys.body.data[0].id as string;
    expect((await setOnly(t, { enabled: true, key_id: keyId })).attributes).toEqual({ app_only: false, key_ids: [keyId] });
    expect((await setOnly(t, { enabled: false, key_id: keyId })).attributes).toEqual({ app_only: false, key_ids: [] });
  });

  test('bad input names the parameter; another tenant\'s app answers 404; a key is no platform credential', async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const bad = await rest('POST', `${base(t)}/operations`, {
      body: jsonApi('operation_manifests', { manifest: { format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: QUERY_ID, body: 'query {' }] } }),
      headers: t.platformHeaders,
    });
    expectServiceError(bad, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'manifest.operations[0].body' });
    expectServiceError(await rest('POST', `${base(t)}/operations`, { body: jsonApi('operation_manifests', { manifest: 'query { x }' }), headers: t.platformHeaders }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'manifest' });
    expectServiceError(await rest('POST', `${base(t)}/operations`, { body: { manifest: { bad: 'x' } }, headers: t.platformHeaders }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'manifest.bad.id' });
    // an arguments-style body's required attribute left out is named too
    const noEnabled = await rest('PUT', `${base(t)}/operation_settings`, { body: jsonApi('operation_settings', { key_id: 'key_x' }), headers: t.platformHeaders });
    expectServiceError(noEnabled, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'enabled' });
    const deadKey = await rest('PUT', `${base(t)}/operation_settings`, { body: jsonApi('operation_settings', { enabled: true, key_id: 'key_not_ours' }), headers: t.platformHeaders });
    expectServiceError(deadKey, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'key_id' });

    // the other platform's app, through this platform's administrator: 404, nothing listed or changed
    const foreign = base(t, other.appId);
    expectServiceError(await rest('GET', `${foreign}/operations`, { headers: t.platformHeaders }), 'platform', 404, 'APP_NOT_FOUND');
    expectServiceError(await rest('POST', `${foreign}/operations`, { body: { manifest: { [QUERY_ID]: QUERY_DOC } }, headers: t.platformHeaders }), 'platform', 404, 'APP_NOT_FOUND');
    expectServiceError(await rest('PUT', `${foreign}/operation_settings`, { body: { enabled: true }, headers: t.platformHeaders }), 'platform', 404, 'APP_NOT_FOUND');
    expectServiceError(await rest('DELETE', `${foreign}/operations/${QUERY_ID}`, { headers: t.platformHeaders }), 'platform', 404, 'APP_NOT_FOUND');
    expect((await rest('GET', `${base(other)}/operations`, { headers: other.platformHeaders })).body.data).toEqual([]);
    expect((await rest('GET', `${base(other)}/operation_settings`, { headers: other.platformHeaders })).body.data.attributes.app_only).toBe(false);
    // an API key is not a platform credential
    expect((await rest('GET', `${base(t)}/operations`, { headers: t.keyHeaders })).status).toBe(401);
  });
});

describe('"registered operations only" on every way in', () => {
  test('HTTP and graphql-ws: documents refused, registered ids served (subscriptions included); platform JWTs and REST routes go on', async () => {
    const t = await createTenant();
    const up = await rest('POST', `${base(t)}/operations`, { body: { manifest: { [SUB_ID]: SUB_DOC, [QUERY_ID]: QUERY_DOC } }, headers: t.platformHeaders });
    expect(up.status).toBe(200);
    expect((await setOnly(t, { enabled: true })).attributes.app_only).toBe(true);
    expect(await poll(() => post(t, { query: '{ currentApp { id } }' }), (a) => a.status === 403)).toBe(true);

    // HTTP
    const doc = await post(t, { query: '{ currentApp { id } }' });
    expect(doc.body.errors?.[0].extensions).toMatchObject({ code: 'REGISTERED_OPERATIONS_ONLY', status: 403 });
    const unknown = await post(t, byId('u'.repeat(64)));
    expect(unknown.status).toBe(403);
    expect(unknown.body.errors?.[0].extensions).toMatchObject({ code: 'OPERATION_NOT_REGISTERED', meta: { operationId: 'u'.repeat(64) } });
    expect((await post(t, byId(QUERY_ID))).body.data.currentApp.id).toBe(t.appId);

    // graphql-ws: the same codes, for a subscription and a query sent as documents or unknown ids
    const client = socket(t);
    try {
      const subDoc = first(client, { query: SUB_DOC });
      expect((await subDoc.result).errors?.[0].extensions).toMatchObject({ code: 'REGISTERED_OPERATIONS_ONLY', status: 403 });
      const queryDoc = first(client, { query: '{ currentApp { id } }' });
      expect((await queryDoc.result).errors?.[0].extensions).toMatchObject({ code: 'REGISTERED_OPERATIONS_ONLY' });
      const subUnknown = first(client, { query: '', ...byId('v'.repeat(64)) });
      expect((await subUnknown.result).errors?.[0].extensions).toMatchObject({ code: 'OPERATION_NOT_REGISTERED', meta: { operationId: 'v'.repeat(64) } });
      // a registered query by id over the socket
      const q = first(client, { query: '', ...byId(QUERY_ID) });
      expect((await q.result).data?.currentApp.id).toBe(t.appId);
      // a registered subscription by id: events arrive (the product is created through REST, which is not refused)
      const sub = first(client, { query: '', ...byId(SUB_ID) });
      await new Promise((r) => setTimeout(r, 300));
      const created = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Registered', sku: uniq('SKU-') }), headers: t.keyHeaders });
      expect(created.status).toBe(201);
      expect((await sub.result).data?.productEvents).toEqual({ event: 'product.created', productId: created.body.data.id });
      sub.stop();
    } finally {
      await client.dispose();
    }

    // graphql-sse (distinct connections): a document refused with the same code before any stream opens
    const sse = await fetch(stack().gateway, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...t.keyHeaders }, body: JSON.stringify({ query: SUB_DOC }) });
    expect(sse.status).toBe(403);
    expect(((await sse.json()) as { errors: { extensions: Record<string, unknown> }[] }).errors[0].extensions).toMatchObject({ code: 'REGISTERED_OPERATIONS_ONLY', status: 403 });
    const sseUnknown = await fetch(stack().gateway, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...t.keyHeaders }, body: JSON.stringify({ query: '', ...byId('w'.repeat(64)) }) });
    expect(sseUnknown.status).toBe(403);
    expect(((await sseUnknown.json()) as { errors: { extensions: Record<string, unknown> }[] }).errors[0].extensions).toMatchObject({ code: 'OPERATION_NOT_REGISTERED', meta: { operationId: 'w'.repeat(64) } });

    // a platform JWT is no app client: the app's setting does not apply to it
    const jwt = await gql('query($accountUrlId: String!, $appId: ID!) { registeredOperationsSetting(accountUrlId: $accountUrlId, appId: $appId) { appOnly } }', { accountUrlId: t.accountUrlId, appId: t.appId }, t.platformHeaders);
    expect(jwt.body.errors).toBeUndefined();
    expect(jwt.body.data?.registeredOperationsSetting.appOnly).toBe(true);

    // off again: documents run
    await setOnly(t, { enabled: false });
    expect(await poll(() => post(t, { query: '{ currentApp { id } }' }), (a) => a.status === 200 && !a.body.errors)).toBe(true);
  });
});
