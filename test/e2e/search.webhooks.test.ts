// Webhooks end to end: a real HTTP receiver gets every part-B event, signed (X-Webhook-Signature and
// the X-Signature docs/search.md promised, HMAC-SHA256 of "<t>.<body>" with the webhook's secret), retried with backoff after failures, every attempt logged.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../lib/webhooks/index.js';
import { createTenant, jsonApi, rest, type Tenant } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { addDocuments, createIndex, settle, sleep } from './search.helpers.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  json: any;
}

const SECRET = 'whsec_test_0123456789abcdef';
const verifySignature = (secret: string, body: string, header: string) => verifyWebhook(secret, body, header).ok;
let server: Server;
let url: string;
const received: Received[] = [];
/** how many of the next requests answer 500 */
let failNext = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end('try later');
        return;
      }
      received.push({ headers: req.headers, body, json: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function waitFor(pred: (r: Received) => boolean, timeoutMs = 10_000): Promise<Received> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = received.find(pred);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no matching delivery; got ${received.map((r) => r.json.event).join(', ')}`);
    await sleep(50);
  }
}

function register(t: Tenant, attrs: Record<string, unknown>) {
  return rest('POST', '/search/v1/webhooks', { body: jsonApi('webhooks', attrs), headers: t.keyHeaders });
}

const ALL = ['indexing.completed', 'indexing.failed', 'index.created', 'index.deleted', 'settings.updated'];

describe('webhooks', () => {
  let t: Tenant;
  let hookId: string;
  beforeAll(async () => {
    t = await createTenant();
    const r = await register(t, { url, events: ALL, secret: SECRET });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ type: 'webhooks', id: expect.stringMatching(/^whk_/), attributes: { url, events: ALL, active: true } });
    expect(JSON.stringify(r.body)).not.toContain(SECRET);
    hookId = r.body.data.id;
  });

  test('every event is delivered, signed, with the documented payloads', async () => {
    const uid = await createIndex(t, { primary_key: 'id' });
    const created = await waitFor((r) => r.json.event === 'index.created' && r.json.data.index_uid === uid);
    expect(created.json).toEqual({ event: 'index.created', occurred_at: expect.any(String), data: { index_uid: uid, primary_key: 'id', task_id: expect.any(String) } });
    expect(verifySignature(SECRET, created.body, String(created.headers['x-signature']))).toBe(true);
    expect(verifySignature('another-secret-000000', created.body, String(created.headers['x-signature']))).toBe(false);
    expect(created.headers['x-webhook-signature']).toBe(created.headers['x-signature']);
    expect(created.headers['x-webhook-event']).toBe('index.created');
    expect(created.headers['x-webhook-id']).toMatch(/^whd_/);

    const task = await addDocuments(t, uid, [{ id: 1 }, { id: 2 }]);
    const done = await waitFor((r) => r.json.event === 'indexing.completed' && r.json.data.task_id === task.id);
    expect(done.json.data).toEqual({ task_id: task.id, index_uid: uid, documents_indexed: 2, duration_ms: expect.any(Number) });
    expect(verifySignature(SECRET, done.body, String(done.headers['x-signature']))).toBe(true);

    const bad = await addDocuments(t, uid, [{ id: 'no spaces allowed' }]);
    const failed = await waitFor((r) => r.json.event === 'indexing.failed' && r.json.data.task_id === bad.id);
    expect(failed.json.data).toMatchObject({ index_uid: uid, error: { code: 'invalid_document_id' } });

    await settle(t, await rest('PATCH', `/search/v1/indexes/${uid}/settings`, { body: jsonApi('index_settings', { filterable_attributes: ['id'] }), headers: t.keyHeaders }));
    const settings = await waitFor((r) => r.json.event === 'settings.updated' && r.json.data.index_uid === uid);
    expect(settings.json.data.settings).toEqual({ filterable_attributes: ['id'] });

    await settle(t, await rest('DELETE', `/search/v1/indexes/${uid}`, { headers: t.keyHeaders }));
    const deleted = await waitFor((r) => r.json.event === 'index.deleted' && r.json.data.index_uid === uid);
    expect(deleted.json.data).toMatchObject({ deleted_documents: 2 });
  });

  test('a failing receiver is retried with backoff until it answers 2xx; every attempt is logged', async () => {
    failNext = 2;
    const uid = await createIndex(t);
    const got = await waitFor((r) => r.json.event === 'index.created' && r.json.data.index_uid === uid);
    expect(got.headers['x-webhook-attempt']).toBe('3');
    const log = await rest('GET', `/search/v1/webhooks/${hookId}/deliveries?limit=5`, { headers: t.keyHeaders });
    expect(log.status).toBe(200);
    const d = log.body.data.find((x: any) => x.id === got.headers['x-webhook-id']);
    expect(d.attributes).toMatchObject({ event: 'index.created', status: 'delivered', attempts: 3, last_status_code: 204 });
    expect(d.attributes.attempt_log.map((a: any) => a.status_code)).toEqual([500, 500, 204]);
    const gaps = d.attributes.attempt_log.map((a: any) => Date.parse(a.created_at));
    // backoff doubles (200 ms, then 400 ms in the test stack)
    expect(gaps[2] - gaps[1]).toBeGreaterThanOrEqual(gaps[1] - gaps[0]);
  });

  test('only subscribed events, only to the owning tenant; a deleted webhook gets nothing new', async () => {
    const other = await createTenant();
    const r = await register(other, { url, events: ['index.deleted'], secret: SECRET });
    const uid = await createIndex(other);
    await sleep(600);
    expect(received.some((x) => x.json.data.index_uid === uid)).toBe(false);
    const list = await rest('GET', '/search/v1/webhooks', { headers: other.keyHeaders });
    expect(list.body.data.map((w: any) => w.id)).toEqual([r.body.data.id]);
    expect((await rest('DELETE', `/search/v1/webhooks/${r.body.data.id}`, { headers: other.keyHeaders })).body.data.attributes.active).toBe(false);
    await settle(other, await rest('DELETE', `/search/v1/indexes/${uid}`, { headers: other.keyHeaders }));
    await sleep(600);
    expect(received.some((x) => x.json.data.index_uid === uid)).toBe(false);
    expectServiceError(await rest('DELETE', `/search/v1/webhooks/${r.body.data.id}`, { headers: other.keyHeaders }), 'search', 404, 'webhook_not_found');
    expectServiceError(await rest('GET', `/search/v1/webhooks/${hookId}/deliveries`, { headers: other.keyHeaders }), 'search', 404, 'webhook_not_found');
  });

  test('registration is validated: url, events, secret', async () => {
    expectServiceError(await register(t, { url: 'ftp://example.com/x', events: ['index.created'], secret: SECRET }), 'search', 400, 'invalid_webhook_url', { parameter: 'url' });
    expectServiceError(await register(t, { url: 'not a url', events: ['index.created'], secret: SECRET }), 'search', 400, 'invalid_webhook_url', { parameter: 'url' });
    expectServiceError(await register(t, { url, events: ['index.renamed'], secret: SECRET }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'events[0]' });
    expectServiceError(await register(t, { url, events: [], secret: SECRET }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'events' });
    expectServiceError(await register(t, { url, events: ['index.created'], secret: '' }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'secret' });
    // the document puts no bound on the secret: a short one is the client's choice
    expect((await register(t, { url, events: ['index.created'], secret: 'whsec_test_123' })).status).toBe(201);
    expectServiceError(await register(t, { url, events: ['index.created'] }), 'search', 422, 'VALIDATION_FAILED', { parameter: 'secret' });
  });
});
