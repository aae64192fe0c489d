// Authentication at the edge, wired once per gateway: API keys and platform operators verified
// through the platform subgraph (cached, invalidated by its `platform.keys.invalidated` event),
// JWTs (shared secret or identity providers' JWKS), the client's address behind trusted proxies,
// and the open WebSockets that follow their credentials.
import type { Config } from '../../lib/config.js';
import type { Infra } from '../../lib/infra.js';
import type { Logger } from '../../lib/logger.js';
import { clientAddressResolver } from '../../lib/client-address.js';
import { ApiKeyVerifier } from './api-key.js';
import { clientIp, createAuthenticator, type Authenticator, type Headers } from './authenticate.js';
import { listenForKeyInvalidations } from './key-invalidation.js';
import { OperatorVerifier } from './operators.js';
import { JwksVerifier } from './jwks.js';
import { LiveConnections } from '../subscriptions/live-connections.js';
import type { PlatformClient } from '../platform-client.js';

export interface EdgeAuth {
  authenticator: Authenticator;
  keys: ApiKeyVerifier;
  /** open WebSockets, re-checked when their credentials change (subscriptions/live-connections.ts) */
  connections: LiveConnections;
  /** the end client's address: the socket's, or the one a trusted proxy or signed in-process caller names */
  clientAddress(remoteAddress: string | undefined, headers: Headers): string | undefined;
  /** stop listening for invalidations */
  stop(): Promise<void>;
}

export function createEdgeAuth(cfg: Config, infra: Infra, platform: PlatformClient, log: Logger): EdgeAuth {
  const keys = new ApiKeyVerifier((appId, hash) => platform.verifyApiKey(appId, hash), infra.rateLimiter, infra.usage, {
    ttlMs: cfg.apiKeyCacheTtlMs,
    unknownKeysPerMinute: cfg.unknownKeysPerMinute,
  });
  const proxies = clientAddressResolver(cfg.trustedProxies);
  const operators = new OperatorVerifier((userId, code) => platform.platformOperator(userId, code), { ttlMs: cfg.apiKeyCacheTtlMs });
  const jwks = cfg.jwt.jwks.length
    ? new JwksVerifier({ issuers: cfg.jwt.jwks, audience: cfg.jwt.audience, maxLifetimeSec: cfg.jwt.maxLifetimeSec, skewSec: cfg.jwt.clockSkewSec, cacheMs: cfg.jwt.jwksCacheMs, minRefreshMs: cfg.jwt.jwksMinRefreshMs, log })
    : undefined;
  const authenticator = createAuthenticator({ jwtSecret: cfg.jwt, keys, operators, jwks, userLimit: { limiter: infra.rateLimiter, perMinute: cfg.jwtRateLimitPerMinute } });
  const connections = new LiveConnections({ keys, operators, log });
  const invalidations = listenForKeyInvalidations(infra.pubsub, { keys, operators, connections }, log);
  return {
    authenticator,
    keys,
    connections,
    clientAddress: (remoteAddress, headers) => clientIp(remoteAddress, headers, proxies, cfg.internalSecret),
    stop: () => invalidations.stop(),
  };
}
