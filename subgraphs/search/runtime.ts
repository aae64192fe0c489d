// The search service's process-level services, built once per process (SubgraphDefinition.runtime)
// and passed explicitly: requests get them as `ctx.runtime`, the workers (workers.ts) as
// `deps.runtime`. The pg pool of the hot paths, the in-memory engines, the webhook outbox (lib/webhooks),
// the analytics buffer, the searches-per-second limiter. Nothing here imports the task code that uses it.
import type pg from 'pg';
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { trackSearchEngines } from '../../lib/metrics.js';
import type { PubSub } from '../../lib/pubsub.js';
import type { RateLimiter } from '../../lib/rate-limit.js';
import { sharedRateLimiter } from '../../lib/redis-fallback.js';
import { closeRedis, connectRedis, redisConfigured } from '../../lib/redis.js';
import type { SubgraphRuntime, WorkerDeps } from '../../lib/subgraph.js';
import { toSql, WebhookRuntime } from '../../lib/webhooks/index.js';
import { AnalyticsBuffer } from './analytics/analytics.buffer.js';
import { loadSearchConfig, type SearchConfig } from './config.js';
import { createPool } from './db.js';
import { engineFactory } from '../../lib/search-engine/index.js';
import { InlineEngineBuilder, ThreadEngineBuilder } from './engine-registry/engine-builder.js';
import { listenForDrops } from './engine-registry/engine-drops.js';
import { EngineLoader } from './engine-registry/engine-loader.js';
import { EngineRegistry } from './engine-registry/engine-registry.js';
import { MemoryCheck } from './engine-registry/memory-check.js';
import { Placement } from './placement/placement.js';

export interface SearchRuntime {
  cfg: SearchConfig;
  pool: pg.Pool;
  /** the database URL the pool connects to */
  dbUrl: string;
  /** LISTEN connections: DATABASE_DIRECT_URL when set (the pool then goes through a transaction pooler), else dbUrl */
  listenUrl: string;
  /** named prepared statements on the pool: not through a transaction pooler (DATABASE_DIRECT_URL set), whose connections change per transaction */
  namedStatements: boolean;
  log: Logger;
  pubsub: PubSub;
  engines: EngineRegistry;
  limiter: RateLimiter;
  analytics: AnalyticsBuffer;
  allowPrivateNetwork: boolean;
  /** the master-key SecretBox (webhook secrets are sealed with it) */
  secrets: SecretBox;
  /** the webhook outbox and its delivery jobs (lib/webhooks); workers.ts runs the sender */
  webhooks: WebhookRuntime;
  /** after a commit that queued webhook deliveries: look for them now (the queue's NOTIFY does too) */
  wakeDispatcher(): void;
  /** this node's place among the search nodes (SEARCH_NODE_URL set); undefined: it serves every index itself */
  placement?: Placement;
  /** signs requests to the other search nodes (INTERNAL_SECRET) */
  internalSecret: string;
}

