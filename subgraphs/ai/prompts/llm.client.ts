// The language model prompts execute against: any OpenAI-compatible chat-completions endpoint
// configured by the operator (docs/ai.md, Operations). No endpoint configured → 503
// model_unavailable saying which variables to set. The URL is the operator's, not a client's, so it
// is not put through the URL guard (a local model server on 127.0.0.1 is the usual setup).
import { ConfigError, envInt } from '../../../lib/config.js';
import { DomainError } from '../../../lib/errors.js';

export interface LlmConfig {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1; /chat/completions is appended */
  baseUrl: string | null;
  apiKey: string | null;
  model: string | null;
  timeoutMs: number;
  maxTokens: number;
}

export function loadLlmConfig(env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const baseUrl = env.AI_LLM_BASE_URL?.trim() || null;
  if (baseUrl) {
    let u: URL;
    try {
      u = new URL(baseUrl);
    } catch {
      throw new ConfigError('AI_LLM_BASE_URL', `"${baseUrl}" is not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError('AI_LLM_BASE_URL', `"${baseUrl}" must be http(s)`);
  }
  return {
    baseUrl: baseUrl?.replace(/\/+$/, '') ?? null,
    apiKey: env.AI_LLM_API_KEY || null,
    model: env.AI_LLM_MODEL || null,
    timeoutMs: envInt(env, 'AI_LLM_TIMEOUT_MS', 60_000),
    maxTokens: envInt(env, 'AI_LLM_MAX_TOKENS', 1024),
  };
}

export interface Completion {
  text: string;
  model: string;
  tokensUsed: number;
}

const REMEDY = 'set AI_LLM_BASE_URL (an OpenAI-compatible /v1 URL), AI_LLM_MODEL and, if the server needs one, AI_LLM_API_KEY, then restart the AI service';

/** A failure worth retrying (network, timeout, HTTP 429 or 5xx), as opposed to a refusal. */
export function retryableLlmError(e: unknown): boolean {
  return e instanceof DomainError && e.opts.meta?.retryable === true;
}

const failed = (message: string, retryable: boolean) => new DomainError('model_unavailable', message, { meta: { retryable } });

/**
 * One chat completion of `prompt` as the user message (after `system`, when given); `model` and
 * `timeoutMs` override the configured ones (the text endpoints' own models, docs/ai.md).
 */
export async function complete(cfg: LlmConfig, prompt: string, opts: { model?: string; timeoutMs?: number; system?: string } = {}): Promise<Completion> {
  const model = opts.model ?? cfg.model;
  const timeoutMs = opts.timeoutMs ?? cfg.timeoutMs;
  if (!cfg.baseUrl || !model) throw new DomainError('model_unavailable', `No language model is configured: ${REMEDY}`);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  let res: Response;
  try {
    res = await fetch(`${cfg.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model, messages: [...(opts.system ? [{ role: 'system', content: opts.system }] : []), { role: 'user', content: prompt }], max_tokens: cfg.maxTokens }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (e) {
    const timedOut = (e as Error).name === 'TimeoutError';
    throw failed(timedOut ? `The language model did not answer within ${timeoutMs} ms (${opts.timeoutMs ? 'AI_TEXT_LLM_TIMEOUT_MS' : 'AI_LLM_TIMEOUT_MS'})` : `The language model at AI_LLM_BASE_URL is unreachable (${(e as Error).message})`, true);
  }
  const raw = await res.text().catch(() => '');
  if (!res.ok) throw failed(`The language model answered HTTP ${res.status}: ${raw.slice(0, 200)}`, res.status === 429 || res.status >= 500);
  let body: any;
  try {
    body = JSON.parse(raw);
  } catch {
    throw failed('The language model answered a body that is not JSON', false);
  }
  const text = body?.choices?.[0]?.message?.content;
  if (typeof text !== 'string') throw failed('The language model answered without choices[0].message.content', false);
  const usage = body.usage ?? {};
  const tokensUsed = Number.isInteger(usage.total_tokens) ? usage.total_tokens : (Number(usage.prompt_tokens) || 0) + (Number(usage.completion_tokens) || 0);
  return { text, model: typeof body.model === 'string' ? body.model : model, tokensUsed };
}
