// Prompts end to end: the 10 library templates in every tenant, custom prompts (from scratch and
// cloned), render on both path shapes with the spec's grammar (integer id + prompt_unique_id),
// a missing placeholder named in a 422, execution against a local chat-completions server
// (tokens_used, execution_time_ms, upstream failure and timeout → 503 model_unavailable), the
// RAG Context template filled from an agent's ranked context, and tenancy.
import { gql, jsonApi, rest } from '../harness/client.js';
import { aiUser } from '../harness/ai.js';
import { expectServiceError } from '../harness/security.js';
import { LLM_MODEL, llmAnswer, llmReceived, startLlmServer } from '../harness/llm-server.js';

beforeAll(() => startLlmServer());

test('GET /prompts lists the 10 library templates in a new tenant, then custom prompts; POST /prompts creates and clones', async () => {
  const u = await aiUser();
  const l = await rest('GET', '/prompts', { headers: u.headers });
  expect(l.status).toBe(200);
  expect(l.body.data.map((p: any) => p.attributes.name)).toEqual(['Freeform', 'Persona Agent', 'Structured Output', 'Chain of Thought', 'Few-Shot Learning', 'Self-Critique', 'RAG Context', 'Research Query', 'Fact Check', 'Knowledge Generation']);
  const rag = l.body.data.find((p: any) => p.attributes.name === 'RAG Context');
  expect(rag).toMatchObject({ type: 'prompts', id: expect.stringMatching(/^[0-9a-f-]{36}$/), attributes: { source: 'library', tier: 'specialized', placeholders: ['context', 'question'] } });
  // the same library ids in every tenant
  const other = await aiUser();
  expect((await rest('GET', '/prompts', { headers: other.headers })).body.data.map((p: any) => p.id)).toEqual(l.body.data.map((p: any) => p.id));

  const c = await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'Welcome', content: 'Hello {{user.name}}, your items:\n{{items|bullets}}', description: 'greeting' }), headers: u.headers });
  expect(c.status).toBe(201);
  expect(c.body.data).toMatchObject({ type: 'prompts', attributes: { unique_id: c.body.data.id, name: 'Welcome', source: 'custom', placeholders: ['user', 'items'], description: 'greeting' } });
  const clone = await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'My RAG', template_unique_id: rag.id }), headers: u.headers });
  expect(clone.body.data.attributes).toMatchObject({ content: rag.attributes.content, template_unique_id: rag.id, source: 'custom' });
  const after = await rest('GET', '/prompts', { headers: u.headers });
  expect(after.body.data.slice(10).map((p: any) => p.attributes.name)).toEqual(['Welcome', 'My RAG']);
  // another tenant does not see them
  expect((await rest('GET', '/prompts', { headers: other.headers })).body.data).toHaveLength(10);
  expectServiceError(await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'bad', content: 'x {{a|shout}}' }), headers: u.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'content' });
});