export async function createSearchRuntime(deps: WorkerDeps): Promise<SubgraphRuntime<SearchRuntime>> {
  const cfg = loadSearchConfig();
  const log = deps.log.child({ component: 'search-runtime' });
  const dbUrl = deps.orm.config.get('clientUrl') as string;
  const pool = createPool(dbUrl, log);
  const redis = redisConfigured(deps.cfg) ? await connectRedis(deps.cfg, log) : undefined;
  const secrets = masterSecretBox(deps.cfg, log);
  const webhooks = new WebhookRuntime({
    schema: 'search',
    service: 'search',
    secrets,
    allowPrivate: deps.cfg.allowPrivateNetworkFetch,
    log,
    sql: toSql(pool),
    dbUrl,
    listenUrl: deps.cfg.databaseDirectUrl,
    maxAttempts: cfg.webhookMaxAttempts,
    retryBaseMs: cfg.webhookBackoffMs,
    timeoutMs: cfg.webhookTimeoutMs,
    // retries come due by the clock, not by NOTIFY: poll at a quarter of the first delay so a retry
    // starts close to when it is due and the documented doubling shows
    pollMs: Math.min(cfg.pollMs, Math.max(25, Math.floor(cfg.webhookBackoffMs / 4))),
    // X-Signature is the header docs/search.md promised before X-Webhook-Signature became everyone's
    signatureHeaders: ['x-webhook-signature', 'x-signature'],
  });
  const loader = new EngineLoader(pool, engineFactory, log, cfg.snapshotChunkBytes);
  const builder = cfg.engineThread ? new ThreadEngineBuilder(dbUrl, log) : new InlineEngineBuilder(loader);
  if (builder instanceof ThreadEngineBuilder) builder.start();
  // a search node's budget bounds what its engines cost as measured, not only their estimate (memory-check.ts)
  const memoryCheck = cfg.memoryCheck ? new MemoryCheck({ budgetBytes: cfg.memoryBudgetBytes, collect: () => builder.collect(), log }) : undefined;
  // its rest: once both isolates are up and collected (the thread answers once its modules loaded), not
  // at the first engine load, which may come after the worker has indexed for a while (its garbage
  // would count as rest); a load before that still sets it first
  if (memoryCheck) void builder.collect().then(() => memoryCheck.atRest(), (e: unknown) => log.warn('engine memory check: rest not measured at start', { err: e }));
  const rt: SearchRuntime = {
    cfg,
    pool,
    dbUrl,
    listenUrl: deps.cfg.databaseDirectUrl ?? dbUrl,
    namedStatements: !deps.cfg.databaseDirectUrl,
    log,
    pubsub: deps.pubsub,
    engines: new EngineRegistry({
      pool,
      loader,
      builder,
      log,
      budgetBytes: cfg.memoryBudgetBytes,
      snapshotEveryDocs: cfg.snapshotEveryDocs,
      loadWaitMs: cfg.engineLoadWaitMs,
      concurrentLoads: cfg.engineConcurrentLoads,
      memoryCheck,
    }),
    limiter: sharedRateLimiter(redis, deps.cfg.redisKeyPrefix, log, 'search limits'),
    analytics: new AnalyticsBuffer(pool, log, cfg.analyticsFlushMs),
    allowPrivateNetwork: deps.cfg.allowPrivateNetworkFetch,
    secrets,
    webhooks,
    wakeDispatcher: () => webhooks.kick(),
    internalSecret: deps.cfg.internalSecret,
  };
  if (cfg.placement) rt.placement = new Placement({ cfg: cfg.placement, pool, engines: rt.engines, log, secret: deps.cfg.internalSecret, budgetBytes: cfg.memoryBudgetBytes });
  rt.analytics.start();
  const untrack = trackSearchEngines(() => {
    const st = rt.engines.stats();
    return { loaded: st.loaded, bytes: st.bytes, budget_bytes: cfg.memoryBudgetBytes, loads: st.loads, loads_from_snapshot: st.snapshotLoads, unloads: st.unloads, drops: st.drops, graph_rebuilds: st.graphRebuilds };
  });
  const drops = await listenForDrops({ dbUrl: rt.listenUrl, engines: rt.engines, log, sweepMs: cfg.engineSweepMs });
  await rt.placement?.start();
  log.info('search runtime started', {
    defaultPlan: cfg.defaultPlan,
    worker: cfg.worker,
    engineThread: cfg.engineThread,
    memoryCheck: cfg.memoryCheck,
    memoryBudgetMb: cfg.memoryBudgetBytes / 1048576,
  });
  return {
    value: rt,
    async stop() {
      await rt.placement?.stop();
      untrack();
      await drops.stop();
      memoryCheck?.stop();
      await builder.stop();
      await rt.analytics.stop();
      await pool.end();
      await closeRedis(redis);
    },
  };
}
