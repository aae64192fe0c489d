// API-key verification at the edge (modelled on Unkey's verifyKey): a typed result, never a throw.
// Records come from the platform subgraph and are cached in-process for a short TTL (positive and
// negative) in an LRU of at most maxEntries, so a cached verification is a Map lookup plus the
// checks below. Limits (docs/security.md): the app's rate_limit_per_minute is one budget shared by
// all its keys (`app:<id>`), a key's own limit is counted besides (`key:<id>`); a client address
// whose well-formed keys keep turning out unknown is refused without a lookup for the rest of the
// window, so random keys cannot load the database.
import { hashApiKey } from '../../lib/api-key-hash.js';
import net from 'node:net';
import { compileAllowList, ipAllowed } from '../../lib/ip-list.js';
import { originIn } from '../../lib/cors.js';
import { hitAll, type RateLimiter, type RateLimitResult, type UsageCounter } from '../../lib/rate-limit.js';
import type { Environment } from '../../lib/tenant.js';

export const KEY_PATTERN = /^(pk|sk)_(test|live)_(sh|ent|byok)_[A-Za-z0-9]{16,}$/;

export interface KeyRecord {
  keyId: string;
  appId: string;
  accountId: string;
  platformId: string;
  platformCode: string;
  environment: Environment;
  keyType: 'publishable' | 'secret';
  scopes: string[];
  rateLimitPerMinute: number | null;
  /** the app's limit, shared by all its keys (older platform answers: rateLimitPerMinute is used) */
  appRateLimitPerMinute?: number | null;
  /** the key's own limit, counted besides the app's */
  keyRateLimitPerMinute?: number | null;
  allowedIps: string[];
  allowedOrigins: string[];
  /** the app's allowed_origins, in force when the key lists none (lib/cors.ts) */
  appAllowedOrigins?: string[];
  expiresAt: string | null;
  revoked: boolean;
  appStatus: string;
  /** 'closed' once the account is soft-deleted */
  accountStatus?: string;
  deploymentModel?: string;
  plan?: string;
  /** false once the platform is deleted, disabled or not active */
  platformActive?: boolean;
}

export type KeyFailure = 'KEY_NOT_FOUND' | 'KEY_EXPIRED' | 'KEY_REVOKED' | 'APP_MISMATCH' | 'IP_NOT_ALLOWED' | 'ORIGIN_NOT_ALLOWED' | 'RATE_LIMITED' | 'FORBIDDEN' | 'SERVICE_UNAVAILABLE';

export type KeyVerification =
  | { valid: true; key: KeyRecord; rateLimit?: RateLimitResult }
  | { valid: false; code: KeyFailure; message: string; rateLimit?: RateLimitResult };

export interface VerifyRequest {
  appId: string;
  key: string;
  ip?: string;
  origin?: string;
}

export type KeyLookup = (appId: string, keyHash: string) => Promise<KeyRecord | null>;

interface CacheEntry {
  record: KeyRecord | null;
  ips: net.BlockList | null;
  expires: number;
}

/** The platform's hash of a key value (lib/api-key-hash.ts). */
export const hashKey = hashApiKey;

export { compileAllowList, ipAllowed } from '../../lib/ip-list.js';

export class ApiKeyVerifier {
  /** insertion order is recency order: a hit moves its entry to the end, the first entry is evicted */
  private cache = new Map<string, CacheEntry>();
  /** client address → until when its lookups are refused (it sent too many unknown keys) */
  private blockedUntil = new Map<string, number>();
  /** bumped by invalidate(): a lookup that started before an invalidation must not cache its (stale) answer */
  private generation = 0;
  /** uses counted since the last send (countUsage) */
  private pendingUsage = new Map<string, number>();
  private usageScheduled = false;

  constructor(
    private lookup: KeyLookup,
    private limiter: RateLimiter,
    private usage: UsageCounter,
    private opts: {
      ttlMs: number;
      negativeTtlMs?: number;
      defaultRateLimit?: number;
      now?: () => number;
      /** LRU size (default 50,000 records) */
      maxEntries?: number;
      /** unknown well-formed keys one client address may try per minute (default 60) */
      unknownKeysPerMinute?: number;
    },
  ) {}

