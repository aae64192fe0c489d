// What one AI process holds besides requests: the text models in worker threads, the ONNX model
// directory, the translation engine, the catalogue-name cache and the plan-limit counters (Redis
// when REDIS_URL is set, so replicas share one budget). Built once at start (the subgraph's
// runtime hook) and handed to every request as ctx.runtime.
import type { RedisClientType } from 'redis';
import type { RateLimiter } from '../../lib/rate-limit.js';
import { sharedRateLimiter } from '../../lib/redis-fallback.js';
import { closeRedis, connectRedis, redisConfigured } from '../../lib/redis.js';
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import { toSql, WebhookRuntime } from '../../lib/webhooks/index.js';
import type { SubgraphRuntime, WorkerDeps } from '../../lib/subgraph.js';
import { CatalogProductNames } from './catalog/catalog-names.js';
import { loadAiConfig, type AiConfig } from './config.js';
import { Apertium } from './models/apertium.js';
import { HASHED_MODEL } from '../../lib/hashed-embeddings.js';
import { WORD_VECTORS_MODEL, wordVectorsInstalled } from '../../lib/word-vectors.js';
import { OnnxModelDirectory } from './models/onnx-embeddings.js';
import { TextModelPool } from './models/text-model-pool.js';
import { ClassifierModelCache } from './classifiers/model-cache.js';
import { loadLlmConfig, type LlmConfig } from './prompts/llm.client.js';
import { ChatText, loadChatTextConfig } from './operator-models/chat-text.js';
import { loadModelServersConfig, modelServers, type ModelServers } from './operator-models/model-servers.js';
import { buildServerRegistry, type ServerRegistry } from './operator-models/server-registry.js';
import { Vision, VisionWorkers } from '../../lib/vision/index.js';
import { OcrEngine } from './images/ocr.engine.js';

export interface AiRuntime {
  cfg: AiConfig;
  text: TextModelPool;
  onnx: OnnxModelDirectory;
  translator: Promise<Apertium>;
  limiter: RateLimiter;
  productNames: CatalogProductNames;
  /** the webhook outbox and its delivery jobs (lib/webhooks); the workers hook runs the sender */
  webhooks: WebhookRuntime;
  webhookSecrets: SecretBox;
  allowPrivateNetwork: boolean;
  /** trained custom-classifier models of this process, by classifier and version */
  classifierModels: ClassifierModelCache;
  /** the OpenAI-compatible endpoint prompts execute against (AI_LLM_*) */
  llm: LlmConfig;
  /** summaries and translation on that endpoint when the operator names models for them (AI_SUMMARY_LLM, AI_TRANSLATION_LLM) */
  chatText: ChatText;
  /** the operator's embedding and moderation servers (AI_EMBEDDINGS_URL, AI_MODERATION_URL), null when not set */
  servers: ModelServers;
  /** every server a tenant may pick per text task (AI_MODEL_SERVERS) and the operator's defaults above (model-choices/) */
  registry: ServerRegistry;
  /** CenterNet and MobileNetV2 in worker threads (lib/vision), loaded in the background at start */
  vision: Vision;
  ocr: OcrEngine;
}

export async function createAiRuntime(deps: WorkerDeps): Promise<SubgraphRuntime<AiRuntime>> {
  const cfg = loadAiConfig(deps.cfg.dataDir);
  const redis: RedisClientType | undefined = redisConfigured(deps.cfg) ? await connectRedis(deps.cfg, deps.log) : undefined;
  // the text models load on first use (each model on the first call that needs it); AI_PRELOAD=1 at start
  const text = new TextModelPool(cfg.textWorkers, cfg.preload);
  if (cfg.preload) void text.ready().then(() => deps.log.info('AI text models loaded', text.health()));
  const webhookSecrets = masterSecretBox(deps.cfg, deps.log);
  const webhooks = new WebhookRuntime({
    schema: 'ai',
    service: 'ai',
    secrets: webhookSecrets,
    allowPrivate: deps.cfg.allowPrivateNetworkFetch,
    log: deps.log,
    sql: toSql(deps.orm.em.fork()),
    dbUrl: deps.orm.config.get('clientUrl') as string,
    listenUrl: deps.cfg.databaseDirectUrl,
    maxAttempts: deps.cfg.webhookMaxAttempts,
    retryBaseMs: deps.cfg.webhookRetryBaseMs,
    pollMs: deps.cfg.webhookPollMs,
  });
  const llm = loadLlmConfig();
  const serversCfg = loadModelServersConfig();
  const chatText = new ChatText(llm, loadChatTextConfig(llm));
  const servers = modelServers(serversCfg);
  // Apertium's pipelines start on a pair's first call (~0.5–1.5 s once), even with AI_PRELOAD=1:
  // one per installed mode would hold ~115 MB each (PSS) whether used or not
  const translator = Apertium.discover(cfg.translation);
  const value: AiRuntime = {
    cfg,
    text,
    onnx: new OnnxModelDirectory(cfg.modelsDir),
    translator,
    limiter: sharedRateLimiter(redis, deps.cfg.redisKeyPrefix, deps.log, 'AI limits'),
    productNames: new CatalogProductNames(deps.cfg.subgraphUrls.catalog, deps.cfg.internalSecret, deps.log),
    webhooks,
    webhookSecrets,
    allowPrivateNetwork: deps.cfg.allowPrivateNetworkFetch,
    classifierModels: new ClassifierModelCache(),
    llm,
    chatText,
    servers,
    registry: buildServerRegistry({ servers, chatText }, llm, chatText.cfg, serversCfg.resilience),
    // each vision model loads in its worker on its first call (CenterNet 1–3 s, MobileNetV2 5–10 s),
    // so processes that never see an image pay nothing; AI_PRELOAD=1 (or AI_VISION_PRELOAD=1 for
    // these two alone) loads both in the background at start instead
    // one pair of model workers with the catalog when both run in one process (lib/process-shared.ts)
    vision: new Vision({ preloadDetector: cfg.preload || cfg.visionPreload, preloadMobileNet: cfg.preload || cfg.visionPreload }, deps.shared?.get('vision', () => new VisionWorkers())),
    ocr: new OcrEngine(),
  };
  return {
    value,
    async stop() {
      await text.stop();
      await value.vision.stop();
      (await value.translator).stop();
      await closeRedis(redis);
    },
  };
}

/** Readiness of every model, for /health/ready and the bridge's /health/detailed. */
export async function aiHealth(rt: AiRuntime): Promise<Record<string, unknown>> {
  const t = await rt.translator;
  return {
    text: rt.text.health(),
    translation: { status: t.pairs.length ? 'ready' : 'unavailable', engine: t.version, pairs: t.pairs.map((p) => `${p.source}-${p.target}`), pipelines: t.running(), placements: t.placements() },
    vision: rt.vision.health(),
    embeddings: {
      status: 'ready',
      builtin: wordVectorsInstalled() ? [WORD_VECTORS_MODEL, HASHED_MODEL] : [HASHED_MODEL],
      onnx_dir: rt.cfg.modelsDir,
      onnx_models: rt.onnx.names(),
      onnx_loaded: rt.onnx.loadedNames(),
      ...(rt.servers.embeddings ? { server: { model: rt.servers.embeddings.name, circuit: rt.servers.embeddings.breaker.state } } : {}),
    },
    ...(rt.servers.moderation ? { moderation_server: { model: rt.servers.moderation.name, circuit: rt.servers.moderation.breaker.state } } : {}),
  };
}
