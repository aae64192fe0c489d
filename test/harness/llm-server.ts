// A small local server speaking the OpenAI chat-completions protocol, for the prompt execution
// tests: the stack's AI_LLM_BASE_URL points at 127.0.0.1:<TEST_PORT_BASE + 54>/v1 (global-setup),
// and the tests that execute prompts start this server there. Its answer is derived from the
// prompt (word count and first line), with usage counted in words, so assertions are exact.
// Markers in the prompt: [[status:NNN]] answers that HTTP status; [[sleep:MS]] waits first.
import type { Server } from 'node:http';
import { jsonServer } from './json-server.js';

export const LLM_API_KEY = 'test-llm-key';
export const LLM_MODEL = 'test-chat';

// One server per jest process: suites have their own module registries and globals but share the
// port, so the server (and the requests it records) may belong to an earlier suite. What it received
// is read from the server itself (GET /__received), whichever suite started it.
type Received = { authorization?: string; body: any };
const g = globalThis as { __llmServer?: Promise<Server>; __llmReceived?: Received[] };
const received: Received[] = (g.__llmReceived ??= []);
const llmPort = () => Number(process.env.TEST_PORT_BASE ?? 14000) + 54;

/** The chat-completion requests the test server has received so far, in order. */
export async function llmReceived(): Promise<Received[]> {
  const r = await fetch(`http://127.0.0.1:${llmPort()}/__received`);
  return (await r.json()) as Received[];
}

export function llmAnswer(prompt: string): { content: string; promptTokens: number; completionTokens: number } {
  const words = prompt.split(/\s+/).filter(Boolean).length;
  const content = `You wrote ${words} words. First line: ${prompt.split('\n')[0]}`;
  return { content, promptTokens: words, completionTokens: content.split(/\s+/).filter(Boolean).length };
}

export function startLlmServer(port = llmPort()): Promise<Server> {
  g.__llmServer ??= new Promise((resolve, reject) => {
    const server = jsonServer(async ({ method, path, headers, body }) => {
      if (method === 'GET' && path === '/__received') return { body: received };
      if (method !== 'POST' || path !== '/v1/chat/completions') return { status: 404, body: { error: { message: 'not found' } } };
      if (headers.authorization !== `Bearer ${LLM_API_KEY}`) return { status: 401, body: { error: { message: 'bad key' } } };
      received.push({ authorization: headers.authorization, body });
      const prompt: string = body.messages?.find((m: any) => m.role === 'user')?.content ?? '';
      const sleep = /\[\[sleep:(\d+)\]\]/.exec(prompt);
      if (sleep) await new Promise((r) => setTimeout(r, Number(sleep[1])));
      const status = /\[\[status:(\d{3})\]\]/.exec(prompt);
      if (status) return { status: Number(status[1]), body: { error: { message: 'asked to fail' } } };
      const a = llmAnswer(prompt);
      return {
        body: {
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: a.content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: a.promptTokens, completion_tokens: a.completionTokens, total_tokens: a.promptTokens + a.completionTokens },
        },
      };
    });
    // an earlier suite of this jest process (own module registry and globals, same process) may
    // already serve the port with this same server: use it
    server.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(server) : reject(e)));
    server.listen(port, '127.0.0.1', () => {
      server.unref();
      resolve(server);
    });
  });
  return g.__llmServer;
}
