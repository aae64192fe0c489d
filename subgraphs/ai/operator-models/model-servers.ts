// The operator's own model servers (docs/ai.md, Operator model servers), over the protocols they
// already speak:
//  - embeddings: the OpenAI-compatible POST <AI_EMBEDDINGS_URL>/embeddings ({model, input} →
//    {data: [{index, embedding}], model, usage}) that Hugging Face TEI, vLLM, Ollama and OpenAI serve;
//  - moderation: the OpenAI moderation API, POST <AI_MODERATION_URL>/moderations ({model, input} →
//    {results: [{category_scores}]}).
// Each call has a timeout, retries on transient failures and a circuit breaker (lib/resilient-call.ts).
// The URLs are the operator's, not a client's, so they are not put through the URL guard.
import { ConfigError, envInt } from '../../../lib/config.js';
import { normalize } from '../../../lib/hashed-embeddings.js';
import { CircuitBreaker, PermanentError, resilientCall, statusError, type ResilienceOptions } from '../../../lib/resilient-call.js';

export interface ModelServerConfig {
  /** base URL with /v1, e.g. http://127.0.0.1:8080/v1 */
  url: string;
  model: string;
  apiKey: string | null;
}

export interface ModelServersConfig {
  embeddings: ModelServerConfig | null;
  moderation: ModelServerConfig | null;
  resilience: ResilienceOptions;
}

export function loadModelServersConfig(env: NodeJS.ProcessEnv = process.env): ModelServersConfig {
  const server = (kind: 'EMBEDDINGS' | 'MODERATION', defaultModel: string): ModelServerConfig | null => {
    const raw = env[`AI_${kind}_URL`]?.trim();
    if (!raw) return null;
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new ConfigError(`AI_${kind}_URL`, `"${raw}" is not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`AI_${kind}_URL`, `"${raw}" must be http(s)`);
    return { url: raw.replace(/\/+$/, ''), model: env[`AI_${kind}_MODEL`]?.trim() || defaultModel, apiKey: env[`AI_${kind}_API_KEY`] || null };
  };
  return {
    embeddings: server('EMBEDDINGS', 'text-embedding-3-small'),
    moderation: server('MODERATION', 'omni-moderation-latest'),
    resilience: {
      timeoutMs: envInt(env, 'AI_MODEL_SERVER_TIMEOUT_MS', 5_000),
      retries: envInt(env, 'AI_MODEL_SERVER_RETRIES', 2),
      failures: envInt(env, 'AI_MODEL_SERVER_BREAKER_FAILURES', 5),
      openMs: envInt(env, 'AI_MODEL_SERVER_BREAKER_OPEN_MS', 30_000),
    },
  };
}

/** The name a remote model answers under (`model` in every answer), distinct from the built-in ones. */
export const remoteName = (cfg: ModelServerConfig): string => `remote:${cfg.model}`;

abstract class ModelServer {
  readonly breaker: CircuitBreaker;
  constructor(
    readonly cfg: ModelServerConfig,
    protected readonly resilience: ResilienceOptions,
    path: string,
  ) {
    this.breaker = new CircuitBreaker(`${cfg.url}${path}`, resilience.failures, resilience.openMs);
  }

  get name(): string {
    return remoteName(this.cfg);
  }

  protected post(path: string, body: unknown): Promise<any> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.cfg.apiKey) headers.authorization = `Bearer ${this.cfg.apiKey}`;
    return resilientCall(this.breaker, this.resilience, async (signal) => {
      const res = await fetch(`${this.cfg.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'error' });
      const text = await res.text();
      if (!res.ok) throw statusError(res.status, text);
      try {
        return JSON.parse(text);
      } catch {
        throw new PermanentError('the answer is not JSON');
      }
    });
  }
}

export class EmbeddingServer extends ModelServer {
  constructor(cfg: ModelServerConfig, resilience: ResilienceOptions) {
    super(cfg, resilience, '/embeddings');
  }

  async embed(texts: readonly string[]): Promise<{ vectors: number[][]; tokens: number }> {
    const body = await this.post('/embeddings', { model: this.cfg.model, input: texts });
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== texts.length) throw new PermanentError(`expected ${texts.length} embeddings in data[]`);
    const vectors: number[][] = new Array(texts.length);
    for (const [i, d] of data.entries()) {
      const v = d?.embedding;
      if (!Array.isArray(v) || !v.length || v.some((x) => typeof x !== 'number')) throw new PermanentError(`data[${i}].embedding is not a list of numbers`);
      vectors[Number.isInteger(d.index) ? d.index : i] = normalize(v);
    }
    const tokens = Number(body.usage?.prompt_tokens ?? body.usage?.total_tokens) || 0;
    return { vectors, tokens };
  }
}

/** OpenAI moderation categories → ours (the highest of each group). Spam has none there. */
const OPENAI_CATEGORIES: Record<string, 'hate' | 'harassment' | 'self_harm' | 'sexual' | 'violence'> = {
  hate: 'hate',
  'hate/threatening': 'hate',
  harassment: 'harassment',
  'harassment/threatening': 'harassment',
  'self-harm': 'self_harm',
  'self-harm/intent': 'self_harm',
  'self-harm/instructions': 'self_harm',
  sexual: 'sexual',
  'sexual/minors': 'sexual',
  violence: 'violence',
  'violence/graphic': 'violence',
};

export class ModerationServer extends ModelServer {
  constructor(cfg: ModelServerConfig, resilience: ResilienceOptions) {
    super(cfg, resilience, '/moderations');
  }

  /** Scores 0–1 of hate, harassment, self_harm, sexual, violence (spam is not in the protocol). */
  async scores(text: string): Promise<Record<string, number>> {
    const body = await this.post('/moderations', { model: this.cfg.model, input: text });
    const scores = body?.results?.[0]?.category_scores;
    if (!scores || typeof scores !== 'object') throw new PermanentError('results[0].category_scores is missing');
    const out: Record<string, number> = {};
    for (const [k, cat] of Object.entries(OPENAI_CATEGORIES)) {
      const v = Number(scores[k]);
      if (Number.isFinite(v)) out[cat] = Math.max(out[cat] ?? 0, Math.min(1, Math.max(0, v)));
    }
    return out;
  }
}

export interface ModelServers {
  embeddings: EmbeddingServer | null;
  moderation: ModerationServer | null;
}

export function modelServers(cfg: ModelServersConfig): ModelServers {
  return {
    embeddings: cfg.embeddings ? new EmbeddingServer(cfg.embeddings, cfg.resilience) : null,
    moderation: cfg.moderation ? new ModerationServer(cfg.moderation, cfg.resilience) : null,
  };
}
