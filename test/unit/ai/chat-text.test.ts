// Summaries and translation through an operator's chat-completions server (subgraphs/ai/
// operator-models/chat-text.ts) against a server this test starts on TEST_PORT_BASE + 1650 that
// speaks the protocol: the model named in the answer, the deadline, retries of failures that may
// pass (and none of refusals), and the circuit breaker opening, refusing, and closing again.
import { createServer, type Server } from 'node:http';
import { ConfigError } from '../../../lib/config.js';
import { ChatText, loadChatTextConfig } from '../../../subgraphs/ai/operator-models/chat-text.js';
import { loadLlmConfig } from '../../../subgraphs/ai/prompts/llm.client.js';

const port = Number(process.env.TEST_PORT_BASE ?? 14000) + 1650;
/** What the next requests answer: a status (200: an answer), after a delay. */
let plan: Array<{ status: number; delayMs?: number; content?: string }> = [];
const received: any[] = [];
let server: Server;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw);
      received.push({ url: req.url, authorization: req.headers.authorization, body });
      const step = plan.shift() ?? { status: 200 };
      if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
      if (res.destroyed) return;
      res.writeHead(step.status, { 'content-type': 'application/json' });
      const user = body.messages.find((m: any) => m.role === 'user').content as string;
      const content = step.content ?? `[${body.model}] ${user.split(/(?<=\.)\s/)[0]}`;
      res.end(JSON.stringify(step.status === 200 ? { model: `${body.model}-served`, choices: [{ message: { role: 'assistant', content } }], usage: { total_tokens: 7 } } : { error: { message: 'failed' } }));
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  plan = [];
  received.length = 0;
});

const env = { AI_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, AI_LLM_API_KEY: 'op-key', AI_LLM_MODEL: 'prompts-model', AI_SUMMARY_LLM: 'summary-model', AI_TRANSLATION_LLM: 'mt-model', AI_TEXT_LLM_TIMEOUT_MS: '300' };
const chat = (breaker = {}) => {
  const llm = loadLlmConfig(env);
  return new ChatText(llm, loadChatTextConfig(llm, env), { backoffMs: 10, ...breaker });
};
const TEXT = 'The council voted to make buses free for residents under 18. The measure passed by 31 votes to 12.';

test('a summary by the configured model, named in the answer, within max_length, the system prompt saying so', async () => {
  const a = await chat().summarize(TEXT, 60);
  expect(a.model).toBe('chat-completions:summary-model-served');
  expect(a.text.length).toBeLessThanOrEqual(60);
  expect(a.text.startsWith('[summary-model] The council voted')).toBe(true);
  expect(received[0]).toMatchObject({ url: '/v1/chat/completions', authorization: 'Bearer op-key', body: { model: 'summary-model' } });
  expect(received[0].body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('at most 60 characters') });
});

test('a translation by its own model, asked in language names', async () => {
  plan = [{ status: 200, content: 'El consejo votó.' }];
  const a = await chat().translate('The council voted.', 'English', 'Spanish');
  expect(a).toEqual({ text: 'El consejo votó.', model: 'chat-completions:mt-model-served' });
  expect(received[0].body.messages[0].content).toContain('from English to Spanish');
});

test('HTTP 503, 429 and a timeout are retried; a 400 is not', async () => {
  plan = [{ status: 503 }, { status: 200, delayMs: 600 }, { status: 200 }];
  expect((await chat().summarize(TEXT, 200)).model).toBe('chat-completions:summary-model-served');
  expect(received).toHaveLength(3);
  received.length = 0;
  plan = [{ status: 400 }];
  await expect(chat().summarize(TEXT, 200)).rejects.toMatchObject({ code: 'model_unavailable', message: expect.stringContaining('HTTP 400') });
  expect(received).toHaveLength(1);
});

test('the breaker opens after failing calls, refuses without calling, and a good trial call closes it', async () => {
  const c = chat({ failures: 2, openMs: 300, retries: 1 });
  plan = Array.from({ length: 4 }, () => ({ status: 502 }));
  await expect(c.summarize(TEXT, 200)).rejects.toMatchObject({ code: 'model_unavailable' });
  await expect(c.summarize(TEXT, 200)).rejects.toMatchObject({ code: 'model_unavailable' });
  expect(received).toHaveLength(4);
  expect(c.breakerState('summary')).toBe('open');
  await expect(c.summarize(TEXT, 200)).rejects.toMatchObject({ code: 'model_unavailable', message: expect.stringContaining('circuit open') });
  expect(received).toHaveLength(4);
  expect(c.breakerState('translation')).toBe('closed');
  await new Promise((r) => setTimeout(r, 350));
  expect(c.breakerState('summary')).toBe('half-open');
  expect((await c.summarize(TEXT, 200)).model).toBe('chat-completions:summary-model-served');
  expect(c.breakerState('summary')).toBe('closed');
});

test('unset: the tasks stay in-process; a model named without a server stops start-up naming the variable', () => {
  const llm = loadLlmConfig({});
  expect(new ChatText(llm, loadChatTextConfig(llm, {})).configured('summary')).toBe(false);
  expect(() => loadChatTextConfig(llm, { AI_SUMMARY_LLM: 'm' })).toThrow(ConfigError);
  expect(() => loadChatTextConfig(llm, { AI_TRANSLATION_LLM: 'm' })).toThrow(expect.objectContaining({ variable: 'AI_TRANSLATION_LLM' }));
});
