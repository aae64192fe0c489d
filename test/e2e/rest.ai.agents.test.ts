// Agent context end to end: POST /agents/:id/context (201, the spec's fields), invalid-uuid-format,
// replacing by unique_id, listing by reference and type, ranking by similarity, tenancy.
import { randomUUID } from 'node:crypto';
import { gql, jsonApi, rest } from '../harness/client.js';
import { aiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';

test('add with every field → 201 agent_context; a generated unique_id when absent; the same unique_id replaces', async () => {
  const u = await aiUser();
  const uid = randomUUID();
  const r = await rest('POST', '/agents/agent-7/context', { body: jsonApi('agent_context', { unique_id: uid, content: 'Prefers email over phone.', type: 'user_preference', reference: 'crm-42', source_id: 'hubspot:42', source_alias: 'CRM note' }), headers: u.headers });
  expect(r.status).toBe(201);
  expect(r.body.data).toEqual({
    type: 'agent_context',
    id: expect.stringMatching(/^actx_/),
    attributes: { unique_id: uid, content: 'Prefers email over phone.', type: 'user_preference', created_at: expect.any(String), agent_id: 'agent-7', reference: 'crm-42', source_id: 'hubspot:42', source_alias: 'CRM note', score: null },
  });
  const gen = await rest('POST', '/agents/agent-7/context', { body: jsonApi('agent_context', { content: 'Lives in Lisbon.' }), headers: u.headers });
  expect(gen.body.data.attributes.unique_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const again = await rest('POST', '/agents/agent-7/context', { body: jsonApi('agent_context', { unique_id: uid, content: 'Prefers SMS now.', reference: 'crm-42' }), headers: u.headers });
  expect(again.body.data).toMatchObject({ id: r.body.data.id, attributes: { content: 'Prefers SMS now.', type: null } });
  const byRef = await rest('GET', '/agents/agent-7/context?reference=crm-42', { headers: u.headers });
  expect(byRef.body.data.map((c: any) => c.attributes.content)).toEqual(['Prefers SMS now.']);
  expect((await rest('GET', '/agents/agent-7/context', { headers: u.headers })).body.data).toHaveLength(2);
  expect((await rest('GET', '/agents/other-agent/context', { headers: u.headers })).body.data).toEqual([]);
});

test('invalid-uuid-format (400) for a unique_id that is not a UUID; empty content 422', async () => {
  const u = await aiUser();
  const e = expectServiceError(await rest('POST', '/agents/a1/context', { body: jsonApi('agent_context', { unique_id: 'my-custom-id', content: 'x' }), headers: u.headers }), 'ai', 400, 'invalid-uuid-format', { parameter: 'unique_id' });
  expect(e.detail).toContain('reference');
  expectServiceError(await rest('POST', '/agents/a1/context', { body: jsonApi('agent_context', { content: '  ' }), headers: u.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'content' });
  expectServiceError(await rest('POST', '/agents/a1/context', { body: jsonApi('agent_context', { content: 'x'.repeat(5001) }), headers: u.headers }), 'ai', 400, 'text_too_long', { parameter: 'content' });
});

test('query ranks by similarity (best first, with score); another tenant sees none of it', async () => {
  const u = await aiUser();
  const texts = ['The customer is allergic to peanuts.', 'The customer ordered a blue bicycle last week.', 'Delivery should go to the back door.'];
  for (const content of texts) await rest('POST', '/agents/shop/context', { body: jsonApi('agent_context', { content }), headers: u.headers });
  const r = await rest('GET', `/agents/shop/context?query=${encodeURIComponent('which bicycle did the customer order')}&limit=2`, { headers: u.headers });
  expect(r.status).toBe(200);
  expect(r.body.data).toHaveLength(2);
  expect(r.body.data[0].attributes.content).toBe(texts[1]);
  expect(r.body.data[0].attributes.score).toBeGreaterThan(r.body.data[1].attributes.score);
  const g = await gql('query { agentContext(agentId: "shop", filter: { query: "peanut allergy" }) { content score } }', {}, u.headers);
  expect(g.body.data.agentContext[0].content).toBe(texts[0]);
  const b = await aiUser();
  expect((await rest('GET', '/agents/shop/context', { headers: b.headers })).body.data).toEqual([]);
});

test('the agent context body as the document shows it: plain fields, or a JSON:API document of any data.type', async () => {
  const u = await aiUser();
  const plain = await rest('POST', '/agents/agent-9/context', { body: { content: 'Prefers tea.', type: 'user_preference', reference: 'crm-9' }, headers: u.headers });
  expect(plain.status).toBe(201);
  expect(plain.body.data).toMatchObject({ type: 'agent_context', attributes: { content: 'Prefers tea.', type: 'user_preference', reference: 'crm-9' } });
  const typed = await rest('POST', '/agents/agent-9/context', { body: { data: { type: 'agent_contexts', attributes: { content: 'Lives in Porto.' } } }, headers: u.headers });
  expect(typed.status).toBe(201);
  expect(typed.body.data.attributes.content).toBe('Lives in Porto.');
  expectServiceError(await rest('POST', '/agents/agent-9/context', { body: { unique_id: 'not-a-uuid', content: 'x' }, headers: u.headers }), 'ai', 400, 'invalid-uuid-format', { parameter: 'unique_id' });
  expectServiceError(await rest('POST', '/agents/agent-9/context', { body: { content: 'x', colour: 'red' }, headers: u.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'colour' });
});