test('render on both path shapes: exact grammar, integer id, prompt_unique_id, placeholders_used; a missing placeholder → 422 naming it', async () => {
  const u = await aiUser();
  const content = 'Dear {{user.name}} ({{user.emails[0]}}),\nSteps:\n{{steps|field:title|numbered}}\nTags: {{tags|join:, }} ({{tags|length}}), first {{tags|first}}, last {{tags|last}}\n{{tags}}';
  const id = (await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'Grammar', content }), headers: u.headers })).body.data.id;
  const placeholders = { user: { name: 'Ada', emails: ['ada@example.com', 'a@b.c'] }, steps: [{ title: 'Plan' }, { title: 'Build' }], tags: ['x', 'y', 'z'] };
  const expected = 'Dear Ada (ada@example.com),\nSteps:\n1. Plan\n2. Build\nTags: x, y, z (3), first x, last z\nx\ny\nz';
  const ids: number[] = [];
  for (const path of [`/ai/v1/prompts/${id}/render`, `/prompts/${id}/render`]) {
    const r = await rest('POST', path, { body: jsonApi('rendered_prompts', { placeholders }), headers: u.headers });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({ type: 'rendered_prompts', id: expect.any(Number), attributes: { prompt_unique_id: id, rendered_content: expected, placeholders_used: ['user', 'steps', 'tags'] } });
    expect(Number.isInteger(r.body.data.id)).toBe(true);
    ids.push(r.body.data.id);
  }
  expect(ids[1]).toBeGreaterThan(ids[0]);
  const miss = expectServiceError(await rest('POST', `/prompts/${id}/render`, { body: jsonApi('rendered_prompts', { placeholders: { user: { name: 'Ada' }, steps: [], tags: [] } }), headers: u.headers }), 'ai', 422, 'missing_placeholder', { parameter: 'placeholders.user.emails' });
  expect(miss.detail).toContain('user.emails');
  // a library template directly
  const lib = (await rest('GET', '/prompts', { headers: u.headers })).body.data.find((p: any) => p.attributes.name === 'Fact Check');
  const f = await rest('POST', `/ai/v1/prompts/${lib.id}/render`, { body: jsonApi('rendered_prompts', { placeholders: { claim: 'Water boils at 100 °C at sea level', evidence: ['Physics textbook', 'NIST data'] } }), headers: u.headers });
  expect(f.body.data.attributes.rendered_content).toContain('Evidence:\n- Physics textbook\n- NIST data');
  // GraphQL
  const g = await gql('mutation($id: ID!, $i: RenderPromptInput!) { renderPrompt(uniqueId: $id, input: $i) { id renderedContent } }', { id, i: { placeholders } }, u.headers);
  expect(g.body.data.renderPrompt.renderedContent).toBe(expected);
  // tenancy: another tenant's prompt, and an unknown id
  const b = await aiUser();
  expectServiceError(await rest('POST', `/prompts/${id}/render`, { body: jsonApi('rendered_prompts', { placeholders }), headers: b.headers }), 'ai', 404, 'prompt_not_found', { parameter: 'unique_id' });
  expectServiceError(await rest('POST', '/prompts/not-a-prompt/render', { body: jsonApi('rendered_prompts', { placeholders }), headers: u.headers }), 'ai', 404, 'prompt_not_found');
});

test('execute: the local chat-completions server answers; response, model, tokens_used, execution_time_ms; failures → 503 model_unavailable', async () => {
  const u = await aiUser();
  const id = (await rest('POST', '/prompts', { body: jsonApi('prompts', { name: 'Ask', content: 'Question: {{q}}\nAnswer briefly.' }), headers: u.headers })).body.data.id;
  const n = (await llmReceived()).length;
  const r = await rest('POST', `/prompts/${id}/execute`, { body: jsonApi('prompt_executions', { placeholders: { q: 'What is the capital of France?' } }), headers: u.headers });
  expect(r.status).toBe(201);
  const rendered = 'Question: What is the capital of France?\nAnswer briefly.';
  const a = llmAnswer(rendered);
  expect(r.body.data).toEqual({
    type: 'prompt_executions',
    id: expect.stringMatching(/^pex_/),
    attributes: { prompt_unique_id: id, rendered_content: rendered, response: a.content, model: LLM_MODEL, tokens_used: a.promptTokens + a.completionTokens, execution_time_ms: expect.any(Number) },
  });
  expect((await llmReceived())[n].body).toMatchObject({ model: LLM_MODEL, messages: [{ role: 'user', content: rendered }] });
  const fail = await rest('POST', `/prompts/${id}/execute`, { body: jsonApi('prompt_executions', { placeholders: { q: 'x [[status:500]]' } }), headers: u.headers });
  expect(expectServiceError(fail, 'ai', 503, 'model_unavailable').detail).toContain('HTTP 500');
  const slow = await rest('POST', `/prompts/${id}/execute`, { body: jsonApi('prompt_executions', { placeholders: { q: 'x [[sleep:2500]]' } }), headers: u.headers });
  expect(expectServiceError(slow, 'ai', 503, 'model_unavailable').detail).toContain('AI_LLM_TIMEOUT_MS');
  expectServiceError(await rest('POST', `/prompts/${id}/execute`, { body: jsonApi('prompt_executions', { placeholders: {} }), headers: u.headers }), 'ai', 422, 'missing_placeholder', { parameter: 'placeholders.q' });
});

