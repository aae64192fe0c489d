// AI webhooks read and removed: GET /ai/v1/webhooks, GET and DELETE /ai/v1/webhooks/:webhook_id and
// its delivery log, as the catalog and search webhooks have. Another app's id answers 404 like an
// unknown one; a stopped webhook receives no new deliveries.
import { jsonApi, rest } from '../harness/client.js';
import { aiUser, type AiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver } from '../harness/webhook-receiver.js';

const SECRET = 'ai-webhook-admin-secret-1';

async function register(u: AiUser, url: string, events: string[]): Promise<string> {
  const r = await rest('POST', '/ai/v1/webhooks', { body: jsonApi('webhooks', { url, events, secret: SECRET }), headers: u.headers });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

test('list, get, the delivery log with each attempt, then DELETE: the webhook is gone from the list and gets no new deliveries', async () => {
  const u = await aiUser();
  const rx = await startReceiver();
  try {
    const id = await register(u, rx.url, ['moderation.flagged']);
    const other = await register(u, `${rx.url}/other`, ['batch.completed']);
    const list = await rest('GET', '/ai/v1/webhooks', { headers: u.headers });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: any) => w.id)).toEqual([id, other]);
    expect(list.body.data[0]).toMatchObject({ type: 'webhooks', attributes: { events: ['moderation.flagged'], active: true } });
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    const one = await rest('GET', `/ai/v1/webhooks/${id}`, { headers: u.headers });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id, type: 'webhooks', attributes: { url: expect.stringContaining(rx.url.replace(/\/$/, '')), active: true } });

    const m = await rest('POST', '/ai/v1/moderation/text', { body: jsonApi('moderation_requests', { text: 'I will kill you tomorrow.' }), headers: u.headers });
    expect(m.body.data.attributes.flagged).toBe(true);
    await rx.waitFor((x) => x.json?.event === 'moderation.flagged', 15_000);
    let log: any;
    for (let i = 0; i < 50; i++) {
      log = await rest('GET', `/ai/v1/webhooks/${id}/deliveries?limit=5`, { headers: u.headers });
      if (log.body.data?.[0]?.attributes.status === 'delivered') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ type: 'webhook_deliveries', attributes: { event: 'moderation.flagged', status: 'delivered', attempts: 1, last_status_code: 200 } });
    expect(log.body.data[0].attributes.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
    expect(JSON.parse(log.body.data[0].attributes.body)).toMatchObject({ event: 'moderation.flagged', data: { moderation_id: m.body.data.id } });
    expect((await rest('GET', `/ai/v1/webhooks/${other}/deliveries`, { headers: u.headers })).body.data).toEqual([]);
    expectServiceError(await rest('GET', `/ai/v1/webhooks/${id}/deliveries?limit=0`, { headers: u.headers }), 'ai', 400, ['BAD_REQUEST', 'VALIDATION_FAILED'], { parameter: 'limit' });

    const del = await rest('DELETE', `/ai/v1/webhooks/${id}`, { headers: u.headers });
    expect(del.status).toBe(200);
    expect(del.body.data).toMatchObject({ id, attributes: { active: false } });
    expect((await rest('GET', '/ai/v1/webhooks', { headers: u.headers })).body.data.map((w: any) => w.id)).toEqual([other]);
    expectServiceError(await rest('GET', `/ai/v1/webhooks/${id}`, { headers: u.headers }), 'ai', 404, 'NOT_FOUND', { parameter: 'webhook_id' });
    expectServiceError(await rest('DELETE', `/ai/v1/webhooks/${id}`, { headers: u.headers }), 'ai', 404, 'NOT_FOUND', { parameter: 'webhook_id' });

    const before = rx.received.length;
    await rest('POST', '/ai/v1/moderation/text', { body: jsonApi('moderation_requests', { text: 'I will kill you tomorrow.' }), headers: u.headers });
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.received.length).toBe(before);
  } finally {
    await rx.close();
  }
});

test("another app's webhook id is 404 on get, deliveries and delete, and stays active", async () => {
  const [a, b] = await Promise.all([aiUser(), aiUser()]);
  const id = await register(a, 'http://127.0.0.1:9/hook', ['batch.completed']);
  for (const [method, path] of [
    ['GET', `/ai/v1/webhooks/${id}`],
    ['GET', `/ai/v1/webhooks/${id}/deliveries`],
    ['DELETE', `/ai/v1/webhooks/${id}`],
  ] as const) {
    expectServiceError(await rest(method, path, { headers: b.headers }), 'ai', 404, 'NOT_FOUND', { parameter: 'webhook_id' });
  }
  expect((await rest('GET', '/ai/v1/webhooks', { headers: b.headers })).body.data).toEqual([]);
  expect((await rest('GET', `/ai/v1/webhooks/${id}`, { headers: a.headers })).body.data.attributes.active).toBe(true);
  expectServiceError(await rest('GET', '/ai/v1/webhooks/whk_doesnotexist', { headers: a.headers }), 'ai', 404, 'NOT_FOUND', { parameter: 'webhook_id' });
  expectServiceError(await rest('DELETE', '/ai/v1/webhooks/not-an-id', { headers: a.headers }), 'ai', 404, 'NOT_FOUND', { parameter: 'webhook_id' });
});
