// AI webhooks: POST /ai/v1/webhooks on the kernel's outbox; moderation.flagged and batch.completed
// delivered to a local receiver with the kernel's X-Webhook-Signature; moderation.flagged also on the
// aiEvents subscription.
import { gql, jsonApi, rest, stack } from '../harness/client.js';
import { aiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver } from '../harness/webhook-receiver.js';
import { subscribe, wsClient } from '../harness/ws.js';
import { verifyWebhook } from '../../lib/webhooks/index.js';


const SECRET = 'ai-webhook-secret-123';

test('moderation.flagged and batch.completed reach the registered URL, signed; an unflagged text sends nothing', async () => {
  const u = await aiUser();
  const rx = await startReceiver();
  try {
    const r = await rest('POST', '/ai/v1/webhooks', { body: jsonApi('webhooks', { url: rx.url, events: ['moderation.flagged', 'batch.completed'], secret: SECRET }), headers: u.headers });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ type: 'webhooks', attributes: { url: expect.stringMatching(new RegExp(`^${rx.url}/?$`)), events: ['moderation.flagged', 'batch.completed'], active: true } });
    expect(JSON.stringify(r.body)).not.toContain(SECRET);

    await rest('POST', '/ai/v1/moderation/text', { body: jsonApi('moderation_requests', { text: 'Have a lovely day.' }), headers: u.headers });
    const m = await rest('POST', '/ai/v1/moderation/text', { body: jsonApi('moderation_requests', { text: 'I will kill you tomorrow.' }), headers: u.headers });
    expect(m.body.data.attributes.flagged).toBe(true);
    const flagged = await rx.waitFor((x) => x.json?.event === 'moderation.flagged', 15_000);
    expect(flagged.json.data).toMatchObject({ moderation_id: m.body.data.id, action: 'block', user_unique_id: u.user, categories: { violence: { flagged: true } } });
    expect(flagged.body).not.toContain('kill');
    expect(verifyWebhook(SECRET, flagged.body, String(flagged.headers['x-webhook-signature'])).ok).toBe(true);

    const b = await rest('POST', '/ai/v1/batches', { body: jsonApi('batch_requests', { operation: 'language', inputs: ['bonjour à tous', 'hello everyone'] }), headers: u.headers });
    expect(b.status).toBe(202);
    const done = await rx.waitFor((x) => x.json?.event === 'batch.completed', 20_000);
    expect(done.json.data).toEqual({ batch_id: b.body.data.id, operation: 'language', status: 'completed', total: 2 });
    expect(rx.received.filter((x) => x.json?.event === 'moderation.flagged')).toHaveLength(1);
  } finally {
    await rx.close();
  }
});

test('moderation.flagged on the aiEvents subscription: the verdict and the flagged categories, never the text; not for an allowed text or another app', async () => {
  const [u, other] = await Promise.all([aiUser(), aiUser()]);
  const query = 'subscription { aiEvents { event status moderationId content action flaggedCategories batch { id } } }';
  const [sub, otherSub] = await Promise.all([subscribe(wsClient(stack().gateway, u.headers), query), subscribe(wsClient(stack().gateway, other.headers), query)]);
  try {
    await rest('POST', '/ai/v1/moderation/text', { body: jsonApi('moderation_requests', { text: 'Have a lovely day.' }), headers: u.headers });
    expect(await sub.quiet(500)).toBe(true);
    const m = await rest('POST', '/ai/v1/moderation/text', { body: jsonApi('moderation_requests', { text: 'I will kill you tomorrow.' }), headers: u.headers });
    expect(m.body.data.attributes).toMatchObject({ flagged: true, action: 'block' });
    const ev = await sub.next(15_000);
    expect(ev.aiEvents).toEqual({ event: 'moderation.flagged', status: 'flagged', moderationId: m.body.data.id, content: 'text', action: 'block', flaggedCategories: ['violence'], batch: null });
    expect(JSON.stringify(ev)).not.toContain('kill');
    expect(await otherSub.quiet(500)).toBe(true);
  } finally {
    await Promise.all([sub.close(), otherSub.close()]);
  }
});

test('an unknown event → 422 naming events; GraphQL lists the app\'s webhooks only', async () => {
  const [a, b] = await Promise.all([aiUser(), aiUser()]);
  expectServiceError(await rest('POST', '/ai/v1/webhooks', { body: jsonApi('webhooks', { url: 'http://127.0.0.1:9/x', events: ['index.created'], secret: SECRET }), headers: a.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'events[0]' });
  const g = await gql('mutation($i: AiWebhookInput!) { registerAiWebhook(input: $i) { id events } }', { i: { url: 'http://127.0.0.1:9/y', events: ['batch.completed'], secret: SECRET } }, a.headers);
  expect(g.body.errors).toBeUndefined();
  const mine = await gql('{ aiWebhooks { id } }', {}, a.headers);
  expect(mine.body.data.aiWebhooks.map((w: any) => w.id)).toEqual([g.body.data.registerAiWebhook.id]);
  const theirs = await gql('{ aiWebhooks { id } }', {}, b.headers);
  expect(theirs.body.data.aiWebhooks).toEqual([]);
});

test('secret: any non-empty string is taken (the document sets no length; whsec_test_123 is 14 characters); empty → 422 naming secret', async () => {
  const u = await aiUser();
  const short = await rest('POST', '/ai/v1/webhooks', { body: jsonApi('webhooks', { url: 'http://127.0.0.1:9/s', events: ['batch.completed'], secret: 'whsec_test_123' }), headers: u.headers });
  expect(short.status).toBe(201);
  expect(JSON.stringify(short.body)).not.toContain('whsec_test_123');
  expectServiceError(await rest('POST', '/ai/v1/webhooks', { body: jsonApi('webhooks', { url: 'http://127.0.0.1:9/s', events: ['batch.completed'], secret: '' }), headers: u.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'secret' });
});
