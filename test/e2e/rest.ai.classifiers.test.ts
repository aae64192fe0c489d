// Custom classifiers end to end: create, train as a kernel job (202 at once), classifier.trained on
// the aiEvents subscription and the AI webhooks, classify with per-label confidence, held-out
// accuracy, retraining replacing the model, tenancy and errors.
import { gql, jsonApi, rest, stack } from '../harness/client.js';
import { aiUser, type AiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver } from '../harness/webhook-receiver.js';
import { subscribe, wsClient } from '../harness/ws.js';
import { verifyWebhook } from '../../lib/webhooks/index.js';

// intents of a support inbox, written by hand: five per label
const EXAMPLES = [
  ['Where is my parcel? It has not arrived yet', 'shipping'],
  ['My order still shows in transit after ten days', 'shipping'],
  ['Can you tell me the tracking number of my delivery', 'shipping'],
  ['The courier left my package at the wrong address', 'shipping'],
  ['How long does shipping to Canada take', 'shipping'],
  ['I was charged twice for the same order', 'billing'],
  ['Please send me an invoice for my last payment', 'billing'],
  ['My credit card was declined at checkout', 'billing'],
  ['I want a refund of the amount you charged', 'billing'],
  ['Why is there an extra fee on my bill', 'billing'],
  ['I cannot log in to my account', 'account'],
  ['How do I reset my password', 'account'],
  ['Please delete my account and my data', 'account'],
  ['I want to change the email address of my profile', 'account'],
  ['My account was locked after too many attempts', 'account'],
].map(([text, label]) => ({ text, label }));

async function trained(u: AiUser, id: string, version: number): Promise<Record<string, any>> {
  for (let i = 0; i < 150; i++) {
    const r = await rest('GET', `/ai/v1/classifiers/${id}`, { headers: u.headers });
    if (r.body.data.attributes.model_version >= version) return r.body.data;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`classifier ${id} did not reach version ${version}`);
}

test('create → train (202, job) → classifier.trained on aiEvents and the webhook → classify with per-label confidence', async () => {
  const u = await aiUser();
  const rx = await startReceiver();
  const secret = 'classifier-hook-secret';
  const sub = await subscribe(wsClient(stack().gateway, u.headers), 'subscription { aiEvents { event status classifierId trainingId modelVersion accuracy batch { id } } }');
  try {
    expect((await rest('POST', '/ai/v1/webhooks', { body: jsonApi('webhooks', { url: rx.url, events: ['classifier.trained'], secret }), headers: u.headers })).status).toBe(201);
    const c = await rest('POST', '/ai/v1/classifiers', { body: jsonApi('classifiers', { name: 'Support intents', description: 'inbox routing', labels: ['shipping', 'billing', 'account'] }), headers: u.headers });
    expect(c.status).toBe(201);
    expect(c.body.data).toMatchObject({ type: 'classifiers', id: expect.stringMatching(/^clf_/), attributes: { name: 'Support intents', labels: ['shipping', 'billing', 'account'], status: 'untrained', model_version: 0, accuracy: null } });
    const id = c.body.data.id;

    expectServiceError(await rest('POST', `/ai/v1/classifiers/${id}/classify`, { body: jsonApi('classification_requests', { text: 'refund please' }), headers: u.headers }), 'ai', 409, 'classifier_not_trained', { parameter: 'classifier_id' });

    const t = await rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: EXAMPLES }), headers: u.headers });
    expect(t.status).toBe(202);
    expect(t.body.data).toMatchObject({ type: 'classifier_trainings', id: expect.stringMatching(/^ctr_/), attributes: { classifier_id: id, status: 'queued', examples: 15 } });

    const ev = await sub.next(15_000);
    expect(ev.aiEvents).toEqual({ event: 'classifier.trained', status: 'succeeded', classifierId: id, trainingId: t.body.data.id, modelVersion: 1, accuracy: expect.any(Number), batch: null });
    const hook = await rx.waitFor((x) => x.json?.event === 'classifier.trained', 15_000);
    expect(hook.json.data).toMatchObject({ classifier_id: id, training_id: t.body.data.id, status: 'succeeded', model_version: 1, held_out_examples: 3, train_examples: 12 });
    expect(verifyWebhook(secret, hook.body, String(hook.headers['x-webhook-signature'])).ok).toBe(true);

    const tr = await rest('GET', `/ai/v1/trainings/${t.body.data.id}`, { headers: u.headers });
    expect(tr.body.data.attributes).toMatchObject({ status: 'succeeded', held_out_examples: 3, train_examples: 12, model_version: 1, accuracy: ev.aiEvents.accuracy });
    // 3 held-out sentences (one per label): the share right, measured by a model trained on the other 12
    expect([0, 0.3333, 0.6667, 1]).toContain(ev.aiEvents.accuracy);

    const r = await rest('POST', `/ai/v1/classifiers/${id}/classify`, { body: jsonApi('classification_requests', { text: 'I forgot my password and cannot sign in' }), headers: u.headers });
    expect(r.status).toBe(200);
    const preds = r.body.data.attributes.predictions;
    expect(r.body.data.attributes).toMatchObject({ model_version: 1, model: 'softmax-regression+glove-sif-100d' });
    expect(preds.map((p: any) => p.label).sort()).toEqual(['account', 'billing', 'shipping']);
    expect(preds[0].label).toBe('account');
    expect(preds.reduce((s: number, p: any) => s + p.confidence, 0)).toBeCloseTo(1, 2);
    expect(preds[0].confidence).toBeGreaterThan(preds[1].confidence);
    const billing = await rest('POST', `/ai/v1/classifiers/${id}/classify`, { body: jsonApi('classification_requests', { text: 'you charged my card twice, refund me' }), headers: u.headers });
    expect(billing.body.data.attributes.predictions[0].label).toBe('billing');
  } finally {
    await sub.close();
    await rx.close();
  }
});

