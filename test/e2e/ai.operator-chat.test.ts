// Summaries and translation through an operator's chat-completions server, end to end: an AI
// subgraph of its own (TEST_PORT_BASE + 1651) on the test stack's database, started with
// AI_SUMMARY_LLM and AI_TRANSLATION_LLM naming models on a chat-completions server this test starts
// (+ 1650), behind a gateway of its own (+ 1652). The answers name the method in `model`; while the
// server fails, TextRank answers and says so.
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { aiUser, spawnAiSubgraph, type AiUser } from '../harness/ai.js';
import { listenLocal } from '../harness/json-server.js';
import { stop, waitFor } from '../harness/spawn.js';
import { spawnStackGateway } from '../harness/stack-gateway.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const LLM_PORT = BASE + 1650;
const AI_PORT = BASE + 1651;
const GATEWAY_PORT = BASE + 1652;
let failing = false;
const received: any[] = [];
let llm: Server;
let ai: ChildProcess;
let gateway: ChildProcess;
let u: AiUser;

beforeAll(async () => {
  llm = await listenLocal(({ body }) => {
    received.push(body);
    const system = body.messages[0].content as string;
    const content = system.includes('translate') ? 'El consejo votó a favor de autobuses gratuitos para los jóvenes.' : 'Buses become free for under-18s.';
    return failing ? { status: 503, body: { error: { message: 'overloaded' } } } : { body: { model: body.model, choices: [{ message: { role: 'assistant', content } }], usage: { total_tokens: 12 } } };
  }, LLM_PORT);
  ai = spawnAiSubgraph(
    AI_PORT,
    {
      AI_LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
      AI_LLM_MODEL: 'prompt-model',
      AI_SUMMARY_LLM: 'summary-model',
      AI_TRANSLATION_LLM: 'mt-model',
      AI_TEXT_LLM_TIMEOUT_MS: '2000',
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    },
    'ai-operator-chat',
  );
  await waitFor(`http://127.0.0.1:${AI_PORT}/health`, 150_000, ai);
  gateway = spawnStackGateway(GATEWAY_PORT, { AI_PORT: String(AI_PORT) }, 'ai-operator-chat-gateway');
  await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/health`, 150_000, gateway);
  u = await aiUser('growth');
}, 320_000);

afterAll(async () => {
  await Promise.all([stop(gateway), stop(ai)]);
  await new Promise((r) => llm.close(r));
});

const gql = async (query: string, variables: Record<string, unknown>) => {
  const r = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...u.headers }, body: JSON.stringify({ query, variables }) });
  return (await r.json()) as { data?: any; errors?: any[] };
};
const TEXT = 'The city council voted on Tuesday to make all buses free for residents under 18 from next September. The measure passed by 31 votes to 12 after a three-hour debate. Supporters said free travel would help families.';
const SUMMARIZE = 'mutation($i: SummarizeInput!) { textSummarize(input: $i) { summary length model } }';

test('a summary by the operator\'s model, named in `model`, within max_length', async () => {
  const r = await gql(SUMMARIZE, { i: { text: TEXT, maxLength: 120 } });
  expect(r.errors).toBeUndefined();
  expect(r.data.textSummarize).toEqual({ summary: 'Buses become free for under-18s.', length: 32, model: 'chat-completions:summary-model' });
  expect(received.at(-1)).toMatchObject({ model: 'summary-model', messages: [{ role: 'system', content: expect.stringContaining('at most 120 characters') }, { role: 'user', content: TEXT }] });
}, 60_000);

test('a translation by the operator\'s model for a pair Apertium does not have; confidence from the language identifier', async () => {
  const r = await gql('mutation($i: TranslateInput!) { translate(input: $i) { translatedText sourceLanguage targetLanguage confidence model } }', { i: { text: TEXT, targetLanguage: 'es' } });
  expect(r.errors).toBeUndefined();
  expect(r.data.translate).toMatchObject({ translatedText: expect.stringContaining('autobuses'), sourceLanguage: 'en', targetLanguage: 'es', model: 'chat-completions:mt-model' });
  expect(r.data.translate.confidence).toBeGreaterThan(0.5);
  const ja = await gql('mutation($i: TranslateInput!) { translate(input: $i) { targetLanguage model } }', { i: { text: TEXT, sourceLanguage: 'en', targetLanguage: 'ja' } });
  expect(ja.data.translate).toEqual({ targetLanguage: 'ja', model: 'chat-completions:mt-model' });
  expect(received.at(-1).messages[0].content).toContain('from English to Japanese');
}, 60_000);

test('while the server fails (retried, then given up), TextRank answers and `model` says so', async () => {
  failing = true;
  try {
    const before = received.length;
    const r = await gql(SUMMARIZE, { i: { text: TEXT, maxLength: 120 } });
    expect(r.errors).toBeUndefined();
    expect(r.data.textSummarize.model).toBe('textrank-extractive');
    expect(TEXT).toContain(r.data.textSummarize.summary);
    expect(received.length - before).toBe(3);
  } finally {
    failing = false;
  }
}, 60_000);
