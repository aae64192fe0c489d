// Search-service settings read from the environment once per process (see docs/search.md).
// A bad value stops start-up with one line naming the variable, like lib/config.ts.
import { ConfigError, envInt } from '../../lib/config.js';
import { isPlanCode, type PlanCode } from './plans.js';

export interface SearchConfig {
  /** run the task worker (and webhook sender) in this process; API-only replicas set SEARCH_WORKER=0 */
  worker: boolean;
  /** plan limits applied when the tenant context carries no plan */
  defaultPlan: PlanCode;
  /** how long a claimed task may sit in `processing` without its worker holding it before another worker re-claims it */
  taskLeaseMs: number;
  /** a task claimed this many times (its workers kept dying) fails instead of being retried again */
  taskMaxAttempts: number;
  /** idle poll interval of the worker (NOTIFY wakes it at once; polling catches expired leases) */
  pollMs: number;
  /** first webhook retry delay; doubles per attempt */
  webhookBackoffMs: number;
  webhookMaxAttempts: number;
  webhookTimeoutMs: number;
  /** write an engine snapshot once this many documents changed since the last one */
  snapshotEveryDocs: number;
  /** an engine snapshot is stored in chunks of at most this many bytes (before compression) */
  snapshotChunkBytes: number;
  /** flush buffered search analytics at least this often */
  analyticsFlushMs: number;
  /** loaded engines' estimated memory is kept under this (least recently used unloaded first) */
  memoryBudgetBytes: number;
  /**
   * the budget also bounds what the engines cost the process as measured (RSS over the process at rest:
   * engine-registry/memory-check.ts); default on with placement (a search node), off otherwise
   */
  memoryCheck: boolean;
  /** build engines and write snapshots in a worker thread (0: on the event loop) */
  engineThread: boolean;
  /** a search waits this long for its index's engine to load, then answers 503 with Retry-After */
  engineLoadWaitMs: number;
  /** engine loads run at once; the others queue, the most awaited first (SEARCH_ENGINE_CONCURRENT_LOADS) */
  engineConcurrentLoads: number;
  /** how often loaded engines are checked against deleted indexes (missed notifications) */
  engineSweepMs: number;
  /** the task history keeps each app partition's latest this many task numbers; finished tasks older than that are deleted */
  taskHistory: number;
  /** how often the worker prunes the task history */
  taskPruneMs: number;
  /** placement of indexes across search nodes (placement/); undefined: this process serves every index itself */
  placement?: PlacementConfig;
}

export interface PlacementConfig {
  /** this node's name on the ring (stable across restarts: its share follows it) */
  nodeId: string;
  /** where the other search nodes reach this one (scheme, host and port) */
  nodeUrl: string;
  /** R: how many live nodes hold each index (fewer when fewer are live) */
  replicas: number;
  heartbeatMs: number;
  /** a node whose heartbeat is older than this is dead: its indexes go to the next nodes on the ring */
  staleMs: number;
  /** an engine this node no longer holds (a node joined) is unloaded once it has not held it this long */
  graceMs: number;
  /** a forwarded search waits this long for the holder's answer, then tries the next holder */
  forwardTimeoutMs: number;
}

