// Which model answers each text task, per tenant (docs/ai.md, Model choices). The operator names
// servers in AI_MODEL_SERVERS; a tenant whose plan allows it picks, per task, one of those names or
// `builtin` (model-choices/). A tenant's pick never carries a URL: tenants only choose among what the
// operator configured. The servers configured by the single-server variables (AI_EMBEDDINGS_URL,
// AI_MODERATION_URL, AI_SUMMARY_LLM, AI_TRANSLATION_LLM) are the operator's default for their task.
//
// AI_MODEL_SERVERS is a JSON array of {name, task, model, url?, api_key_env?}:
//  - task: embeddings | moderation (url required: the server's /v1 base) or summaries | translation
//    (a chat-completions model; url defaults to AI_LLM_BASE_URL);
//  - api_key_env: the name of another variable holding the server's key (keys stay out of this one).
import { ConfigError } from '../../../lib/config.js';
import type { ResilienceOptions } from '../../../lib/resilient-call.js';
import type { LlmConfig } from '../prompts/llm.client.js';
import { ChatText, type ChatTask, type ChatTextConfig } from './chat-text.js';
import { EmbeddingServer, ModerationServer, type ModelServerConfig, type ModelServers } from './model-servers.js';

export const MODEL_TASKS = ['embeddings', 'moderation', 'summaries', 'translation'] as const;
export type ModelTask = (typeof MODEL_TASKS)[number];
/** A tenant's pick of the in-process method. */
export const BUILTIN = 'builtin';
/** No pick of the tenant's own: the operator's default server for the task, else the in-process method. */
export const OPERATOR_DEFAULT = 'default';

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const CHAT_TASK: Record<'summaries' | 'translation', ChatTask> = { summaries: 'summary', translation: 'translation' };

type ServerOf = { embeddings: EmbeddingServer; moderation: ModerationServer; summaries: ChatText; translation: ChatText };

/** The servers a tenant may pick, by task and name, and the operator's default of each task. */
export interface ServerRegistry {
  named: { [T in ModelTask]: Map<string, ServerOf[T]> };
  defaults: { [T in ModelTask]: ServerOf[T] | null };
}

export function isModelTask(v: string): v is ModelTask {
  return (MODEL_TASKS as readonly string[]).includes(v);
}

/** Whether anything but the in-process method can answer `task` (else no tenant pick needs reading). */
export function hasServers(r: ServerRegistry, task: ModelTask): boolean {
  return r.defaults[task] !== null || r.named[task].size > 0;
}

export function buildServerRegistry(
  defaults: { servers: ModelServers; chatText: ChatText },
  llm: LlmConfig,
  chat: Pick<ChatTextConfig, 'timeoutMs'>,
  resilience: ResilienceOptions,
  env: NodeJS.ProcessEnv = process.env,
): ServerRegistry {
  const named: ServerRegistry['named'] = { embeddings: new Map(), moderation: new Map(), summaries: new Map(), translation: new Map() };
  for (const e of parseModelServers(env, llm)) {
    if (e.task === 'embeddings') named.embeddings.set(e.name, new EmbeddingServer(e.server, resilience));
    else if (e.task === 'moderation') named.moderation.set(e.name, new ModerationServer(e.server, resilience));
    else {
      const models = { summary: null, translation: null, [CHAT_TASK[e.task]]: e.server.model };
      named[e.task].set(e.name, new ChatText({ ...llm, baseUrl: e.server.url, apiKey: e.server.apiKey }, { models, timeoutMs: chat.timeoutMs }));
    }
  }
  const chatDefault = (t: ChatTask) => (defaults.chatText.configured(t) ? defaults.chatText : null);
  return {
    named,
    defaults: { embeddings: defaults.servers.embeddings, moderation: defaults.servers.moderation, summaries: chatDefault('summary'), translation: chatDefault('translation') },
  };
}

interface Entry {
  name: string;
  task: ModelTask;
  server: ModelServerConfig;
}

/** AI_MODEL_SERVERS read and checked; a bad entry stops start-up naming the variable and the entry. */
export function parseModelServers(env: NodeJS.ProcessEnv, llm: LlmConfig): Entry[] {
  const raw = env.AI_MODEL_SERVERS?.trim();
  if (!raw) return [];
  const bad = (detail: string) => new ConfigError('AI_MODEL_SERVERS', detail);
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw bad('is not JSON (a list of {name, task, model, url?, api_key_env?})');
  }
  if (!Array.isArray(list)) throw bad('must be a JSON list of {name, task, model, url?, api_key_env?}');
  const seen = new Set<string>();
  return list.map((x: Record<string, unknown>, i) => {
    const at = `entry ${i}`;
    if (!x || typeof x !== 'object') throw bad(`${at} is not an object`);
    const { name, task, model, url, api_key_env: keyVar } = x;
    if (typeof name !== 'string' || !NAME.test(name) || name === BUILTIN || name === OPERATOR_DEFAULT) {
      throw bad(`${at}: name must be 1 to 64 of a-z 0-9 . _ - (not "${BUILTIN}" or "${OPERATOR_DEFAULT}")`);
    }
    if (typeof task !== 'string' || !isModelTask(task)) throw bad(`${at} (${name}): task must be one of ${MODEL_TASKS.join(', ')}`);
    if (seen.has(`${task}/${name}`)) throw bad(`${at}: ${task} server "${name}" is named twice`);
    seen.add(`${task}/${name}`);
    if (typeof model !== 'string' || !model.trim()) throw bad(`${at} (${name}): model is required`);
    const chat = task === 'summaries' || task === 'translation';
    const base = typeof url === 'string' && url.trim() ? url.trim() : chat ? llm.baseUrl : null;
    if (!base) throw bad(`${at} (${name}): url is required${chat ? ' (or set AI_LLM_BASE_URL)' : ''}`);
    let u: URL;
    try {
      u = new URL(base);
    } catch {
      throw bad(`${at} (${name}): "${base}" is not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw bad(`${at} (${name}): "${base}" must be http(s)`);
    if (keyVar !== undefined && (typeof keyVar !== 'string' || !env[keyVar])) throw bad(`${at} (${name}): api_key_env names ${String(keyVar)}, which is not set`);
    const apiKey = typeof keyVar === 'string' ? env[keyVar]! : chat && !url ? llm.apiKey : null;
    return { name, task, server: { url: base.replace(/\/+$/, ''), model: model.trim(), apiKey } };
  });
}
