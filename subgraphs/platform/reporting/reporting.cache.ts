// Reports are cached per (report, parameters) for a short TTL: they aggregate whole tables, and an
// investor dashboard asks for the same numbers again and again. force_refresh bypasses (and
// refreshes) the entry. Identical requests in flight share one computation.
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

export const reportCache: ReportCache = new MemoryReportCache();
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