test('retraining replaces the model atomically: classify answers the old version until the new one is in, then only the new', async () => {
  const u = await aiUser();
  const id = (await rest('POST', '/ai/v1/classifiers', { body: jsonApi('classifiers', { name: 'flip', labels: ['a', 'b'] }), headers: u.headers })).body.data.id;
  const examples = (x: string, y: string) => [
    { text: 'red apple', label: x },
    { text: 'red cherry', label: x },
    { text: 'green grass', label: y },
    { text: 'green leaf', label: y },
  ];
  await rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: examples('a', 'b') }), headers: u.headers });
  await trained(u, id, 1);
  const q = () => rest('POST', `/ai/v1/classifiers/${id}/classify`, { body: jsonApi('classification_requests', { text: 'a red rose' }), headers: u.headers });
  expect((await q()).body.data.attributes.predictions[0].label).toBe('a');
  await rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: examples('b', 'a') }), headers: u.headers });
  const seen: [number, string][] = [];
  for (let i = 0; i < 200; i++) {
    const a = (await q()).body.data.attributes;
    seen.push([a.model_version, a.predictions[0].label]);
    if (a.model_version === 2) break;
  }
  // every answer is consistent with its version: v1 says a, v2 says b
  for (const [v, label] of seen) expect(label).toBe(v === 1 ? 'a' : 'b');
  expect(seen[seen.length - 1][0]).toBe(2);
  const g = await gql('query($id: ID!) { classifier(id: $id) { status modelVersion } classifiers { id } }', { id }, u.headers);
  expect(g.body.data).toEqual({ classifier: { status: 'trained', modelVersion: 2 }, classifiers: [{ id }] });
});

test('errors: unknown or foreign classifier 404 classifier_not_found; bad labels and examples 422 naming them; text_too_long', async () => {
  const [a, b] = await Promise.all([aiUser(), aiUser()]);
  const id = (await rest('POST', '/ai/v1/classifiers', { body: jsonApi('classifiers', { name: 'x', labels: ['yes', 'no'] }), headers: a.headers })).body.data.id;
  expectServiceError(await rest('POST', `/ai/v1/classifiers/${id}/classify`, { body: jsonApi('classification_requests', { text: 'hi' }), headers: b.headers }), 'ai', 404, 'classifier_not_found', { parameter: 'classifier_id' });
  expectServiceError(await rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: EXAMPLES }), headers: b.headers }), 'ai', 404, 'classifier_not_found', { parameter: 'classifier_id' });
  expectServiceError(await rest('POST', '/ai/v1/classifiers/clf_missing/classify', { body: jsonApi('classification_requests', { text: 'hi' }), headers: a.headers }), 'ai', 404, 'classifier_not_found');
  expectServiceError(await rest('POST', '/ai/v1/classifiers', { body: jsonApi('classifiers', { name: 'x', labels: ['only'] }), headers: a.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'labels' });
  expectServiceError(await rest('POST', '/ai/v1/classifiers', { body: jsonApi('classifiers', { name: 'x', labels: ['a', 'a'] }), headers: a.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'labels' });
  expectServiceError(await rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: [{ text: 'x', label: 'yes' }, { text: 'y', label: 'maybe' }] }), headers: a.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'examples[1].label' });
  expectServiceError(await rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: [{ text: 'x', label: 'yes' }, { text: 'y', label: 'yes' }] }), headers: a.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'examples' });
  expectServiceError(await rest('POST', `/ai/v1/classifiers/${id}/train`, { body: jsonApi('training_data', { examples: [{ text: 'x', label: 'yes' }, { text: 'y'.repeat(5001), label: 'no' }] }), headers: a.headers }), 'ai', 400, 'text_too_long', { parameter: 'examples[1].text' });
  expectServiceError(await rest('POST', `/ai/v1/classifiers/${id}/classify`, { body: jsonApi('classification_requests', { text: 'z'.repeat(5001) }), headers: a.headers }), 'ai', 400, 'text_too_long', { parameter: 'text' });
});
