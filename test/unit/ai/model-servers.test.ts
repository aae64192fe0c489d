// The operator's model servers (operator-models/model-servers.ts, lib/resilient-call.ts) against a local
// server this test starts that speaks the OpenAI embeddings and moderation protocols: answers,
// retries of transient failures, no retry of a client error, timeouts and the circuit breaker.
// Port: TEST_PORT_BASE + 1600.
import { createServer, type Server } from 'node:http';
import { CircuitOpenError } from '../../../lib/resilient-call.js';
import { embed } from '../../../subgraphs/ai/embeddings/embedding.service.js';
import { EmbeddingServer, loadModelServersConfig, ModerationServer, modelServers } from '../../../subgraphs/ai/operator-models/model-servers.js';
import { parseModelServers } from '../../../subgraphs/ai/operator-models/server-registry.js';

const port = Number(process.env.TEST_PORT_BASE ?? 14000) + 1600;
const url = `http://127.0.0.1:${port}/v1`;
let server: Server;
const seen: Array<{ path: string; auth?: string; body: any }> = [];
/** the next answers, by path: a status to fail with, or 'sleep' to answer late */
const script: Record<string, Array<number | 'sleep'>> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw || '{}');
      const path = req.url ?? '';
      seen.push({ path, auth: req.headers.authorization, body });
      const send = (status: number, b: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(b));
      };
      const next = script[path]?.shift();
      if (next === 'sleep') await new Promise((r) => setTimeout(r, 2500));
      else if (next) return send(next, { error: { message: `scripted ${next}` } });
      if (path === '/v1/embeddings') {
        // answered out of order, as a server may: the client orders by index
        const data = (body.input as string[]).map((t, index) => ({ object: 'embedding', index, embedding: [t.length, 1, 0] })).reverse();
        return send(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: 7, total_tokens: 7 } });
      }
      if (path === '/v1/moderations') {
        const threat = /kill/.test(body.input);
        return send(200, { id: 'modr-1', model: body.model, results: [{ flagged: threat, category_scores: { violence: threat ? 0.97 : 0.01, 'violence/graphic': 0.02, hate: 0.01, 'self-harm/intent': 0.3, harassment: 0.1 } }] });
      }
      send(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
});
afterAll(() => new Promise((r) => server.close(r)));
beforeEach(() => {
  seen.length = 0;
  for (const k of Object.keys(script)) delete script[k];
});

const resilience = { timeoutMs: 2000, retries: 2, backoffMs: 5, failures: 3, openMs: 500 };
const cfg = (model = 'bge-small') => ({ url, model, apiKey: 'op-key' });

test('configuration: unset → no server; a URL, a model and a key; a bad URL names the variable', () => {
  expect(modelServers(loadModelServersConfig({}))).toEqual({ embeddings: null, moderation: null });
  const c = loadModelServersConfig({ AI_EMBEDDINGS_URL: `${url}/`, AI_EMBEDDINGS_MODEL: 'bge-small', AI_EMBEDDINGS_API_KEY: 'k', AI_MODERATION_URL: url });
  expect(c.embeddings).toEqual({ url, model: 'bge-small', apiKey: 'k' });
  expect(c.moderation?.model).toBe('omni-moderation-latest');
  expect(() => loadModelServersConfig({ AI_MODERATION_URL: 'ftp://x' })).toThrow(/AI_MODERATION_URL/);
});

test('embeddings: the OpenAI shape, ordered by index, L2-normalised, the model named remote:<model>', async () => {
  const s = new EmbeddingServer(cfg(), resilience);
  expect(s.name).toBe('remote:bge-small');
  const r = await s.embed(['abc', 'abcdefgh']);
  expect(r.tokens).toBe(7);
  expect(r.vectors[0].map((x) => x.toFixed(4))).toEqual(['0.9487', '0.3162', '0.0000']);
  expect(Math.hypot(...r.vectors[1])).toBeCloseTo(1, 6);
  expect(seen[0]).toMatchObject({ path: '/v1/embeddings', auth: 'Bearer op-key', body: { model: 'bge-small', input: ['abc', 'abcdefgh'] } });
});

test('transient failures (503, 429, a late answer) are retried; a client error (400) is not', async () => {
  const s = new EmbeddingServer(cfg(), resilience);
  script['/v1/embeddings'] = [503, 429];
  await expect(s.embed(['x'])).resolves.toMatchObject({ tokens: 7 });
  expect(seen).toHaveLength(3);
  seen.length = 0;
  script['/v1/embeddings'] = ['sleep'];
  await expect(s.embed(['x'])).resolves.toMatchObject({ tokens: 7 });
  expect(seen).toHaveLength(2);
  seen.length = 0;
  script['/v1/embeddings'] = [400];
  await expect(s.embed(['x'])).rejects.toThrow(/HTTP 400/);
  expect(seen).toHaveLength(1);
  expect(s.breaker.state).toBe('closed');
});

