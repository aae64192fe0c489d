// Platform JWTs issued by identity providers (Keycloak, Auth0, Okta, Entra ID, Cognito): RS256 or
// ES256, verified against each issuer's JWKS URL (JWT_JWKS_URLS, JWT_ISSUERS; docs/security.md).
// The token's `iss` picks the issuer (checked again with the other claims once the signature holds),
// its `kid` the key. Keys are cached per issuer and fetched again when older than JWT_JWKS_CACHE_MS
// (a key the provider removed, revoked, stops verifying then) or when a token names a kid not in the
// cache (a rotation), at most once per JWT_JWKS_MIN_REFRESH_MS per issuer, so tokens with made-up
// kids cannot make the gateway hammer the provider. One fetch at a time per issuer; when a fetch
// fails the keys already held stay in use (logged once per failure run).
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Logger } from '../../lib/logger.js';
import type { JwtFailure, JwtResult } from './jwt-claims.js';
import { checkClaims, decodeJwt } from './jwt-claims.js';

export interface JwksIssuer {
  issuer: string;
  url: string;
}

export interface JwksOptions {
  issuers: JwksIssuer[];
  audience?: string;
  maxLifetimeSec: number;
  /** tolerance on exp/nbf for the providers' clocks (JWT_CLOCK_SKEW_SEC) */
  skewSec: number;
  /** keys older than this are fetched again before use (JWT_JWKS_CACHE_MS) */
  cacheMs: number;
  /** at most one fetch per issuer per this interval for unknown kids (JWT_JWKS_MIN_REFRESH_MS) */
  minRefreshMs: number;
  log: Logger;
  fetchTimeoutMs?: number;
}

/** The algorithms accepted from a JWKS, with the key type each needs and how its signature is encoded. */
const ALGS = {
  RS256: { kty: 'RSA', dsaEncoding: undefined },
  ES256: { kty: 'EC', crv: 'P-256', dsaEncoding: 'ieee-p1363' as const },
} as const;
type Alg = keyof typeof ALGS;

export function isJwksAlg(alg: unknown): alg is Alg {
  return alg === 'RS256' || alg === 'ES256';
}

const MAX_JWKS_BYTES = 1 << 20;

interface KeyEntry {
  alg?: string;
  kty: string;
  crv?: string;
  key: KeyObject;
}

interface KeySet {
  keys: Map<string, KeyEntry>;
  fetchedAt: number;
}

class IssuerKeys {
  private set: KeySet | undefined;
  private lastAttempt = -Infinity;
  private inFlight: Promise<void> | undefined;
  private failing = false;
  fetches = 0;

  constructor(
    readonly issuer: JwksIssuer,
    private o: JwksOptions,
  ) {}

  /**
   * The key for `kid`: the set is fetched again when older than cacheMs, or when it lacks the kid (a
   * rotation); every fetch at most once per minRefreshMs, and a request arriving during a fetch waits for it.
   */
  async key(kid: string): Promise<KeyEntry | undefined> {
    if (!this.set || Date.now() - this.set.fetchedAt >= this.o.cacheMs) await this.refresh();
    if (!this.set?.keys.has(kid)) await this.refresh();
    return this.set?.keys.get(kid);
  }

  private refresh(): Promise<void> {
    if (!this.inFlight && Date.now() - this.lastAttempt >= this.o.minRefreshMs) {
      this.lastAttempt = Date.now();
      this.inFlight = this.fetchSet().finally(() => (this.inFlight = undefined));
    }
    return this.inFlight ?? Promise.resolve();
  }

  private async fetchSet(): Promise<void> {
    this.fetches++;
    try {
      const r = await fetch(this.issuer.url, { signal: AbortSignal.timeout(this.o.fetchTimeoutMs ?? 5000), headers: { accept: 'application/json' } });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const text = await r.text();
      if (text.length > MAX_JWKS_BYTES) throw new Error('JWKS larger than 1 MiB');
      const body = JSON.parse(text) as { keys?: (JsonWebKey & { kid?: string; use?: string; alg?: string })[] };
      if (!Array.isArray(body.keys)) throw new Error('no "keys" array');
      const keys: KeySet['keys'] = new Map();
      for (const jwk of body.keys) {
        if (typeof jwk.kid !== 'string' || (jwk.use !== undefined && jwk.use !== 'sig')) continue;
        if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') continue;
        try {
          keys.set(jwk.kid, { alg: jwk.alg, kty: jwk.kty, crv: jwk.crv, key: createPublicKey({ key: jwk, format: 'jwk' }) });
        } catch {
          /* a key this runtime cannot import verifies nothing */
        }
      }
      this.set = { keys, fetchedAt: Date.now() };
      if (this.failing) this.o.log.info('JWKS reachable again', { issuer: this.issuer.issuer });
      this.failing = false;
    } catch (e) {
      if (!this.failing) this.o.log.warn('JWKS fetch failed: keeping the keys already held', { issuer: this.issuer.issuer, url: this.issuer.url, err: e });
      this.failing = true;
    }
  }
}

export class JwksVerifier {
  private readonly byIssuer: Map<string, IssuerKeys>;

  constructor(private o: JwksOptions) {
    this.byIssuer = new Map(o.issuers.map((i) => [i.issuer, new IssuerKeys(i, o)]));
  }

  /** JWKS fetches so far, per issuer (tests, metrics). */
  fetchCounts(): Record<string, number> {
    return Object.fromEntries([...this.byIssuer].map(([iss, k]) => [iss, k.fetches]));
  }

  /** Verify a token whose header names RS256 or ES256. */
  async verify(token: string, nowSec = Math.floor(Date.now() / 1000)): Promise<JwtResult> {
    const fail = (reason: JwtFailure): JwtResult => ({ ok: false, reason });
    const decoded = decodeJwt(token);
    if (!decoded) return fail('malformed');
    const { head, body, sig, header, claims } = decoded;
    if (!isJwksAlg(header.alg)) return fail('unsupported_alg');
    if (typeof header.kid !== 'string' || !header.kid) return fail('unknown_kid');
    const issuer = typeof claims.iss === 'string' ? this.byIssuer.get(claims.iss) : undefined;
    if (!issuer) return fail('bad_issuer');
    const key = await issuer.key(header.kid);
    if (!key) return fail('unknown_kid');
    const spec = ALGS[header.alg];
    // the key's own type and algorithm must be the token's: no RS/ES confusion
    if (key.kty !== spec.kty || (key.alg !== undefined && key.alg !== header.alg) || ('crv' in spec && key.crv !== spec.crv)) return fail('bad_signature');
    const signature = Buffer.from(sig, 'base64url');
    const ok = verify('sha256', Buffer.from(`${head}.${body}`), spec.dsaEncoding ? { key: key.key, dsaEncoding: spec.dsaEncoding } : key.key, signature);
    if (!ok) return fail('bad_signature');
    return checkClaims(claims, { maxLifetimeSec: this.o.maxLifetimeSec, issuer: issuer.issuer.issuer, audience: this.o.audience, skewSec: this.o.skewSec }, nowSec);
  }
}

/** The `alg` of a token's header, without verifying anything (picks HS256 or a JWKS). */
export function tokenAlg(token: string): unknown {
  try {
    return (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown })?.alg;
  } catch {
    return undefined;
  }
}
