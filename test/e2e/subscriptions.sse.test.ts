// GraphQL over SSE on the stack's gateway (graphql-sse, both modes), and resume: events carry their
// id in the tenant's stream; a client reconnecting with Last-Event-ID (or a graphql-ws subscribe
// with extensions.resumeFrom) receives exactly the events it missed, then live ones.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTenant, jsonApi, mintToken, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { sseRequest, type SseStream } from '../harness/sse.js';

const SUB = 'subscription { productEvents { event productId product { id name } } }';

function keyHeaders(t: Tenant): Record<string, string> {
  return { 'x-app-id': t.appId, 'x-api-key': t.secretKey };
}

async function createProduct(t: Tenant, name: string): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name, sku: uniq('SKU-') }), headers: t.keyHeaders });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

/** Opens a distinct-connection stream and waits until the gateway listens (the first comment is flushed before). */
async function open(t: Tenant, headers: Record<string, string> = {}, body: Record<string, unknown> = { query: SUB }): Promise<SseStream> {
  const s = await sseRequest(stack().gateway, { headers: { ...keyHeaders(t), ...headers }, body });
  expect(s.status).toBe(200);
  await new Promise((r) => setTimeout(r, 200));
  return s;
}

describe('GraphQL over SSE: distinct connections mode', () => {
  test('a product created through REST reaches the stream as a `next` event with an id', async () => {
    const t = await createTenant();
    const s = await open(t);
    try {
      const id = await createProduct(t, 'SSE lamp');
      const e = await s.next();
      expect(e.event).toBe('next');
      expect(e.id).toMatch(/^\d+-\d+$/);
      expect(e.data.data.productEvents).toMatchObject({ event: 'product.created', productId: id, product: { id, name: 'SSE lamp' } });
    } finally {
      s.close();
    }
  });

  test('GET with the operation in the query string works too', async () => {
    const t = await createTenant();
    const url = `${stack().gateway}?query=${encodeURIComponent(SUB)}`;
    const s = await sseRequest(url, { method: 'GET', headers: keyHeaders(t) });
    expect(s.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    try {
      const id = await createProduct(t, 'GET lamp');
      expect((await s.next()).data.data.productEvents.productId).toBe(id);
    } finally {
      s.close();
    }
  });

  test('a mutation over GET is refused 405', async () => {
    const t = await createTenant();
    const url = `${stack().gateway}?query=${encodeURIComponent('mutation { __typename }')}`;
    const s = await sseRequest(url, { method: 'GET', headers: keyHeaders(t) });
    expect(s.status).toBe(405);
    expect(s.body.errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
  });

  test('a query over SSE answers one `next` and `complete`', async () => {
    const t = await createTenant();
    const s = await sseRequest(stack().gateway, { headers: keyHeaders(t), body: { query: '{ __typename }' } });
    expect(s.status).toBe(200);
    expect(await s.next()).toMatchObject({ event: 'next', data: { data: { __typename: 'Query' } } });
    expect((await s.next()).event).toBe('complete');
  });

  test('without credentials the stream is refused 401 in the gateway error shape', async () => {
    const s = await sseRequest(stack().gateway, { body: { query: SUB } });
    expect(s.status).toBe(401);
    expect(s.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  test('an unknown key is refused before any stream opens', async () => {
    const t = await createTenant();
    const s = await sseRequest(stack().gateway, { headers: { 'x-app-id': t.appId, 'x-api-key': 'sk_live_ent_0000000000000000000000000' }, body: { query: SUB } });
    expect(s.status).toBeGreaterThanOrEqual(401);
    expect(s.status).toBeLessThan(404);
    expect(s.body.errors[0].extensions.code).toBeDefined();
  });

  test('an invalid operation is refused 400 with the validation errors', async () => {
    const t = await createTenant();
    const s = await sseRequest(stack().gateway, { headers: keyHeaders(t), body: { query: 'subscription { nope }' } });
    expect(s.status).toBe(400);
    expect(s.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  test("a stream never receives another tenant's events", async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const sa = await open(a);
    const sb = await open(b);
    try {
      const id = await createProduct(a, 'Only A');
      expect((await sa.next()).data.data.productEvents.productId).toBe(id);
      expect(await sb.quiet(800)).toBe(true);
    } finally {
      sa.close();
      sb.close();
    }
  });
});

describe('GraphQL over SSE: origin rules (lib/cors.ts, as the gateway and the REST bridge)', () => {
  const SHOP = 'https://shop.example.com';
  const EVIL = 'https://evil.example.com';

  test("a key stream from the app's allowed origin is readable; from another origin it is refused 403", async () => {
    const t = await createTenant();
    const put = await rest('PUT', `/accounts/${t.accountUrlId}/apps/${t.appId}`, { body: jsonApi('apps', { allowed_origins: [SHOP] }), headers: t.platformHeaders });
    expect(put.status).toBe(200);
    const ok = await sseRequest(stack().gateway, { headers: { ...keyHeaders(t), origin: SHOP }, body: { query: SUB } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP);
    ok.close();
    const bad = await sseRequest(stack().gateway, { headers: { ...keyHeaders(t), origin: EVIL }, body: { query: SUB } });
    expect(bad.status).toBe(403);
    expect(bad.body.errors[0].extensions.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('a JWT stream from an origin outside CORS_ORIGINS is refused 403 (as a WebSocket would be)', async () => {
    const s = await sseRequest(stack().gateway, { headers: { authorization: `Bearer ${mintToken()}`, origin: EVIL }, body: { query: '{ __typename }' } });
    expect(s.status).toBe(403);
    expect(s.body.errors[0].extensions.code).toBe('ORIGIN_NOT_ALLOWED');
  });
});

describe('GraphQL over SSE: single connection mode', () => {
  test('PUT reserves a token, GET opens the stream, POST starts an operation, DELETE stops it', async () => {
    const t = await createTenant();
    const gw = stack().gateway;
    const put = await fetch(gw, { method: 'PUT', headers: keyHeaders(t) });
    expect(put.status).toBe(201);
    const token = await put.text();
    const tokenHeader = { 'x-graphql-event-stream-token': token };
    const s = await sseRequest(gw, { method: 'GET', headers: { ...keyHeaders(t), ...tokenHeader } });
    expect(s.status).toBe(200);
    try {
      // another caller cannot use the token
      const other = await createTenant();
      const foreign = await fetch(gw, { method: 'POST', headers: { ...keyHeaders(other), ...tokenHeader, 'content-type': 'application/json' }, body: JSON.stringify({ query: SUB, extensions: { operationId: 'x' } }) });
      expect(foreign.status).toBe(404);
      const start = await fetch(gw, { method: 'POST', headers: { ...keyHeaders(t), ...tokenHeader, 'content-type': 'application/json' }, body: JSON.stringify({ query: SUB, extensions: { operationId: 'op1' } }) });
      expect(start.status).toBe(202);
      await new Promise((r) => setTimeout(r, 200));
      const id = await createProduct(t, 'Single lamp');
      const e = await s.next();
      expect(e.event).toBe('next');
      expect(e.id).toMatch(/^\d+-\d+$/);
      expect(e.data).toMatchObject({ id: 'op1', payload: { data: { productEvents: { productId: id } } } });
      const del = await fetch(`${gw}?operationId=op1`, { method: 'DELETE', headers: { ...keyHeaders(t), ...tokenHeader } });
      expect(del.status).toBe(200);
      expect(await s.next()).toMatchObject({ event: 'complete', data: { id: 'op1' } });
      await createProduct(t, 'After stop');
      expect(await s.quiet(700)).toBe(true);
    } finally {
      s.close();
    }
  });

  test('an operation without operationId is refused naming it', async () => {
    const t = await createTenant();
    const gw = stack().gateway;
    const token = await (await fetch(gw, { method: 'PUT', headers: keyHeaders(t) })).text();
    const s = await sseRequest(gw, { method: 'GET', headers: { ...keyHeaders(t), 'x-graphql-event-stream-token': token } });
    try {
      const r = await fetch(gw, { method: 'POST', headers: { ...keyHeaders(t), 'x-graphql-event-stream-token': token, 'content-type': 'application/json' }, body: JSON.stringify({ query: SUB }) });
      expect(r.status).toBe(400);
      expect((await r.json()).errors[0].extensions.parameter).toBe('extensions.operationId');
    } finally {
      s.close();
    }
  });
});

describe('resumable subscriptions', () => {
  test('reconnecting with Last-Event-ID replays exactly the missed events, then live ones', async () => {
    const t = await createTenant();
    const first = await open(t);
    const p1 = await createProduct(t, 'One');
    const e1 = await first.next();
    expect(e1.data.data.productEvents.productId).toBe(p1);
    first.close();
    const missed = [await createProduct(t, 'Two'), await createProduct(t, 'Three')];
    const again = await open(t, { 'last-event-id': e1.id! });
    try {
      const replayed = [await again.next(), await again.next()];
      expect(replayed.map((e) => e.data.data.productEvents.productId)).toEqual(missed);
      const ids = [e1.id!, ...replayed.map((e) => e.id!)];
      expect(new Set(ids).size).toBe(3);
      const p4 = await createProduct(t, 'Four');
      expect((await again.next()).data.data.productEvents.productId).toBe(p4);
      expect(await again.quiet(500)).toBe(true);
    } finally {
      again.close();
    }
  });

  test('a resume point outside the window answers RESUME_POINT_GONE, then the stream goes on live', async () => {
    const t = await createTenant();
    await createProduct(t, 'Before');
    const s = await open(t, { 'last-event-id': '1-0' });
    try {
      const gone = await s.next();
      expect(gone.data.errors[0].extensions).toMatchObject({ code: 'RESUME_POINT_GONE', status: 410 });
      const id = await createProduct(t, 'Live');
      expect((await s.next()).data.data.productEvents.productId).toBe(id);
    } finally {
      s.close();
    }
  });

  test('a malformed Last-Event-ID is refused 400 naming it', async () => {
    const t = await createTenant();
    const s = await sseRequest(stack().gateway, { headers: { ...keyHeaders(t), 'last-event-id': 'yesterday' }, body: { query: SUB } });
    expect(s.status).toBe(400);
    expect(s.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', parameter: 'Last-Event-ID' });
  });

  test('graphql-ws: results carry extensions.eventId and extensions.resumeFrom replays the missed events', async () => {
    const t = await createTenant();
    const client = createClient({ url: stack().gateway.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: keyHeaders(t), retryAttempts: 0 });
    try {
      const seen: { productId: string; eventId: string }[] = [];
      const listen = (extensions?: Record<string, unknown>) =>
        client.subscribe<{ productEvents: { productId: string } }, { eventId: string }>(
          { query: SUB, ...(extensions ? { extensions } : {}) },
          { next: (v) => seen.push({ productId: v.data!.productEvents.productId, eventId: v.extensions!.eventId }), error: () => undefined, complete: () => undefined },
        );
      let stop = listen();
      await new Promise((r) => setTimeout(r, 400));
      const p1 = await createProduct(t, 'WS one');
      await waitUntil(() => seen.length === 1);
      expect(seen[0].productId).toBe(p1);
      stop();
      const missed = [await createProduct(t, 'WS two'), await createProduct(t, 'WS three')];
      stop = listen({ resumeFrom: seen[0].eventId });
      await waitUntil(() => seen.length === 3);
      expect(seen.slice(1).map((s) => s.productId)).toEqual(missed);
      await new Promise((r) => setTimeout(r, 400));
      expect(seen.length).toBe(3);
      stop();
    } finally {
      await client.dispose();
    }
  });
});

async function waitUntil(ok: () => boolean, timeoutMs = 8000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