  /**
   * Everything verify() checks but the rate limits and the usage count: the record (cached), its
   * state, IP and origin. Open WebSockets are re-checked with it when their key's record changes
   * (gateway/subscriptions/live-connections.ts).
   */
  async check(req: VerifyRequest): Promise<KeyVerification> {
    if (!KEY_PATTERN.test(req.key)) return { valid: false, code: 'KEY_NOT_FOUND', message: 'API key not recognised' };
    const now = (this.opts.now ?? Date.now)();
    const address = req.ip ?? 'unknown';
    let entry: CacheEntry | undefined = this.cached(req.appId, req.key, now);
    if (!entry) {
      const blocked = this.blockedUntil.get(address);
      if (blocked !== undefined && blocked > now) return this.unknownKeysLimited(blocked - now);
      try {
        entry = await this.load(req.appId, req.key, now);
      } catch {
        return { valid: false, code: 'SERVICE_UNAVAILABLE', message: 'API key verification is temporarily unavailable' };
      }
      if (!entry.record) {
        const limit = this.opts.unknownKeysPerMinute ?? 60;
        const r = await this.limiter.hit(`unknown-key:${address}`, limit);
        if (!r.allowed) {
          this.blockedUntil.set(address, now + r.resetMs);
          if (this.blockedUntil.size > 10_000) for (const [ip, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(ip);
          return this.unknownKeysLimited(r.resetMs, r);
        }
      }
    }
    const key = entry.record;
    if (!key) return { valid: false, code: 'KEY_NOT_FOUND', message: 'API key not recognised for this app' };
    if (key.appId !== req.appId) return { valid: false, code: 'APP_MISMATCH', message: 'API key does not belong to this app' };
    if (key.revoked) return { valid: false, code: 'KEY_REVOKED', message: 'API key has been revoked' };
    if (key.expiresAt && Date.parse(key.expiresAt) <= now) return { valid: false, code: 'KEY_EXPIRED', message: `API key expired at ${key.expiresAt}` };
    if (key.appStatus && key.appStatus !== 'active') return { valid: false, code: 'FORBIDDEN', message: `App is ${key.appStatus}` };
    if (key.accountStatus && key.accountStatus !== 'active') return { valid: false, code: 'FORBIDDEN', message: `Account is ${key.accountStatus}` };
    if (key.platformActive === false) return { valid: false, code: 'FORBIDDEN', message: 'Platform is not active' };
    if (!ipAllowed(entry.ips, req.ip)) return { valid: false, code: 'IP_NOT_ALLOWED', message: `Client IP ${req.ip ?? 'unknown'} is not in the key's allow-list` };
    // Browsers always send Origin; server-side callers do not, and Origin is only meaningful for browsers.
    // The key's list, else the app's (`*` in it allows any origin); both empty allows any (lib/cors.ts).
    const origins = key.allowedOrigins.length ? key.allowedOrigins : (key.appAllowedOrigins ?? []);
    if (origins.length && req.origin && !originIn(origins, req.origin)) {
      const whose = key.allowedOrigins.length ? "key's" : "app's";
      return { valid: false, code: 'ORIGIN_NOT_ALLOWED', message: `Origin ${req.origin} is not in the ${whose} allow-list` };
    }
    return { valid: true, key };
  }

  async verify(req: VerifyRequest): Promise<KeyVerification> {
    const checked = await this.check(req);
    if (!checked.valid) return checked;
    const key = checked.key;
    let rateLimit: RateLimitResult;
    if (key.appRateLimitPerMinute == null) {
      // a record without the app's limit (a platform older than the shared budget): per key, as before
      const limit = key.rateLimitPerMinute ?? this.opts.defaultRateLimit ?? 1000;
      rateLimit = await this.limiter.hit(`key:${key.keyId}`, limit);
      if (!rateLimit.allowed) return { valid: false, code: 'RATE_LIMITED', message: `Rate limit of ${limit} requests per minute exceeded`, rateLimit };
      this.countUsage(key.keyId);
      return { valid: true, key, rateLimit };
    }
    const appLimit = key.appRateLimitPerMinute;
    const keyLimit = key.keyRateLimitPerMinute;
    // the app's budget and the key's own counted in one step (one Redis round trip): a request counts against both
    const [app, own] = await hitAll(this.limiter, keyLimit != null ? [{ key: `app:${key.appId}`, limit: appLimit }, { key: `key:${key.keyId}`, limit: keyLimit }] : [{ key: `app:${key.appId}`, limit: appLimit }]);
    rateLimit = app!;
    if (!rateLimit.allowed) return { valid: false, code: 'RATE_LIMITED', message: `The app's rate limit of ${appLimit} requests per minute (shared by its keys) is exceeded`, rateLimit };
    if (own) {
      if (!own.allowed) return { valid: false, code: 'RATE_LIMITED', message: `Rate limit of ${keyLimit} requests per minute exceeded`, rateLimit: own };
      if (own.remaining < rateLimit.remaining) rateLimit = own;
    }
    this.countUsage(key.keyId);
    return { valid: true, key, rateLimit };
  }

  /**
   * One more use of the key. Not waited for: the answer does not depend on it, and a request should
   * not wait a Redis round trip for it. The uses of one turn of the event loop are sent together at
   * its end, one increment per key (FallbackUsageCounter keeps them in memory when Redis fails).
   */
  private countUsage(keyId: string): void {
    this.pendingUsage.set(keyId, (this.pendingUsage.get(keyId) ?? 0) + 1);
    if (this.usageScheduled) return;
    this.usageScheduled = true;
    setImmediate(() => this.sendUsage());
  }

  private sendUsage(): void {
    this.usageScheduled = false;
    const pending = this.pendingUsage;
    this.pendingUsage = new Map();
    for (const [keyId, n] of pending) this.usage.incr(keyId, n).catch(() => undefined);
  }

  /** Drop cached records (e.g. on a key revocation event). */
  invalidate(predicate: (r: KeyRecord | null, cacheKey: string) => boolean = () => true): void {
    this.generation++;
    for (const [k, e] of this.cache) if (predicate(e.record, k)) this.cache.delete(k);
  }

  private unknownKeysLimited(resetMs: number, rateLimit?: RateLimitResult): KeyVerification {
    const limit = this.opts.unknownKeysPerMinute ?? 60;
    return {
      valid: false,
      code: 'RATE_LIMITED',
      message: `Too many unknown API keys from this address (more than ${limit} per minute)`,
      rateLimit: rateLimit ?? { allowed: false, limit, remaining: 0, resetMs },
    };
  }

  /** A fresh cached entry, moved to the most recently used end. */
  private cached(appId: string, key: string, now: number): CacheEntry | undefined {
    const cacheKey = `${appId}:${hashKey(key)}`;
    const hit = this.cache.get(cacheKey);
    if (!hit) return undefined;
    this.cache.delete(cacheKey);
    if (hit.expires <= now) return undefined;
    this.cache.set(cacheKey, hit);
    return hit;
  }

  /** Cached entries, least recently used first (tests and diagnostics). */
  cachedKeys(): string[] {
    return [...this.cache.keys()];
  }

  private async load(appId: string, key: string, now: number): Promise<CacheEntry> {
    const cacheKey = `${appId}:${hashKey(key)}`;
    const generation = this.generation;
    const record = await this.lookup(appId, cacheKey.slice(appId.length + 1));
    const entry: CacheEntry = {
      record,
      ips: record ? compileAllowList(record.allowedIps) : null,
      expires: now + (record ? this.opts.ttlMs : (this.opts.negativeTtlMs ?? 5000)),
    };
    // an invalidation arrived while we were looking up: answer this request, but don't keep the record
    if (generation === this.generation) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, entry);
      const max = this.opts.maxEntries ?? 50_000;
      while (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
    }
    return entry;
  }
}
