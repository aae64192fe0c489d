// Per-tenant choice of the operator's model servers (docs/ai.md, Model choices), end to end over REST
// and GraphQL: an AI subgraph of its own (TEST_PORT_BASE + 1681) on the test stack's database, with
// an operator default embedding server (AI_EMBEDDINGS_URL) and named servers (AI_MODEL_SERVERS) for
// embeddings, moderation and summaries, all on one local server this test starts that speaks the
// OpenAI embeddings, moderation and chat-completions protocols (+ 1680); a gateway (+ 1682) and a
// REST bridge (+ 1683) of its own in front. Checks: the answers' `model` names what ran, the plan
// refusal, unknown names, and that one tenant's choice never reaches another.
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { aiUser, spawnAiSubgraph, type AiUser } from '../harness/ai.js';
import { listenLocal } from '../harness/json-server.js';
import { jsonApi, stack, type HttpResult } from '../harness/client.js';
import { expectServiceError } from '../harness/security.js';
import { spawnScript, stop, waitFor } from '../harness/spawn.js';
import { spawnStackGateway } from '../harness/stack-gateway.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const SERVER_PORT = BASE + 1680;
const AI_PORT = BASE + 1681;
const GATEWAY_PORT = BASE + 1682;
const REST_PORT = BASE + 1683;
const URL_V1 = `http://127.0.0.1:${SERVER_PORT}/v1`;
/** the model each request named, by path */
const received: Array<{ path: string; model: string }> = [];
let server: Server;
let ai: ChildProcess;
let gateway: ChildProcess;
let bridge: ChildProcess;
let growth: AiUser;
let other: AiUser;
let free: AiUser;

beforeAll(async () => {
  server = await listenLocal(({ path, body }) => {
    received.push({ path, model: body.model });
    if (path === '/v1/embeddings') return { body: { data: (body.input as string[]).map((t, index) => ({ index, embedding: [t.length, 1, 0] })), model: body.model, usage: { prompt_tokens: 3 } } };
    if (path === '/v1/moderations') return { body: { results: [{ category_scores: { violence: 0.91, hate: 0.02 } }] } };
    if (path === '/v1/chat/completions') return { body: { model: body.model, choices: [{ message: { role: 'assistant', content: 'A short summary.' } }], usage: { total_tokens: 5 } } };
    return undefined;
  }, SERVER_PORT);
  const s = stack();
  const named = [
    { name: 'bge', task: 'embeddings', url: URL_V1, model: 'bge-small' },
    { name: 'guard', task: 'moderation', url: URL_V1, model: 'guard-mod' },
    { name: 'llama', task: 'summaries', url: URL_V1, model: 'llama-sum' },
  ];
  ai = spawnAiSubgraph(
    AI_PORT,
    {
      AI_EMBEDDINGS_URL: URL_V1,
      AI_EMBEDDINGS_MODEL: 'operator-embed',
      AI_MODEL_SERVERS: JSON.stringify(named),
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    },
    'ai-model-choices',
  );
  await waitFor(`http://127.0.0.1:${AI_PORT}/health`, 150_000, ai);
  gateway = spawnStackGateway(GATEWAY_PORT, { AI_PORT: String(AI_PORT) }, 'ai-model-choices-gateway');
  await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/health`, 150_000, gateway);
  bridge = spawnScript(
    'rest-bridge/main.ts',
    { JWT_SECRET: s.env.JWT_SECRET, INTERNAL_SECRET: s.env.INTERNAL_SECRET, LOG_LEVEL: 'warn', SINGLE_PROCESS: '1', GATEWAY_PORT: String(GATEWAY_PORT), REST_PORT: String(REST_PORT), OTEL_EXPORTER_OTLP_ENDPOINT: undefined },
    'ai-model-choices-rest',
  );
  await waitFor(`http://127.0.0.1:${REST_PORT}/health`, 150_000, bridge);
  [growth, other, free] = await Promise.all([aiUser('growth'), aiUser('enterprise'), aiUser('free')]);
}, 320_000);

afterAll(async () => {
  await Promise.all([stop(bridge), stop(gateway), stop(ai)]);
  await new Promise((r) => server.close(r));
});

async function rest(u: AiUser, method: string, path: string, body?: unknown): Promise<HttpResult> {
  const r = await fetch(`http://127.0.0.1:${REST_PORT}${path}`, { method, headers: { ...u.headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined, headers: r.headers };
}
const gql = async (u: AiUser, query: string, variables: Record<string, unknown> = {}) => {
  const r = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...u.headers }, body: JSON.stringify({ query, variables }) });
  return (await r.json()) as { data?: any; errors?: any[] };
};
const patch = (u: AiUser, attributes: Record<string, unknown>) => rest(u, 'PATCH', '/ai/v1/model-choices', jsonApi('model_choices', attributes));
const embedModel = async (u: AiUser) => {
  const r = await rest(u, 'POST', '/ai/v1/embeddings', jsonApi('embedding_requests', { inputs: ['a text to embed'] }));
  expect(r.status).toBe(200);
  return r.body.data.attributes.model as string;
};
const UPDATE = 'mutation($i: ModelChoicesInput!) { updateAiModelChoices(input: $i) { plan choosable choices { task choice model servers } } }';

