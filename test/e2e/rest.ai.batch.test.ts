// AI batches end to end: accepted (202), run by the kernel job queue in the ai subgraph, results
// equal to the single endpoint's, batch.completed on the aiEvents subscription, tenancy and errors.
import { gql, jsonApi, rest, stack } from '../harness/client.js';
import { aiUser, type AiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';
import { subscribe, wsClient } from '../harness/ws.js';


async function done(u: AiUser, id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 150; i++) {
    const r = await rest('GET', `/ai/v1/batches/${id}`, { headers: u.headers });
    expect(r.status).toBe(200);
    if (['completed', 'failed'].includes(r.body.data.attributes.status)) return r.body.data;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`batch ${id} did not finish`);
}

const TEXTS = ['The soup was wonderful and the staff were kind.', 'The delivery was late and the box arrived broken.', 'Preheat the oven to 180 degrees.'];

test('POST /ai/v1/batches → 202 queued; the job completes it with the single endpoint\'s answers; batch.completed is published', async () => {
  const u = await aiUser();
  const sub = await subscribe(wsClient(stack().gateway, u.headers), 'subscription { aiEvents { event batchId operation status batch { status total } } }');
  try {
    const r = await rest('POST', '/ai/v1/batches', { body: jsonApi('batch_requests', { operation: 'sentiment', inputs: TEXTS }), headers: u.headers });
    expect(r.status).toBe(202);
    expect(r.body.data).toMatchObject({ type: 'batches', id: expect.stringMatching(/^bat_/), attributes: { operation: 'sentiment', status: 'queued', total: 3, processed: 0, results: null } });
    const b = await done(u, r.body.data.id);
    expect(b.attributes).toMatchObject({ status: 'completed', processed: 3, total: 3 });
    for (const [i, text] of TEXTS.entries()) {
      const single = await rest('POST', '/ai/v1/text/sentiment', { body: jsonApi('sentiment_requests', { text }), headers: u.headers });
      const { id: _id, model: _m, ...attrs } = { id: 0, ...single.body.data.attributes };
      expect(b.attributes.results[i]).toEqual(attrs);
    }
    const ev = await sub.next(10_000);
    expect(ev.aiEvents).toEqual({ event: 'batch.completed', batchId: r.body.data.id, operation: 'sentiment', status: 'completed', batch: { status: 'completed', total: 3 } });
  } finally {
    await sub.close();
  }
});

test('GraphQL: createAiBatch for entities, then aiBatch gives entities per input', async () => {
  const u = await aiUser();
  const c = await gql('mutation($i: BatchInput!) { createAiBatch(input: $i) { id status total } }', { i: { operation: 'entities', inputs: ['Ada Lovelace lived in London.'], types: ['PERSON', 'LOCATION'] } }, u.headers);
  expect(c.body.errors).toBeUndefined();
  const b = await done(u, c.body.data.createAiBatch.id);
  expect(b.attributes.results[0].entities.map((e: any) => `${e.type}:${e.text}`)).toEqual(['PERSON:Ada Lovelace', 'LOCATION:London']);
  const g = await gql('query($id: ID!) { aiBatch(id: $id) { status processed } }', { id: b.id }, u.headers);
  expect(g.body.data.aiBatch).toEqual({ status: 'completed', processed: 1 });
});

test("another tenant's batch → 404 batch_not_found; bad operation and too many inputs → 422", async () => {
  const [a, b] = await Promise.all([aiUser(), aiUser()]);
  const r = await rest('POST', '/ai/v1/batches', { body: jsonApi('batch_requests', { operation: 'language', inputs: ['hola amigos'] }), headers: a.headers });
  expect(r.status).toBe(202);
  expectServiceError(await rest('GET', `/ai/v1/batches/${r.body.data.id}`, { headers: b.headers }), 'ai', 404, 'batch_not_found', { parameter: 'batch_id' });
  expectServiceError(await rest('POST', '/ai/v1/batches', { body: jsonApi('batch_requests', { operation: 'translate', inputs: ['x'] }), headers: a.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'operation' });
  expectServiceError(await rest('POST', '/ai/v1/batches', { body: jsonApi('batch_requests', { operation: 'sentiment', inputs: Array(1001).fill('x') }), headers: a.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'inputs' });
  expectServiceError(await rest('POST', '/ai/v1/batches', { body: jsonApi('batch_requests', { operation: 'sentiment', inputs: ['ok', 'a'.repeat(5001)] }), headers: a.headers }), 'ai', 400, 'text_too_long', { parameter: 'inputs' });
});
