// AI-service settings read from the environment once per process (see docs/ai.md).
// A bad value stops start-up with one line naming the variable, like lib/config.ts.
import { join } from 'node:path';
import { ConfigError } from '../../lib/config.js';
import { isAiPlan, type AiPlan } from './limits/plans.js';
import { DEFAULT_POOL } from './models/apertium.js';
import type { PoolOptions } from './models/apertium.pool.js';

export interface AiConfig {
  /** where operators drop ONNX embedding models, one folder per model */
  modelsDir: string;
  /** worker threads hosting the text models (each loads its own copy of the models it is asked for) */
  textWorkers: number;
  /** AI_PRELOAD=1: the text and vision models at start instead of on first use (Apertium's pipelines still start per pair on first call) */
  preload: boolean;
  /** AI_VISION_PRELOAD=1: the vision models alone at start */
  visionPreload: boolean;
  /** plan limits applied when the tenant context carries no plan */
  defaultPlan: AiPlan;
  /** Apertium's persistent pipelines: per pair at most, idle close, deadline per call */
  translation: PoolOptions;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(name, `"${raw}" must be 1 or 0`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(name, `"${raw}" must be an integer from ${min} to ${max}`);
  return n;
}

function cpuSplit(raw = ''): PoolOptions['cpuSplit'] {
  const v = raw.trim().toLowerCase() || DEFAULT_POOL.cpuSplit;
  if (v !== 'auto' && v !== 'on' && v !== 'off') throw new ConfigError('AI_TRANSLATION_CPU_SPLIT', `"${raw}" must be auto, on or off`);
  return v;
}

export function loadAiConfig(dataDir: string, env: NodeJS.ProcessEnv = process.env): AiConfig {
  const workers = env.AI_TEXT_WORKERS ?? '1';
  const n = Number(workers);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new ConfigError('AI_TEXT_WORKERS', `"${workers}" must be an integer from 1 to 16`);
  const plan = (env.AI_DEFAULT_PLAN || 'free').toLowerCase();
  if (!isAiPlan(plan)) throw new ConfigError('AI_DEFAULT_PLAN', `"${plan}" must be one of free, starter, growth, enterprise`);
  const translation: PoolOptions = {
    max: integer(env, 'AI_TRANSLATION_PIPELINES', DEFAULT_POOL.max, 1, 16),
    idleMs: integer(env, 'AI_TRANSLATION_IDLE_MS', DEFAULT_POOL.idleMs, 1000, 86_400_000),
    timeoutMs: integer(env, 'AI_TRANSLATION_TIMEOUT_MS', DEFAULT_POOL.timeoutMs, 100, 600_000),
    cpuSplit: cpuSplit(env.AI_TRANSLATION_CPU_SPLIT),
  };
  return {
    modelsDir: env.AI_MODELS_DIR || join(dataDir, 'models'),
    textWorkers: n,
    defaultPlan: plan,
    translation,
    preload: flag(env, 'AI_PRELOAD'),
    visionPreload: flag(env, 'AI_VISION_PRELOAD'),
  };
}