test('GET: every task on the operator default, the named servers listed, what answers now named', async () => {
  const r = await rest(growth, 'GET', '/ai/v1/model-choices');
  expect(r.status).toBe(200);
  expect(r.body.data).toMatchObject({ type: 'model_choices', id: growth.t.appId, attributes: { plan: 'growth', choosable: true } });
  expect(r.body.data.attributes.choices).toEqual([
    { task: 'embeddings', choice: 'default', model: 'remote:operator-embed', servers: ['bge'] },
    { task: 'moderation', choice: 'default', model: 'builtin', servers: ['guard'] },
    { task: 'summaries', choice: 'default', model: 'builtin', servers: ['llama'] },
    { task: 'translation', choice: 'default', model: 'builtin', servers: [] },
  ]);
}, 60_000);

test('REST: a growth tenant picks a named embedding server, then builtin, then the default again; another tenant is never affected', async () => {
  expect(await embedModel(growth)).toBe('remote:operator-embed');
  const r = await patch(growth, { embeddings: 'bge' });
  expect(r.status).toBe(200);
  expect(r.body.data.attributes.choices[0]).toEqual({ task: 'embeddings', choice: 'bge', model: 'remote:bge-small', servers: ['bge'] });
  received.length = 0;
  expect(await embedModel(growth)).toBe('remote:bge-small');
  expect(received).toEqual([{ path: '/v1/embeddings', model: 'bge-small' }]);
  // the other tenant (enterprise, may choose, has not) stays on the operator's default
  expect(await embedModel(other)).toBe('remote:operator-embed');
  expect((await rest(other, 'GET', '/ai/v1/model-choices')).body.data.attributes.choices[0].choice).toBe('default');

  expect((await patch(growth, { embeddings: 'builtin' })).status).toBe(200);
  received.length = 0;
  expect(await embedModel(growth)).toBe('glove-sif-100d');
  expect(received).toEqual([]);
  const sim = await rest(growth, 'POST', '/ai/v1/embeddings/similarity', jsonApi('similarity_requests', { source: 'a cat', targets: ['a kitten'] }));
  expect(sim.body.data.attributes.model).toBe('glove-sif-100d');

  expect((await patch(growth, { embeddings: 'default' })).body.data.attributes.choices[0]).toMatchObject({ choice: 'default', model: 'remote:operator-embed' });
  expect(await embedModel(growth)).toBe('remote:operator-embed');
}, 60_000);

test('GraphQL: moderation and summaries on the chosen servers, named in `model`; the other tenant keeps the built-in methods', async () => {
  const u = await gql(growth, UPDATE, { i: { moderation: 'guard', summaries: 'llama' } });
  expect(u.errors).toBeUndefined();
  expect(u.data.updateAiModelChoices.choices.slice(1, 3)).toEqual([
    { task: 'moderation', choice: 'guard', model: 'remote:guard-mod', servers: ['guard'] },
    { task: 'summaries', choice: 'llama', model: 'chat-completions:llama-sum', servers: ['llama'] },
  ]);
  const MOD = 'mutation($i: ModerationInput!) { moderateText(input: $i) { action model categories { violence { score } } } }';
  const SUM = 'mutation($i: SummarizeInput!) { textSummarize(input: $i) { summary model } }';
  const text = 'The council met on Tuesday. It voted to make buses free for children. The vote passed easily after debate.';
  const m = await gql(growth, MOD, { i: { text: 'see you tomorrow' } });
  expect(m.data.moderateText).toMatchObject({ action: 'block', model: expect.stringMatching(/^remote:guard-mod\+/), categories: { violence: { score: 0.91 } } });
  const s = await gql(growth, SUM, { i: { text } });
  expect(s.data.textSummarize).toEqual({ summary: 'A short summary.', model: 'chat-completions:llama-sum' });
  expect(received.filter((x) => x.path === '/v1/chat/completions').at(-1)).toEqual({ path: '/v1/chat/completions', model: 'llama-sum' });

  const om = await gql(other, MOD, { i: { text: 'see you tomorrow' } });
  expect(om.data.moderateText).toMatchObject({ action: 'allow', model: expect.not.stringMatching(/^remote:/) });
  expect((await gql(other, SUM, { i: { text } })).data.textSummarize.model).toBe('textrank-extractive');
  const q = await gql(other, '{ aiModelChoices { choices { task choice } } }');
  expect(q.data.aiModelChoices.choices.map((c: any) => c.choice)).toEqual(['default', 'default', 'default', 'default']);
}, 60_000);

test('an unknown server name is 400 invalid_model_choice naming the task, and nothing changes', async () => {
  const r = await patch(growth, { moderation: 'builtin', summaries: 'http://evil.example/v1' });
  const e = expectServiceError(r, 'ai', 400, 'invalid_model_choice', { parameter: 'summaries' });
  expect(e.detail).toContain('"llama"');
  const g = await gql(growth, UPDATE, { i: { translation: 'gpt' } });
  expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_model_choice', parameter: 'translation' });
  // the valid part of the refused request was not applied
  expect((await rest(growth, 'GET', '/ai/v1/model-choices')).body.data.attributes.choices[1].choice).toBe('guard');
}, 60_000);

test('plans below growth: reading answers choosable false; choosing is 403 plan_upgrade_required naming the plan', async () => {
  const g = await rest(free, 'GET', '/ai/v1/model-choices');
  expect(g.body.data.attributes).toMatchObject({ plan: 'free', choosable: false });
  const r = await patch(free, { embeddings: 'bge' });
  const e = expectServiceError(r, 'ai', 403, 'plan_upgrade_required');
  expect(e.detail).toMatch(/free plan .*growth and enterprise/);
  const q = await gql(free, UPDATE, { i: { embeddings: 'bge' } });
  expect(q.errors?.[0]?.extensions).toMatchObject({ code: 'plan_upgrade_required' });
  expect(await embedModel(free)).toBe('remote:operator-embed');
}, 60_000);
