// Authentication happens here, once per request (HTTP) or per connection (WebSocket): headers in,
// a TenantContext or a typed failure out. Subgraphs only ever see the signed result.
import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '../../lib/errors.js';
import type { TenantContext } from '../../lib/tenant.js';
import type { RateLimiter, RateLimitResult } from '../../lib/rate-limit.js';
import { looksLikeJwt, verifyJwt, type JwtRules } from './jwt.js';
import { isJwksAlg, tokenAlg, type JwksVerifier } from './jwks.js';
import type { ApiKeyVerifier, VerifyRequest } from './api-key.js';
import type { OperatorRecord, OperatorVerifier } from './operators.js';
import { capPlatformScopes, isSuperAdmin } from '../../lib/tenant.js';
import { CLIENT_ADDRESS_HEADER, verifyClientAddress, type ClientAddressResolver } from '../../lib/client-address.js';

export type Headers = Record<string, string | string[] | undefined>;

/** What the caller authenticated with, for a connection that outlives the request (a WebSocket). */
export interface Credentials {
  /** the JWT's exp, in ms */
  jwtExpiresAt?: number;
  /** the API key as presented, to re-check it when its record changes */
  key?: VerifyRequest;
  /** the key's expires_at (or the end of a rotated value's grace period), in ms */
  keyExpiresAt?: number;
}

export type AuthResult =
  | { ok: true; tenant: TenantContext; rateLimit?: RateLimitResult; credentials?: Credentials }
  | { ok: false; code: ErrorCode; message: string; rateLimit?: RateLimitResult; reason?: string };