export function loadSearchConfig(env: NodeJS.ProcessEnv = process.env): SearchConfig {
  const worker = env.SEARCH_WORKER ?? '1';
  if (worker !== '0' && worker !== '1') throw new ConfigError('SEARCH_WORKER', `"${worker}" must be 0 or 1`);
  const plan = (env.SEARCH_DEFAULT_PLAN || 'free').toLowerCase();
  if (!isPlanCode(plan)) throw new ConfigError('SEARCH_DEFAULT_PLAN', `"${plan}" must be one of free, starter, growth, enterprise`);
  const thread = env.SEARCH_ENGINE_THREAD ?? '1';
  const check = env.SEARCH_MEMORY_CHECK ?? (env.SEARCH_NODE_URL?.trim() ? '1' : '0');
  if (check !== '0' && check !== '1') throw new ConfigError('SEARCH_MEMORY_CHECK', `"${check}" must be 0 or 1`);
  if (thread !== '0' && thread !== '1') throw new ConfigError('SEARCH_ENGINE_THREAD', `"${thread}" must be 0 or 1`);
  return {
    worker: worker === '1',
    defaultPlan: plan,
    taskLeaseMs: envInt(env, 'SEARCH_TASK_LEASE_MS', 30_000, 100),
    taskMaxAttempts: envInt(env, 'SEARCH_TASK_MAX_ATTEMPTS', 5),
    pollMs: envInt(env, 'SEARCH_POLL_MS', 1000, 10),
    webhookBackoffMs: envInt(env, 'SEARCH_WEBHOOK_BACKOFF_MS', 1000, 10),
    webhookMaxAttempts: envInt(env, 'SEARCH_WEBHOOK_MAX_ATTEMPTS', 8),
    webhookTimeoutMs: envInt(env, 'SEARCH_WEBHOOK_TIMEOUT_MS', 10_000, 100),
    snapshotEveryDocs: envInt(env, 'SEARCH_SNAPSHOT_EVERY_DOCS', 5000),
    snapshotChunkBytes: chunkKb(env) * 1024,
    analyticsFlushMs: envInt(env, 'SEARCH_ANALYTICS_FLUSH_MS', 500, 10),
    memoryBudgetBytes: envInt(env, 'SEARCH_MEMORY_BUDGET_MB', 512, 1) * 1024 * 1024,
    memoryCheck: check === '1',
    engineThread: thread === '1',
    engineLoadWaitMs: envInt(env, 'SEARCH_ENGINE_LOAD_WAIT_MS', 20_000, 1),
    engineSweepMs: envInt(env, 'SEARCH_ENGINE_SWEEP_MS', 30_000, 100),
    engineConcurrentLoads: envInt(env, 'SEARCH_ENGINE_CONCURRENT_LOADS', 2, 1),
    taskHistory: envInt(env, 'SEARCH_TASK_HISTORY', 100_000, 1),
    taskPruneMs: envInt(env, 'SEARCH_TASK_PRUNE_MS', 300_000, 100),
    placement: placementConfig(env, envInt(env, 'SEARCH_ENGINE_LOAD_WAIT_MS', 20_000, 1)),
  };
}

/** SEARCH_NODE_URL turns placement on; without it the process serves every index itself (one process, npm start). */
function placementConfig(env: NodeJS.ProcessEnv, loadWaitMs: number): PlacementConfig | undefined {
  const raw = env.SEARCH_NODE_URL?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SEARCH_NODE_URL', `"${raw}" must be an http(s) URL such as http://10.0.0.5:4004`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('SEARCH_NODE_URL', `"${raw}" must be an http(s) URL`);
  const nodeUrl = url.origin;
  const nodeId = env.SEARCH_NODE_ID?.trim() || nodeUrl;
  if (nodeId.length > 255) throw new ConfigError('SEARCH_NODE_ID', 'must be at most 255 characters');
  const heartbeatMs = envInt(env, 'SEARCH_NODE_HEARTBEAT_MS', 1000, 50);
  const staleMs = envInt(env, 'SEARCH_NODE_STALE_MS', 5000, 100);
  if (staleMs <= heartbeatMs * 2) throw new ConfigError('SEARCH_NODE_STALE_MS', `must be more than twice SEARCH_NODE_HEARTBEAT_MS (${heartbeatMs})`);
  return {
    nodeId,
    nodeUrl,
    replicas: envInt(env, 'SEARCH_REPLICAS', 2, 1),
    heartbeatMs,
    staleMs,
    graceMs: envInt(env, 'SEARCH_PLACEMENT_GRACE_MS', 10_000, 0),
    // longer than a holder's own wait for a loading engine, so its 503 + Retry-After comes back
    forwardTimeoutMs: envInt(env, 'SEARCH_FORWARD_TIMEOUT_MS', loadWaitMs + 5000, 100),
  };
}

/** The most SEARCH_SNAPSHOT_CHUNK_KB may be: 64 MiB (one PostgreSQL value stays well below 1 GB). */
export const MAX_SNAPSHOT_CHUNK_KB = 64 * 1024;

/** SEARCH_SNAPSHOT_CHUNK_KB: 16 MiB by default, at most MAX_SNAPSHOT_CHUNK_KB. */
function chunkKb(env: NodeJS.ProcessEnv): number {
  const kb = envInt(env, 'SEARCH_SNAPSHOT_CHUNK_KB', 16 * 1024, 1);
  if (kb > MAX_SNAPSHOT_CHUNK_KB) throw new ConfigError('SEARCH_SNAPSHOT_CHUNK_KB', `"${kb}" must be at most ${MAX_SNAPSHOT_CHUNK_KB} (64 MiB)`);
  return kb;
}
