// The search service's process-level machinery, started once with the subgraph (SubgraphDefinition
// .start): the pg pool of the hot paths, the in-memory engines, the task worker, the webhook
// dispatcher, the analytics buffer and the searches-per-second limiter. Request handlers reach it
// through searchRuntime(); one search subgraph runs per process.
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { Config } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import type { PubSub } from '../../lib/pubsub.js';
import { masterSecretBox, type SecretBox } from '../../lib/crypto.js';
import { toSql, WebhookRuntime } from '../../lib/webhooks/index.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../../lib/rate-limit.js';
import { connectRedis } from '../../lib/redis.js';
import { AnalyticsBuffer } from './analytics/analytics.buffer.js';
import { loadSearchConfig, type SearchConfig } from './config.js';
import { createPool } from './db.js';
import { engineFactory } from './engine/index.js';
import { EngineRegistry } from './engines/engine-registry.js';
import { TaskWorker } from './tasks/task.worker.js';

export interface SearchRuntime {
  cfg: SearchConfig;
  pool: pg.Pool;
  log: Logger;
  pubsub: PubSub;
  engines: EngineRegistry;
  limiter: RateLimiter;
  analytics: AnalyticsBuffer;
  allowPrivateNetwork: boolean;
  /** the master-key SecretBox (webhook secrets are sealed with it) */
  secrets: SecretBox;
  /** the webhook outbox and sender of this process (lib/webhooks) */
  webhooks: WebhookRuntime;
  /** null when SEARCH_WORKER=0 */
  worker: TaskWorker | null;
  wakeDispatcher(): void;
}

let current: SearchRuntime | undefined;

export function searchRuntime(): SearchRuntime {
  if (!current) throw new Error('the search runtime is not started (SubgraphDefinition.start)');
  return current;
}

/** How long the worker must have been idle before a snapshot is written (they cost CPU). */
const SNAPSHOT_QUIET_MS = 3000;

export async function startSearchRuntime(deps: { orm: MikroORM; cfg: Config; log: Logger; pubsub: PubSub }): Promise<{ stop(): Promise<void> }> {
  const cfg = loadSearchConfig();
  const log = deps.log.child({ component: 'search-runtime' });
  const dbUrl = deps.orm.config.get('clientUrl') as string;
  const pool = createPool(dbUrl);
  pool.on('error', (e) => log.warn('idle pg connection lost', { err: e }));
  const redis = deps.cfg.redisUrl ? await connectRedis(deps.cfg.redisUrl, log) : undefined;
  const secrets = masterSecretBox(deps.cfg, log);
  const webhooks = new WebhookRuntime({
    schema: 'search',
    service: 'search',
    secrets,
    allowPrivate: deps.cfg.allowPrivateNetworkFetch,
    log,
    sql: toSql(pool),
    maxAttempts: cfg.webhookMaxAttempts,
    retryBaseMs: cfg.webhookBackoffMs,
    jitter: 0,
    timeoutMs: cfg.webhookTimeoutMs,
    pollMs: Math.min(cfg.pollMs, cfg.webhookBackoffMs),
    // X-Signature is the header docs/search.md promised before X-Webhook-Signature became everyone's
    signatureHeaders: ['x-webhook-signature', 'x-signature'],
    send: cfg.worker,
  });
  const rt: SearchRuntime = {
    cfg,
    pool,
    log,
    pubsub: deps.pubsub,
    engines: new EngineRegistry(pool, engineFactory, log),
    limiter: redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter(),
    analytics: new AnalyticsBuffer(pool, log, cfg.analyticsFlushMs),
    allowPrivateNetwork: deps.cfg.allowPrivateNetworkFetch,
    secrets,
    webhooks,
    worker: null,
    wakeDispatcher: () => webhooks.kick(),
  };
  current = rt;
  rt.analytics.start();
  let maintenance: NodeJS.Timeout | undefined;
  if (cfg.worker) {
    rt.worker = new TaskWorker(rt, dbUrl);
    await rt.worker.start();
    webhooks.start();
    let busy = false;
    maintenance = setInterval(() => {
      if (busy || Date.now() - rt.worker!.lastActivity < SNAPSHOT_QUIET_MS) return;
      const due = rt.engines.snapshotCandidates(cfg.snapshotEveryDocs);
      if (!due.length) return;
      busy = true;
      (async () => {
        for (const id of due) await rt.engines.snapshot(id);
      })()
        .catch((e) => log.error('engine snapshot failed', { err: e }))
        .finally(() => (busy = false));
    }, 1000);
    maintenance.unref();
  }
  log.info('search runtime started', { worker: cfg.worker ? rt.worker!.id : null, defaultPlan: cfg.defaultPlan });
  return {
    async stop() {
      clearInterval(maintenance);
      await rt.worker?.stop();
      await webhooks.stop();
      await rt.analytics.stop();
      await pool.end();
      await redis?.quit().catch(() => undefined);
      if (current === rt) current = undefined;
    },
  };
}
