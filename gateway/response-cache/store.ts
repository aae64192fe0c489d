// The cached answers of one gateway process: an LRU bounded by bytes (RESPONSE_CACHE_MAX_BYTES),
// each entry under its canonical key (partition, operation, variables), found by the request's
// own bytes through an alias (so a hit neither parses nor normalises), and indexed by tag within
// its tenant (app and environment) for exact invalidation.

export interface CacheEntry {
  key: string;
  /** app:environment: the tenant whose events invalidate it */
  tenant: string;
  /** the app whose writes (epochs.ts) invalidate it */
  app: string;
  /** the metrics label of the operation */
  route: string;
  /** the serialized body's bytes, sent as they are */
  body: Buffer;
  contentType: string;
  /** when it was filled (ms), for the Age header */
  storedAt: number;
  /** when it expires (ms): storedAt + maxAge */
  expiresAt: number;
  maxAge: number;
  scope: 'PUBLIC' | 'PRIVATE';
  tags: ReadonlySet<string>;
  /** the write epochs (global and the app's) read before the answer was computed (epochs.ts) */
  epochs: string;
  bytes: number;
}

/** Bookkeeping per entry beyond its body (Map slots, tag index, alias keys), in bytes. */
const OVERHEAD = 512;
/** Most request aliases kept (each maps a request's bytes to an entry key); cleared when passed. */
const MAX_ALIASES = 50_000;

export class EntryStore {
  /** insertion order is recency: a hit moves its entry to the end, eviction takes from the front */
  private readonly entries = new Map<string, CacheEntry>();
  private readonly aliases = new Map<string, string>();
  /** `tenant|tag` → entry keys */
  private readonly byTag = new Map<string, Set<string>>();
  private readonly byTenant = new Map<string, Set<string>>();
  /** entries per app (their epochs decide whether a request can be a hit) */
  private readonly perApp = new Map<string, number>();
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  static sizeOf(key: string, body: Buffer, tags: ReadonlySet<string>): number {
    let n = OVERHEAD + 2 * key.length + body.length;
    for (const t of tags) n += 2 * t.length + 64;
    return n;
  }

  /** Whether any entry of `app` is stored (a request of another app cannot be a hit here). */
  holds(app: string): boolean {
    return this.perApp.has(app);
  }

  /** The entry a request's bytes were last answered by (recency refreshed). */
  lookup(alias: string): CacheEntry | undefined {
    const key = this.aliases.get(alias);
    if (key === undefined) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  /** Store (replacing the key's entry), alias the request to it, evict the least recently used past the bound. */
  put(e: CacheEntry, alias: string): boolean {
    if (e.bytes > this.maxBytes / 4) return false;
    this.remove(e.key);
    this.entries.set(e.key, e);
    this.used += e.bytes;
    for (const t of e.tags) this.index(this.byTag, `${e.tenant}|${t}`, e.key);
    this.index(this.byTenant, e.tenant, e.key);
    this.perApp.set(e.app, (this.perApp.get(e.app) ?? 0) + 1);
    if (this.aliases.size >= MAX_ALIASES) this.aliases.clear();
    this.aliases.set(alias, e.key);
    for (const [k] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.remove(k);
    }
    return true;
  }

  remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.used -= e.bytes;
    for (const t of e.tags) this.unindex(this.byTag, `${e.tenant}|${t}`, key);
    this.unindex(this.byTenant, e.tenant, key);
    const left = (this.perApp.get(e.app) ?? 1) - 1;
    if (left > 0) this.perApp.set(e.app, left);
    else this.perApp.delete(e.app);
  }

  /** Drop the tenant's entries carrying any of `tags`; how many were dropped. */
  invalidateTags(tenant: string, tags: Iterable<string>): number {
    let n = 0;
    for (const t of tags) {
      const keys = this.byTag.get(`${tenant}|${t}`);
      if (!keys) continue;
      for (const k of [...keys]) {
        this.remove(k);
        n++;
      }
    }
    return n;
  }

  /** Drop every entry of tenants whose `app:environment` the predicate accepts. */
  invalidateTenants(match: (tenant: string) => boolean): number {
    let n = 0;
    for (const [tenant, keys] of [...this.byTenant]) {
      if (!match(tenant)) continue;
      for (const k of [...keys]) {
        this.remove(k);
        n++;
      }
    }
    return n;
  }

  private index(map: Map<string, Set<string>>, at: string, key: string): void {
    let set = map.get(at);
    if (!set) map.set(at, (set = new Set()));
    set.add(key);
  }

  private unindex(map: Map<string, Set<string>>, at: string, key: string): void {
    const set = map.get(at);
    if (!set) return;
    set.delete(key);
    if (!set.size) map.delete(at);
  }
}