test('RAG Context: render fills context with the agent\'s context ranked for the question', async () => {
  const u = await aiUser();
  const agent = 'support-bot';
  for (const content of ['Refunds are paid within 14 days of the return.', 'The office cat is called Miso.', 'Returned items must be unused and in their original box.']) {
    expect((await rest('POST', `/agents/${agent}/context`, { body: jsonApi('agent_context', { content, type: 'policy' }), headers: u.headers })).status).toBe(201);
  }
  const rag = (await rest('GET', '/prompts', { headers: u.headers })).body.data.find((p: any) => p.attributes.name === 'RAG Context');
  const r = await rest('POST', `/prompts/${rag.id}/render`, { body: jsonApi('rendered_prompts', { placeholders: { question: 'How many days until refunds are paid after a return?' }, agent_context: { agent_id: agent, query: 'How many days until refunds are paid after a return?', limit: 2 } }), headers: u.headers });
  expect(r.status).toBe(201);
  const text: string = r.body.data.attributes.rendered_content;
  expect(text).toContain('Context:\n1. Refunds are paid within 14 days of the return.\n2. ');
  expect(text).not.toContain('Miso');
  expect(r.body.data.attributes.placeholders_used).toEqual(['context', 'question']);
});

test('render and execute take the body as the document shows it: a plain { placeholders } object, or a JSON:API document of any data.type', async () => {
  const u = await aiUser();
  const id = (await rest('POST', '/prompts', { body: { name: 'Plain', content: 'Hello {{name}}' }, headers: u.headers })).body.data.id;
  expect(id).toEqual(expect.any(String));
  for (const body of [
    { placeholders: { name: 'Ada' } },
    { data: { type: 'render_requests', attributes: { placeholders: { name: 'Ada' } } } },
    { data: { attributes: { placeholders: { name: 'Ada' } } } },
    { data: { type: 'rendered_prompts', attributes: { placeholders: { name: 'Ada' } } } },
  ]) {
    const r = await rest('POST', `/prompts/${id}/render`, { body, headers: u.headers });
    expect({ body, status: r.status }).toEqual({ body, status: 201 });
    expect(r.body.data.attributes.rendered_content).toBe('Hello Ada');
  }
  const plain = await rest('POST', `/ai/v1/prompts/${id}/render`, { body: { placeholders: { name: 'Bo' } }, headers: u.headers });
  expect(plain.body.data.attributes.rendered_content).toBe('Hello Bo');
  const exec = await rest('POST', `/prompts/${id}/execute`, { body: { placeholders: { name: 'Cy' } }, headers: u.headers });
  expect(exec.status).toBe(201);
  expect(exec.body.data).toMatchObject({ type: 'prompt_executions', attributes: { rendered_content: 'Hello Cy' } });
  const typed = await rest('POST', `/prompts/${id}/execute`, { body: { data: { type: 'execute_requests', attributes: { placeholders: { name: 'Di' } } } }, headers: u.headers });
  expect(typed.status).toBe(201);
  // an attribute the endpoint does not take is named, in either shape
  expectServiceError(await rest('POST', `/prompts/${id}/render`, { body: { placeholder: { name: 'x' } }, headers: u.headers }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'placeholder' });
  // a body that is not an object at all is still refused
  expectServiceError(await rest('POST', `/prompts/${id}/render`, { body: ['x'], headers: u.headers }), 'ai', 400, 'BAD_REQUEST', { parameter: 'data' });
});