function header(h: Headers, name: string): string | undefined {
  const v = h[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() || undefined;
}

export interface Authenticator {
  authenticate(headers: Headers, clientIp: string | undefined): Promise<AuthResult>;
}

export function createAuthenticator(opts: {
  jwtSecret: string | JwtRules;
  keys: ApiKeyVerifier;
  /** JWT-only traffic is limited per user (`user:<sub>`, JWT_RATE_LIMIT_PER_MINUTE); unset: not limited */
  userLimit?: { limiter: RateLimiter; perMinute: number };
  /** operator records of user tokens naming a platform in X-Platform (operators.ts); unset: no token operates any platform */
  operators?: OperatorVerifier;
  /** identity providers' keys (JWT_JWKS_URLS); unset: HS256 tokens only */
  jwks?: JwksVerifier;
}): Authenticator {
  return {
    async authenticate(headers, clientIp) {
      const requestId = header(headers, 'x-request-id') ?? randomUUID();
      const platformCode = header(headers, 'x-platform');
      const appId = header(headers, 'x-app-id');
      const auth = header(headers, 'authorization');
      const bearer = auth && /^bearer\s+/i.test(auth) ? auth.replace(/^bearer\s+/i, '').trim() : undefined;
      if (auth && !bearer) return { ok: false, code: 'UNAUTHENTICATED', message: 'Authorization must use the Bearer scheme' };
      const jwt = bearer && looksLikeJwt(bearer) ? bearer : undefined;
      const apiKey = header(headers, 'x-api-key') ?? (bearer && !jwt ? bearer : undefined);

      const tenant: TenantContext = { kind: 'anonymous', requestId, scopes: [], ...(platformCode ? { platformCode } : {}) };
      const credentials: Credentials = {};

      if (jwt) {
        // RS256/ES256: an identity provider's token, checked against its JWKS (jwks.ts); HS256 otherwise
        const r = opts.jwks && isJwksAlg(tokenAlg(jwt)) ? await opts.jwks.verify(jwt) : verifyJwt(jwt, opts.jwtSecret);
        if (!r.ok) return { ok: false, code: 'INVALID_TOKEN', message: `Bearer token rejected: ${r.reason.replace(/_/g, ' ')}`, reason: r.reason };
        if (r.claims.platform && platformCode && r.claims.platform !== platformCode) {
          return { ok: false, code: 'FORBIDDEN', message: 'This token is scoped to another platform' };
        }
        tenant.kind = 'user';
        credentials.jwtExpiresAt = r.claims.exp! * 1000;
        tenant.userId = r.claims.sub;
        tenant.scopes = r.scopes;
        tenant.userScopes = r.scopes;
        if (r.claims.platform) {
          tenant.boundPlatform = r.claims.platform;
          tenant.platformCode ??= r.claims.platform;
        }
      }

      if (apiKey) {
        // a Bearer value that is neither a JWT nor shaped like a key (sk_…, pk_…) is a broken JWT
        if (!appId && !header(headers, 'x-api-key') && !/^[sp]k_/.test(apiKey)) return { ok: false, code: 'INVALID_TOKEN', message: 'Bearer token rejected: malformed (a JWT is three base64url parts, header.payload.signature, e.g. from `npm run -s mint-token`; an API key as Bearer needs X-App-Id too)', reason: 'malformed' };
        if (!appId) return { ok: false, code: 'UNAUTHENTICATED', message: 'X-App-Id header is required with an API key' };
        const keyRequest: VerifyRequest = { appId, key: apiKey, ip: clientIp, origin: header(headers, 'origin') };
        const v = await opts.keys.verify(keyRequest);
        if (!v.valid) return { ok: false, code: v.code, message: v.message, rateLimit: v.rateLimit };
        credentials.key = keyRequest;
        if (v.key.expiresAt) credentials.keyExpiresAt = Date.parse(v.key.expiresAt);
        tenant.kind = 'key';
        tenant.scopes = v.key.scopes;
        tenant.appId = v.key.appId;
        tenant.keyId = v.key.keyId;
        tenant.environment = v.key.environment;
        tenant.keyType = v.key.keyType;
        tenant.accountId = v.key.accountId;
        tenant.platformId = v.key.platformId;
        tenant.platformCode = v.key.platformCode;
        if (v.key.plan) tenant.plan = v.key.plan;
        return { ok: true, tenant, rateLimit: v.rateLimit, credentials };
      }
      if (appId && !jwt) return { ok: false, code: 'UNAUTHENTICATED', message: 'An API key (X-Api-Key or Bearer) is required with X-App-Id' };
      let rateLimit: RateLimitResult | undefined;
      if (tenant.kind === 'user' && opts.userLimit) {
        const { limiter, perMinute } = opts.userLimit;
        rateLimit = await limiter.hit(`user:${tenant.userId}`, perMinute);
        if (!rateLimit.allowed) return { ok: false, code: 'RATE_LIMITED', message: `Rate limit of ${perMinute} requests per minute per user exceeded`, rateLimit };
      }
      if (tenant.kind === 'user' && platformCode && !tenant.boundPlatform && !isSuperAdmin(tenant)) {
        // the X-Platform platform is reached only through an operator record, whose scopes cap the token's
        let op: OperatorRecord | null | undefined;
        try {
          op = await opts.operators?.find(tenant.userId!, platformCode);
        } catch {
          return { ok: false, code: 'SERVICE_UNAVAILABLE', message: 'Platform operator lookup is temporarily unavailable' };
        }
        if (op) {
          tenant.operatorPlatformId = op.platformId;
          tenant.scopes = capPlatformScopes(tenant.scopes, op.scopes);
          tenant.userScopes = tenant.scopes;
        }
      }
      if (tenant.kind === 'user') return { ok: true, tenant, credentials, ...(rateLimit ? { rateLimit } : {}) };
      // anonymous callers carry their address: the public paths limit per client (data transfers)
      if (clientIp) tenant.clientAddress = clientIp;
      return { ok: true, tenant };
    },
  };
}

/**
 * The client's address: a signed x-client-address from the REST bridge (lib/client-address.ts), else
 * the socket peer, or X-Forwarded-For's first untrusted hop when the peer is in TRUSTED_PROXIES.
 */
export function clientIp(remote: string | undefined, headers: Headers, proxies: ClientAddressResolver, internalSecret: string): string | undefined {
  return verifyClientAddress(headers[CLIENT_ADDRESS_HEADER], internalSecret) ?? proxies.resolve(remote, headers['x-forwarded-for']);
}