test('the circuit opens after failed calls in a row, fails fast while open, and closes after a good trial', async () => {
  const s = new EmbeddingServer(cfg(), { ...resilience, retries: 0 });
  script['/v1/embeddings'] = [500, 500, 500];
  for (let i = 0; i < 3; i++) await expect(s.embed(['x'])).rejects.toThrow(/HTTP 500/);
  expect(s.breaker.state).toBe('open');
  await expect(s.embed(['x'])).rejects.toBeInstanceOf(CircuitOpenError);
  expect(seen).toHaveLength(3); // the open circuit did not call the server
  await new Promise((r) => setTimeout(r, 550));
  expect(s.breaker.state).toBe('half-open');
  await expect(s.embed(['x'])).resolves.toMatchObject({ tokens: 7 });
  expect(s.breaker.state).toBe('closed');
});

test('moderation: the OpenAI category scores become ours (highest of each group)', async () => {
  const s = new ModerationServer(cfg('omni-moderation-latest'), resilience);
  expect(await s.scores('I will kill you')).toEqual({ violence: 0.97, hate: 0.01, self_harm: 0.3, harassment: 0.1 });
  expect(seen[0]).toMatchObject({ path: '/v1/moderations', body: { model: 'omni-moderation-latest', input: 'I will kill you' } });
});

test('the embeddings service: the server is the default when configured, named in the answer; a failing server is 503, never another model', async () => {
  const errors: unknown[] = [];
  const embeddings = new EmbeddingServer(cfg(), { ...resilience, retries: 0 });
  const registry = { defaults: { embeddings, moderation: null, summaries: null, translation: null }, named: { embeddings: new Map(), moderation: new Map(), summaries: new Map(), translation: new Map() } };
  const ctx = { tenant: { plan: 'free' }, runtime: { cfg: { defaultPlan: 'free' }, registry }, log: { error: (...a: unknown[]) => errors.push(a) } } as any;
  await expect(embed(ctx, ['hello'], null)).resolves.toMatchObject({ model: 'remote:bge-small', tokens: 7 });
  script['/v1/embeddings'] = [502];
  await expect(embed(ctx, ['hello'], 'remote:bge-small')).rejects.toMatchObject({ code: 'model_unavailable' });
  expect(errors).toHaveLength(1);
});

test('AI_MODEL_SERVERS: named servers per task; a bad entry stops start-up naming the variable and the entry', () => {
  const llm = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'llm-key', model: null, timeoutMs: 1000, maxTokens: 10 };
  const env = {
    AI_MODEL_SERVERS: JSON.stringify([
      { name: 'bge', task: 'embeddings', url: `${url}/`, model: 'bge-small', api_key_env: 'BGE_KEY' },
      { name: 'llama', task: 'summaries', model: 'llama-3' },
    ]),
    BGE_KEY: 'k1',
  };
  expect(parseModelServers(env, llm)).toEqual([
    { name: 'bge', task: 'embeddings', server: { url, model: 'bge-small', apiKey: 'k1' } },
    { name: 'llama', task: 'summaries', server: { url: 'http://127.0.0.1:9/v1', model: 'llama-3', apiKey: 'llm-key' } },
  ]);
  const bad = (list: unknown, e: Record<string, string> = {}) => () => parseModelServers({ AI_MODEL_SERVERS: JSON.stringify(list), ...e }, { ...llm, baseUrl: null });
  expect(bad([{ name: 'builtin', task: 'embeddings', url, model: 'm' }])).toThrow(/AI_MODEL_SERVERS: entry 0: name/);
  expect(bad([{ name: 'x', task: 'ocr', url, model: 'm' }])).toThrow(/entry 0 \(x\): task must be one of embeddings, moderation, summaries, translation/);
  expect(bad([{ name: 'x', task: 'moderation', model: 'm' }])).toThrow(/url is required/);
  expect(bad([{ name: 'x', task: 'translation', model: 'm' }])).toThrow(/url is required \(or set AI_LLM_BASE_URL\)/);
  expect(bad([{ name: 'x', task: 'embeddings', url, model: 'm', api_key_env: 'NOPE' }])).toThrow(/api_key_env names NOPE, which is not set/);
  expect(bad([{ name: 'x', task: 'embeddings', url, model: 'm' }, { name: 'x', task: 'embeddings', url, model: 'n' }])).toThrow(/named twice/);
  expect(() => parseModelServers({ AI_MODEL_SERVERS: '{' }, llm)).toThrow(/AI_MODEL_SERVERS: is not JSON/);
});
