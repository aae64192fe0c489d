// API-key verification at the edge (modelled on Unkey's verifyKey): a typed result, never a throw.
// Records come from the platform subgraph and are cached in-process for a short TTL (positive and
// negative), so a cached verification is a Map lookup plus the checks below.
import { hashApiKey } from '../../lib/api-key-hash.js';
import net from 'node:net';
import { originIn } from '../../lib/cors.js';
import type { RateLimiter, RateLimitResult, UsageCounter } from '../../lib/rate-limit.js';
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

/** CIDRs and single addresses, IPv4 and IPv6 (IPv4-mapped IPv6 client addresses are normalised). */
export function compileAllowList(entries: string[]): net.BlockList | null {
  if (!entries.length) return null;
  const list = new net.BlockList();
  for (const raw of entries) {
    const [addr, bits] = raw.trim().split('/');
    const type = net.isIPv6(addr) ? 'ipv6' : 'ipv4';
    if (!net.isIP(addr)) continue;
    const prefix = Number(bits);
    if (bits === undefined) list.addAddress(addr, type);
    // An impossible prefix is skipped like an invalid address (the platform validates on write).
    else if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (type === 'ipv6' ? 128 : 32)) list.addSubnet(addr, prefix, type);
  }
  return list;
}

export function ipAllowed(list: net.BlockList | null, ip: string | undefined): boolean {
  if (!list) return true;
  if (!ip) return false;
  const v4 = ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return list.check(v4, net.isIPv6(v4) ? 'ipv6' : 'ipv4');
}

export class ApiKeyVerifier {
  private cache = new Map<string, CacheEntry>();
  /** bumped by invalidate(): a lookup that started before an invalidation must not cache its (stale) answer */
  private generation = 0;

  constructor(
    private lookup: KeyLookup,
    private limiter: RateLimiter,
    private usage: UsageCounter,
    private opts: { ttlMs: number; negativeTtlMs?: number; defaultRateLimit?: number; now?: () => number },
  ) {}

  async verify(req: VerifyRequest): Promise<KeyVerification> {
    if (!KEY_PATTERN.test(req.key)) return { valid: false, code: 'KEY_NOT_FOUND', message: 'API key not recognised' };
    let entry: CacheEntry;
    try {
      entry = await this.load(req.appId, req.key);
    } catch {
      return { valid: false, code: 'SERVICE_UNAVAILABLE', message: 'API key verification is temporarily unavailable' };
    }
    const key = entry.record;
    if (!key) return { valid: false, code: 'KEY_NOT_FOUND', message: 'API key not recognised for this app' };
    if (key.appId !== req.appId) return { valid: false, code: 'APP_MISMATCH', message: 'API key does not belong to this app' };
    if (key.revoked) return { valid: false, code: 'KEY_REVOKED', message: 'API key has been revoked' };
    const now = (this.opts.now ?? Date.now)();
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
    const limit = key.rateLimitPerMinute ?? this.opts.defaultRateLimit ?? 1000;
    const rateLimit = await this.limiter.hit(`key:${key.keyId}`, limit);
    if (!rateLimit.allowed) return { valid: false, code: 'RATE_LIMITED', message: `Rate limit of ${limit} requests per minute exceeded`, rateLimit };
    await this.usage.incr(key.keyId);
    return { valid: true, key, rateLimit };
  }

  /** Drop cached records (e.g. on a key revocation event). */
  invalidate(predicate: (r: KeyRecord | null, cacheKey: string) => boolean = () => true): void {
    this.generation++;
    for (const [k, e] of this.cache) if (predicate(e.record, k)) this.cache.delete(k);
  }

  private async load(appId: string, key: string): Promise<CacheEntry> {
    const cacheKey = `${appId}:${hashKey(key)}`;
    const now = (this.opts.now ?? Date.now)();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expires > now) return hit;
    const generation = this.generation;
    const record = await this.lookup(appId, cacheKey.slice(appId.length + 1));
    const entry: CacheEntry = {
      record,
      ips: record ? compileAllowList(record.allowedIps) : null,
      expires: now + (record ? this.opts.ttlMs : (this.opts.negativeTtlMs ?? 5000)),
    };
    if (this.cache.size > 50_000) this.cache.clear();
    // an invalidation arrived while we were looking up: answer this request, but don't keep the record
    if (generation === this.generation) this.cache.set(cacheKey, entry);
    return entry;
  }
}
