// AI-service settings read from the environment once per process (see docs/ai.md).
// A bad value stops start-up with one line naming the variable, like lib/config.ts.
import { join } from 'node:path';
import { ConfigError } from '../../lib/config.js';
import { isAiPlan, type AiPlan } from './limits/plans.js';

export interface AiConfig {
  /** where operators drop ONNX embedding models, one folder per model */
  modelsDir: string;
  /** worker threads hosting the text models (each loads its own copy) */
  textWorkers: number;
  /** plan limits applied when the tenant context carries no plan */
  defaultPlan: AiPlan;
}

export function loadAiConfig(dataDir: string, env: NodeJS.ProcessEnv = process.env): AiConfig {
  const workers = env.AI_TEXT_WORKERS ?? '1';
  const n = Number(workers);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new ConfigError('AI_TEXT_WORKERS', `"${workers}" must be an integer from 1 to 16`);
  const plan = (env.AI_DEFAULT_PLAN || 'free').toLowerCase();
  if (!isAiPlan(plan)) throw new ConfigError('AI_DEFAULT_PLAN', `"${plan}" must be one of free, starter, growth, enterprise`);
  return { modelsDir: env.AI_MODELS_DIR || join(dataDir, 'models'), textWorkers: n, defaultPlan: plan };
}
