// Summaries and translation through the operator's chat-completions server (issue 31 item 3): the
// server prompt execution already uses (AI_LLM_BASE_URL, AI_LLM_API_KEY; prompts/llm.client.ts),
// with a model per task named by AI_SUMMARY_LLM and AI_TRANSLATION_LLM. Unset, the in-process
// methods answer (TextRank, Apertium). Each task has its own deadline (AI_TEXT_LLM_TIMEOUT_MS),
// retries and circuit breaker (lib/resilient-call.ts); when the server fails or the breaker is
// open, the caller falls back to the in-process method and says so in `model`.
import { CircuitBreaker, CircuitOpenError, resilientCall } from '../../../lib/resilient-call.js';
import { ConfigError, envInt } from '../../../lib/config.js';
import { DomainError } from '../../../lib/errors.js';
import { cutAtWord } from '../models/summarize.js';
import { complete, retryableLlmError, type LlmConfig } from '../prompts/llm.client.js';

export type ChatTask = 'summary' | 'translation';

export interface ChatTextConfig {
  /** model per task; null: the task stays in-process */
  models: Record<ChatTask, string | null>;
  timeoutMs: number;
}

/** Breaker and retry settings (docs/ai.md, Operator model servers). */
export const CHAT_BREAKER = { failures: 5, openMs: 30_000, retries: 2, backoffMs: 200 };

export function loadChatTextConfig(llm: LlmConfig, env: NodeJS.ProcessEnv = process.env): ChatTextConfig {
  const models = { summary: env.AI_SUMMARY_LLM?.trim() || null, translation: env.AI_TRANSLATION_LLM?.trim() || null };
  for (const [task, name] of [['summary', 'AI_SUMMARY_LLM'], ['translation', 'AI_TRANSLATION_LLM']] as const) {
    if (models[task] && !llm.baseUrl) throw new ConfigError(name, `names a model, but AI_LLM_BASE_URL (the chat-completions server) is not set`);
  }
  return { models, timeoutMs: envInt(env, 'AI_TEXT_LLM_TIMEOUT_MS', 15_000) };
}

export interface ChatAnswer {
  text: string;
  /** as answered in `model`: chat-completions:<the model the server says answered> */
  model: string;
}

export class ChatText {
  private readonly breakers: Record<ChatTask, CircuitBreaker>;
  private readonly retry: { retries: number; backoffMs: number };

  constructor(
    private readonly llm: LlmConfig,
    readonly cfg: ChatTextConfig,
    breaker: Partial<typeof CHAT_BREAKER> = {},
  ) {
    const opts = { ...CHAT_BREAKER, ...breaker };
    this.retry = { retries: opts.retries, backoffMs: opts.backoffMs };
    this.breakers = {
      summary: new CircuitBreaker('The summary model server', opts.failures, opts.openMs),
      translation: new CircuitBreaker('The translation model server', opts.failures, opts.openMs),
    };
  }

  configured(task: ChatTask): boolean {
    return this.cfg.models[task] !== null;
  }

  breakerState(task: ChatTask): string {
    return this.breakers[task].state;
  }

  /** A summary of at most `maxLength` characters (longer answers are cut at a word). */
  async summarize(text: string, maxLength: number): Promise<ChatAnswer> {
    const system = `You summarise texts. Answer with the summary only, in the language of the text, in at most ${maxLength} characters.`;
    const a = await this.ask('summary', system, text);
    return { ...a, text: cutAtWord(a.text.trim(), maxLength) };
  }

  /** `text` translated from `source` to `target` (English language names). */
  async translate(text: string, source: string, target: string): Promise<ChatAnswer> {
    const system = `You translate texts from ${source} to ${target}. Answer with the translation only, keeping the meaning, tone and formatting.`;
    const a = await this.ask('translation', system, text);
    return { ...a, text: a.text.trim() };
  }

  private async ask(task: ChatTask, system: string, prompt: string): Promise<ChatAnswer> {
    const model = this.cfg.models[task];
    if (!model) throw new DomainError('model_unavailable', `No ${task} model is configured`);
    try {
      const o = { ...this.retry, timeoutMs: this.cfg.timeoutMs, retryable: retryableLlmError };
      const c = await resilientCall(this.breakers[task], o, () => complete(this.llm, prompt, { model, system, timeoutMs: this.cfg.timeoutMs }));
      return { text: c.text, model: `chat-completions:${c.model}` };
    } catch (e) {
      if (e instanceof CircuitOpenError) throw new DomainError('model_unavailable', e.message, { meta: { retryable: true } });
      throw e;
    }
  }
}
