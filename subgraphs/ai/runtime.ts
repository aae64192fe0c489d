// What one AI process holds besides requests: the text models in worker threads, the ONNX model
// directory, the translation engine, and the plan-limit counters (Redis when REDIS_URL is set, so
// replicas share one budget). Built once by the subgraph's workers() and handed to every request
// through its context (ctx.loaders.runtime).
import type { RedisClientType } from 'redis';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../../lib/rate-limit.js';
import { connectRedis } from '../../lib/redis.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import { CatalogProductNames } from './catalog/catalog-names.js';
import { loadAiConfig, type AiConfig } from './config.js';
import { Apertium } from './models/apertium.js';
import { OnnxModelDirectory } from './models/onnx-embeddings.js';
import { TextModelPool } from './models/text-model-pool.js';

export interface AiModels {
  cfg: AiConfig;
  text: TextModelPool;
  onnx: OnnxModelDirectory;
  translator: Promise<Apertium>;
  limiter: RateLimiter;
  productNames: CatalogProductNames;
}

export class AiRuntime {
  private started?: AiModels;
  private redis?: RedisClientType;

  get models(): AiModels {
    if (!this.started) throw new Error('the AI runtime has not been started');
    return this.started;
  }

  async start(deps: WorkerDeps): Promise<Worker> {
    const cfg = loadAiConfig(deps.cfg.dataDir);
    if (deps.cfg.redisUrl) this.redis = await connectRedis(deps.cfg.redisUrl, deps.log);
    const text = new TextModelPool(cfg.textWorkers);
    const translator = Apertium.discover();
    this.started = {
      cfg,
      text,
      onnx: new OnnxModelDirectory(cfg.modelsDir),
      translator,
      limiter: this.redis ? new RedisRateLimiter(this.redis) : new MemoryRateLimiter(),
      productNames: new CatalogProductNames(deps.cfg.subgraphUrls.catalog, deps.cfg.internalSecret, deps.log),
    };
    void text.ready().then(() => deps.log.info('AI text models loaded', text.health()));
    return {
      stop: async () => {
        await text.stop();
        await this.redis?.quit().catch(() => undefined);
        this.started = undefined;
      },
    };
  }

  /** Readiness of every model, for /health/ready and the bridge's /health/detailed. */
  async health(): Promise<Record<string, unknown>> {
    if (!this.started) return { status: 'stopped' };
    const { text, onnx, translator, cfg } = this.started;
    const t = await translator;
    return {
      text: text.health(),
      translation: { status: t.pairs.length ? 'ready' : 'unavailable', engine: t.version, pairs: t.pairs.map((p) => `${p.source}-${p.target}`) },
      embeddings: { status: 'ready', builtin: ['hashed-ngrams-384'], onnx_dir: cfg.modelsDir, onnx_models: onnx.names(), onnx_loaded: onnx.loadedNames() },
    };
  }
}
