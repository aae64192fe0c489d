// Reports are cached per (report, parameters) for a short TTL: they aggregate whole tables, and an
// investor dashboard asks for the same numbers again and again. force_refresh bypasses (and
// refreshes) the entry. Identical requests in flight share one computation. In-process by default;
// in Redis when REDIS_URL is set (useReportCacheFromConfig, run at subgraph start), so replicas
// share entries and a force_refresh on one replica refreshes them all.
import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { closeRedis, connectRedis, redisConfigured } from '../../../lib/redis.js';
import type { Worker, WorkerDeps } from '../../../lib/subgraph.js';

export const REPORT_CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 1000;

export interface ReportCache {
  get(key: string): Promise<unknown | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
}

/** In-process: a Map with expiry, bounded (oldest entries go first). */
export class MemoryReportCache implements ReportCache {
  private entries = new Map<string, { expires: number; value: unknown }>();
  constructor(private now: () => number = Date.now) {}
  async get(key: string): Promise<unknown | undefined> {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }
  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { expires: this.now() + ttlMs, value });
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

const KEY_PREFIX = 'platform:report:';
/** JSON turns dates into strings; these fields are dates again on the way out. */
const DATE_FIELDS = new Set(['generatedAt', 'bucket']);

/**
 * `namespace` separates deployments that share one Redis but not one database (reports are of a
 * database): the caller derives it from the database address.
 */
export class RedisReportCache implements ReportCache {
  constructor(private redis: RedisClientType, private namespace: string, private keyPrefix = '') {}
  async get(key: string): Promise<unknown | undefined> {
    if (!this.redis.isReady) return undefined; // Redis lost: a cache miss, never a wait (docs/operations.md)
    const raw = await this.redis.get(`${this.keyPrefix}${KEY_PREFIX}${this.namespace}:${key}`);
    if (!raw) return undefined;
    return JSON.parse(raw, (k, v) => (DATE_FIELDS.has(k) && typeof v === 'string' ? new Date(v) : v));
  }
  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (!this.redis.isReady) return;
    await this.redis.set(`${this.keyPrefix}${KEY_PREFIX}${this.namespace}:${key}`, JSON.stringify(value), { PX: ttlMs });
  }
}

let reportCache: ReportCache = new MemoryReportCache();

/** Platform subgraph start-up: the Redis-backed cache when REDIS_URL is set; the worker closes its client. */
export function useReportCacheFromConfig(deps: WorkerDeps): Worker {
  let client: RedisClientType | undefined;
  let closed = false;
  if (redisConfigured(deps.cfg)) {
    connectRedis(deps.cfg, deps.log)
      .then((c) => {
        if (closed) return void closeRedis(c);
        client = c;
        const database = createHash('sha256').update(String(deps.orm.config.get('clientUrl'))).digest('hex').slice(0, 16);
        reportCache = new RedisReportCache(c, database, deps.cfg.redisKeyPrefix);
      })
      .catch((err) => deps.log.error('report cache: Redis unavailable, staying in-process', { err }));
  }
  return {
    async stop() {
      closed = true;
      reportCache = new MemoryReportCache();
      await closeRedis(client);
    },
  };
}
const inflight = new Map<string, Promise<unknown>>();

/** The cached value, or `compute()` (stored); `cached` says which. */
export async function cachedReport<T extends object>(key: string, force: boolean, compute: () => Promise<T>): Promise<T & { cached: boolean }> {
  if (!force) {
    const hit = (await reportCache.get(key)) as T | undefined;
    if (hit) return { ...hit, cached: true };
  }
  let p = inflight.get(key) as Promise<T> | undefined;
  if (!p) {
    p = compute().then(async (v) => {
      await reportCache.set(key, v, REPORT_CACHE_TTL_MS);
      return v;
    });
    inflight.set(key, p);
    void p.finally(() => inflight.delete(key)).catch(() => undefined);
  }
  return { ...(await p), cached: false };
}
