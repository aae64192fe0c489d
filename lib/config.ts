// One place that reads the environment. Every process calls loadConfig() once at start;
// a bad value stops start-up with one line naming the variable (ConfigError).
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { parseOrigin } from './cors.js';

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`${variable}: ${detail}`);
  }
}

export const SUBGRAPH_NAMES = ['platform', 'ai', 'catalog', 'search'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

export interface Config {
  gatewayPort: number;
  restPort: number;
  subgraphPorts: Record<SubgraphName, number>;
  /** Explicit subgraph URLs (PLATFORM_URL...) override host:port; used when subgraphs run elsewhere. */
  subgraphUrls: Record<SubgraphName, string>;
  gatewayUrl: string;
  databaseUrl?: string;
  embeddedPgPort: number;
  dataDir: string;
  redisUrl?: string;
  /** REDIS_SENTINELS + REDIS_SENTINEL_NAME: the primary found through Redis Sentinel (lib/redis.ts); takes the place of REDIS_URL */
  redisSentinel?: RedisSentinelSettings;
  jwtSecret: string;
  jwtSecretIsDefault: boolean;
  /** JWT rules (docs/security.md): keys by `kid`, lifetime cap, optional iss/aud */
  jwt: JwtConfig;
  internalSecret: string;
  /** JWT_RATE_LIMIT_PER_MINUTE: requests per minute per user for JWT-only traffic (default 1200) */
  jwtRateLimitPerMinute: number;
  /** IMAGE_BUDGET_PER_MINUTE: image uploads and vision calls per minute per key (or user), a budget of their own (default 30) */
  imageBudgetPerMinute: number;
  /** CATALOG_VECTOR_CACHE_MB: visual-search vectors one catalog process keeps between searches (default 256) */
  catalogVectorCacheMb: number;
  /** unknown well-formed API keys one client address may try per minute (UNKNOWN_KEYS_PER_MINUTE) */
  unknownKeysPerMinute: number;
  /** TRUSTED_PROXIES: CIDRs whose X-Forwarded-For is believed (empty: none; the socket peer is the client) */
  trustedProxies: string[];
  apiKeyCacheTtlMs: number;
  /** SIGTERM: the one bound on draining every server, worker and pool of the process in parallel (docs/deploy.md) */
  shutdownGraceMs: number;
  /** SIGTERM: how long the process keeps serving, already answering not-ready, before it drains (the balancer's notice time) */
  shutdownDelayMs: number;
  /**
   * MIGRATE_ON_START=1: a subgraph applies its pending migrations at start; 0: it refuses to start
   * with migrations pending (`npm run migrate` applies them). Unset: on for `npm start`, off for a
   * process started on its own (a replica).
   */
  migrateOnStart?: boolean;
  /** WORKERS=0: this process runs no background workers (job queues, webhook senders); API-only replicas */
  workers: boolean;
  /** SINGLE_PROCESS=1: a process started on its own may run without REDIS_URL (the operator means one replica) */
  singleProcess: boolean;
  /** APOLLO_TELEMETRY=1: let @apollo/gateway send its usage telemetry (off unless asked: APOLLO_TELEMETRY_DISABLED is set) */
  apolloTelemetry: boolean;
  /** DATABASE_DIRECT_URL: a session-capable connection (not through PgBouncer's transaction mode) for advisory locks and LISTEN; defaults to the database URL */
  databaseDirectUrl?: string;
  /** GATEWAY_SHARE_INFLIGHT=0 turns off the sharing of identical in-flight subgraph queries (gateway/data-source.ts) */
  gatewayShareInFlight: boolean;
  /** GATEWAY_REUSE_PORT=1: the gateway listens with SO_REUSEPORT, so several gateway processes on one host share its port (the kernel spreads connections over them) */
  gatewayReusePort: boolean;
  /** GATEWAY_SINGLE_FETCH=0: one-fetch operations go through ApolloGateway's result shaping too (gateway/single-fetch.ts) */
  gatewaySingleFetch: boolean;
  /** IN_PROCESS_FETCH=0: in the one-process stack the gateway still fetches subgraphs over HTTP (lib/local-transport.ts) */
  inProcessFetch: boolean;
  maxQueryDepth: number;
  maxQueryCost: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  allowPrivateNetworkFetch: boolean;
  host: string;
  /** NODE_ENV=production: refuses development defaults where a secret is missing (MASTER_KEY) */
  production: boolean;
  /** MASTER_KEY (32 bytes, base64 or hex): encrypts stored secrets; unset → lib/crypto.ts derives a dev key */
  masterKey?: Buffer;
  /** MASTER_KEY_PREVIOUS: comma-separated older master keys, still accepted for decryption (rotation) */
  previousMasterKeys: Buffer[];
  /** PUBLIC_URL: the REST bridge's address as clients reach it (presigned upload URLs, logo URLs) */
  publicUrl: string;
  /** OBJECT_STORE=local (default, under DATA_DIR/objects) or s3 (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE) */
  objectStore:
    | { kind: 'local' }
    | { kind: 's3'; endpoint?: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean };
  /** webhook delivery worker: poll interval, first retry delay (doubles per attempt), attempts before giving up */
  webhookPollMs: number;
  webhookRetryBaseMs: number;
  webhookMaxAttempts: number;
  /** namespaces this deployment's shared Redis keys (usage counters), so deployments can share one Redis */
  redisKeyPrefix: string;
  /** SUBSCRIPTION_RETAIN_EVENTS / SUBSCRIPTION_RETAIN_SECONDS: each tenant's resumable event stream keeps at most this many events, none older (docs/subscriptions.md) */
  subscriptionRetention: { retainEvents: number; retainMs: number };
  /** resolvers for domain verification (`ip` or `ip:port`, comma-separated); empty: the system's */
  dnsServers: string[];
  /** what a verified domain's SPF record must `include:` (our sending domain) */
  mailSpfInclude: string;
  /** DKIM selector: the record lives at `<selector>._domainkey.<domain>` */
  mailDkimSelector: string;
  /** when set, the DKIM record's p= must be exactly this public key (base64) */
  mailDkimPublicKey?: string;
  /** CORS_ORIGINS: browser origins allowed for JWT and anonymous requests (lib/cors.ts); API-key requests follow the key's and app's allowed_origins */
  corsOrigins: string[];
  /** METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>` (lib/metrics.ts) */
  metricsToken?: string;
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces: where traces go (lib/telemetry.ts); unset: no tracing */
  otlpTracesUrl?: string;
}

export interface RedisSentinelSettings {
  /** REDIS_SENTINELS: the sentinels to ask first (host:port, comma-separated) */
  nodes: { host: string; port: number }[];
  /** REDIS_SENTINEL_NAME: the primary's name in the sentinels' configuration */
  name: string;
  /** REDIS_PASSWORD: the primary's and replicas' password (requirepass), when they have one */
  password?: string;
  /** REDIS_SENTINEL_PASSWORD: the sentinels' own password, when they have one */
  sentinelPassword?: string;
}

function redisSentinel(env: NodeJS.ProcessEnv): RedisSentinelSettings | undefined {
  const raw = env.REDIS_SENTINELS?.trim();
  if (!raw) return undefined;
  const nodes = raw.split(',').map((entry) => {
    const m = /^\[?([A-Za-z0-9_.:-]+?)\]?:(\d{1,5})$/.exec(entry.trim());
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw new ConfigError('REDIS_SENTINELS', `"${entry.trim()}" is not host:port (e.g. 10.0.0.5:26379)`);
    return { host: m[1], port: Number(m[2]) };
  });
  const name = env.REDIS_SENTINEL_NAME?.trim();
  if (!name) throw new ConfigError('REDIS_SENTINEL_NAME', 'is required with REDIS_SENTINELS (the primary\'s name in the sentinels\' configuration, e.g. mymaster)');
  return { nodes, name, password: env.REDIS_PASSWORD || undefined, sentinelPassword: env.REDIS_SENTINEL_PASSWORD || undefined };
}

export const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me';
/** Secrets shorter than this are refused in production (HS256 wants a key as long as its hash). */
export const MIN_SECRET_BYTES = 32;

export interface JwtConfig {
  /** the secrets a token may be signed with, by `kid`; `current` is used when a token has no kid */
  keys: { kid: string; secret: string; notAfterSec?: number }[];
  currentKid: string;
  /** the longest a token may live: exp - (iat ?? now), seconds */
  maxLifetimeSec: number;
  issuer?: string;
  audience?: string;
  /** identity providers: RS256/ES256 tokens of each issuer verified against its JWKS URL (gateway/auth/jwks.ts) */
  jwks: { issuer: string; url: string }[];
  /** tolerance on exp/nbf of identity providers' tokens (JWT_CLOCK_SKEW_SEC, at most 300) */
  clockSkewSec: number;
  /** JWKS keys older than this are fetched again (a removed key stops verifying then) */
  jwksCacheMs: number;
  /** at most one JWKS fetch per issuer per this interval (unknown kids, a provider down) */
  jwksMinRefreshMs: number;
}

/**
 * NODE_ENV=production refuses a secret that is unset, the public development default, or too short,
 * with one line naming the variable (as MASTER_KEY already is, lib/crypto.ts).
 */
export function requireProductionSecret(env: NodeJS.ProcessEnv, name: string, devDefaults: string[]): void {
  const v = env[name];
  if (!v) throw new ConfigError(name, 'is required when NODE_ENV=production (at least 32 random bytes: `openssl rand -base64 32`)');
  if (devDefaults.includes(v)) throw new ConfigError(name, 'is the public development default; set a secret of your own when NODE_ENV=production');
  if (Buffer.byteLength(v, 'utf8') < MIN_SECRET_BYTES) throw new ConfigError(name, `must be at least ${MIN_SECRET_BYTES} bytes when NODE_ENV=production`);
}

/** JWT_SECRET (kid JWT_KID, default "k1"), JWT_SECRET_PREVIOUS (kid JWT_PREVIOUS_KID, accepted until JWT_PREVIOUS_UNTIL). */
function jwtConfig(env: NodeJS.ProcessEnv, secret: string): JwtConfig {
  const currentKid = env.JWT_KID?.trim() || 'k1';
  const keys: JwtConfig['keys'] = [{ kid: currentKid, secret }];
  const previous = env.JWT_SECRET_PREVIOUS;
  if (previous) {
    const kid = env.JWT_PREVIOUS_KID?.trim();
    if (!kid) throw new ConfigError('JWT_PREVIOUS_KID', 'is required with JWT_SECRET_PREVIOUS (the kid its tokens carry)');
    if (kid === currentKid) throw new ConfigError('JWT_PREVIOUS_KID', `must differ from JWT_KID ("${currentKid}")`);
    const until = env.JWT_PREVIOUS_UNTIL?.trim();
    const ms = until ? Date.parse(until) : NaN;
    if (!until || !Number.isFinite(ms)) throw new ConfigError('JWT_PREVIOUS_UNTIL', 'is required with JWT_SECRET_PREVIOUS: the end of its grace period (ISO 8601 date-time)');
    keys.push({ kid, secret: previous, notAfterSec: Math.floor(ms / 1000) });
  }
  return {
    keys,
    currentKid,
    maxLifetimeSec: envInt(env, 'JWT_MAX_LIFETIME_SEC', 86_400),
    issuer: env.JWT_ISSUER?.trim() || undefined,
    audience: env.JWT_AUDIENCE?.trim() || undefined,
    jwks: jwksIssuers(env),
    clockSkewSec: Math.min(envInt(env, 'JWT_CLOCK_SKEW_SEC', 60, 0), 300),
    jwksCacheMs: envInt(env, 'JWT_JWKS_CACHE_MS', 600_000),
    jwksMinRefreshMs: envInt(env, 'JWT_JWKS_MIN_REFRESH_MS', 30_000, 0),
  };
}

/** JWT_JWKS_URLS and JWT_ISSUERS: comma-separated, the n-th issuer's tokens verified against the n-th URL. */
function jwksIssuers(env: NodeJS.ProcessEnv): JwtConfig['jwks'] {
  const list = (name: string) => (env[name]?.trim() ? env[name]!.split(',').map((v) => v.trim()) : []);
  const urls = list('JWT_JWKS_URLS');
  const issuers = list('JWT_ISSUERS');
  if (urls.length !== issuers.length) throw new ConfigError('JWT_ISSUERS', `names ${issuers.length} issuer(s) for ${urls.length} JWT_JWKS_URLS: give one issuer (the tokens' "iss") per JWKS URL, in the same order`);
  return urls.map((u, i) => {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new ConfigError('JWT_JWKS_URLS', `"${u}" is not a valid URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ConfigError('JWT_JWKS_URLS', `"${u}" must be an http(s) URL`);
    if (!issuers[i]) throw new ConfigError('JWT_ISSUERS', `issuer ${i + 1} is empty`);
    return { issuer: issuers[i]!, url: u };
  });
}

/** TRUSTED_PROXIES: comma-separated IPs or CIDRs. */
function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const raw = env.TRUSTED_PROXIES?.trim();
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const v = entry.trim();
    const [addr, bits] = v.split('/');
    const kind = isIP(addr);
    const n = Number(bits);
    const ok = kind !== 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && n >= 0 && n <= (kind === 6 ? 128 : 32)));
    if (!ok) throw new ConfigError('TRUSTED_PROXIES', `"${v}" is not an IP address or CIDR (e.g. 10.0.0.0/8)`);
    return v;
  });
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(name, `"${raw}" is not a TCP port (0-65535)`);
  return n;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `"${raw}" is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `protocol must be one of ${protocols.join(', ')} (got ${parsed.protocol})`);
  }
  return raw;
}

/** `1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`, comma-separated. */
export function dnsServerList(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const v = entry.trim();
    const m = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([0-9.]+)(?::(\d{1,5}))?$/.exec(v) ?? /^([0-9a-fA-F:]+)()$/.exec(v);
    const ok = m && isIP(m[1]) && (!m[2] || Number(m[2]) <= 65535);
    if (!ok) throw new ConfigError(name, `"${v}" is not an IP address with an optional port (e.g. 127.0.0.1:5353)`);
    return v;
  });
}

const DNS_NAME_RE = /^(?=.{1,253}$)(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function dnsName(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const v = env[name]?.trim() || fallback;
  if (!DNS_NAME_RE.test(v)) throw new ConfigError(name, `"${v}" is not a DNS name`);
  return v.toLowerCase();
}

/** CORS_ORIGINS: `*` or origins such as `https://app.example.com`, comma-separated (lib/cors.ts). */
function corsOriginList(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const o = parseOrigin(entry);
    if (!o) throw new ConfigError(name, `"${entry.trim()}" is not an origin (scheme://host[:port]) or *`);
    return o;
  });
}

/** An integer variable of at least `min`, or `fallback` when unset; anything else stops start-up naming the variable. */
export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(name, `"${raw}" must be an integer >= ${min}`);
  return n;
}

/** A 0/1 switch (true/false accepted too); anything else stops start-up naming the variable. */
export function envFlag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(name, `"${env[name]}" must be 0 or 1`);
}

/**
 * A process started on its own (one role of a deployment) shares rate limits, key revocations and
 * subscription events with its replicas through Redis: without REDIS_URL each replica would count
 * and revoke alone. It refuses to start unless SINGLE_PROCESS=1 says one replica is meant.
 */
export function requireSharedState(cfg: Pick<Config, 'redisUrl' | 'redisSentinel' | 'singleProcess'>): void {
  if (cfg.redisUrl || cfg.redisSentinel || cfg.singleProcess) return;
  throw new ConfigError('REDIS_URL', 'is required for a process started on its own (or REDIS_SENTINELS; replicas share rate limits, key revocations and events through Redis); set SINGLE_PROCESS=1 to run one replica without it');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const subgraphPorts = {
    platform: port(env, 'PLATFORM_PORT', 4001),
    ai: port(env, 'AI_PORT', 4002),
    catalog: port(env, 'CATALOG_PORT', 4003),
    search: port(env, 'SEARCH_PORT', 4004),
  };
  const subgraphUrls = {} as Record<SubgraphName, string>;
  for (const name of SUBGRAPH_NAMES) {
    const v = `${name.toUpperCase()}_URL`;
    subgraphUrls[name] = url(env, v, ['http:', 'https:']) ?? `http://127.0.0.1:${subgraphPorts[name]}/graphql`;
  }
  const gatewayPort = port(env, 'GATEWAY_PORT', 4000);
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `"${logLevel}" must be one of debug, info, warn, error, silent`);
  }
  const jwtSecret = env.JWT_SECRET || DEV_JWT_SECRET;
  const production = env.NODE_ENV === 'production';
  if (production) {
    requireProductionSecret(env, 'JWT_SECRET', [DEV_JWT_SECRET]);
    requireProductionSecret(env, 'INTERNAL_SECRET', [`internal:${DEV_JWT_SECRET}`]);
    if (env.INTERNAL_SECRET === env.JWT_SECRET) throw new ConfigError('INTERNAL_SECRET', 'must differ from JWT_SECRET (a token signer must not be able to sign tenant headers)');
    if (env.JWT_SECRET_PREVIOUS) requireProductionSecret(env, 'JWT_SECRET_PREVIOUS', [DEV_JWT_SECRET]);
  }
  return {
    host,
    gatewayPort,
    restPort: port(env, 'REST_PORT', 8080),
    subgraphPorts,
    subgraphUrls,
    gatewayUrl: url(env, 'GATEWAY_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${gatewayPort}/graphql`,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    embeddedPgPort: port(env, 'EMBEDDED_PG_PORT', 54329),
    dataDir: env.DATA_DIR || '.data',
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisSentinel: redisSentinel(env),
    jwtSecret,
    jwtSecretIsDefault: !env.JWT_SECRET,
    jwt: jwtConfig(env, jwtSecret),
    trustedProxies: trustedProxies(env),
    jwtRateLimitPerMinute: envInt(env, 'JWT_RATE_LIMIT_PER_MINUTE', 1200),
    imageBudgetPerMinute: envInt(env, 'IMAGE_BUDGET_PER_MINUTE', 30),
    catalogVectorCacheMb: envInt(env, 'CATALOG_VECTOR_CACHE_MB', 256),
    unknownKeysPerMinute: envInt(env, 'UNKNOWN_KEYS_PER_MINUTE', 60),
    // The internal secret signs the tenant context the gateway sends to subgraphs. Unset, it is
    // derived from the JWT secret so that separately started processes still agree.
    internalSecret: env.INTERNAL_SECRET || `internal:${jwtSecret}`,
    apiKeyCacheTtlMs: envInt(env, 'API_KEY_CACHE_TTL_MS', 30_000),
    shutdownGraceMs: envInt(env, 'SHUTDOWN_GRACE_MS', 10_000),
    shutdownDelayMs: envInt(env, 'SHUTDOWN_DELAY_MS', 0, 0),
    migrateOnStart: env.MIGRATE_ON_START?.trim() ? envFlag(env, 'MIGRATE_ON_START', false) : undefined,
    workers: envFlag(env, 'WORKERS', true),
    singleProcess: envFlag(env, 'SINGLE_PROCESS', false),
    apolloTelemetry: envFlag(env, 'APOLLO_TELEMETRY', false),
    databaseDirectUrl: url(env, 'DATABASE_DIRECT_URL', ['postgres:', 'postgresql:']),
    gatewayShareInFlight: env.GATEWAY_SHARE_INFLIGHT !== '0' && env.GATEWAY_SHARE_INFLIGHT !== 'false',
    gatewayReusePort: env.GATEWAY_REUSE_PORT === '1' || env.GATEWAY_REUSE_PORT === 'true',
    gatewaySingleFetch: env.GATEWAY_SINGLE_FETCH !== '0' && env.GATEWAY_SINGLE_FETCH !== 'false',
    inProcessFetch: env.IN_PROCESS_FETCH !== '0' && env.IN_PROCESS_FETCH !== 'false',
    maxQueryDepth: envInt(env, 'MAX_QUERY_DEPTH', 12),
    maxQueryCost: envInt(env, 'MAX_QUERY_COST', 5000),
    logLevel,
    allowPrivateNetworkFetch: env.ALLOW_PRIVATE_NETWORK_FETCH === '1',
    redisKeyPrefix: env.REDIS_KEY_PREFIX?.trim() ?? '',
    subscriptionRetention: { retainEvents: envInt(env, 'SUBSCRIPTION_RETAIN_EVENTS', 1000), retainMs: envInt(env, 'SUBSCRIPTION_RETAIN_SECONDS', 300) * 1000 },
    dnsServers: dnsServerList(env, 'DNS_SERVERS'),
    mailSpfInclude: dnsName(env, 'MAIL_SPF_INCLUDE', '_spf.mail.example.com'),
    mailDkimSelector: dnsName(env, 'MAIL_DKIM_SELECTOR', 'sg1'),
    mailDkimPublicKey: env.MAIL_DKIM_PUBLIC_KEY?.trim() || undefined,
    production,
    masterKey: env.MASTER_KEY ? parseKey32(env.MASTER_KEY, 'MASTER_KEY') : undefined,
    previousMasterKeys: (env.MASTER_KEY_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => parseKey32(k, 'MASTER_KEY_PREVIOUS')),
    publicUrl: (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${host}:${port(env, 'REST_PORT', 8080)}`).replace(/\/+$/, ''),
    objectStore: objectStoreConfig(env),
    webhookPollMs: envInt(env, 'WEBHOOK_POLL_MS', 1000),
    webhookRetryBaseMs: envInt(env, 'WEBHOOK_RETRY_BASE_MS', 10_000),
    webhookMaxAttempts: envInt(env, 'WEBHOOK_MAX_ATTEMPTS', 8),
    corsOrigins: corsOriginList(env, 'CORS_ORIGINS'),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    otlpTracesUrl: url(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']) ?? otlpBase(url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:'])),
  };
}

/** OTLP/HTTP's signal path under a base endpoint (the OpenTelemetry environment variable rules). */
function otlpBase(base: string | undefined): string | undefined {
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** A 32-byte key written as 64 hex digits or as base64 (standard or URL-safe). */
export function parseKey32(raw: string, variable: string): Buffer {
  const v = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(v) ? Buffer.from(v, 'base64') : undefined;
  if (!key || key.length !== 32) throw new ConfigError(variable, 'must be 32 bytes written as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)');
  return key;
}

const S3_BUCKET_RE = /^(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_REGION_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

function objectStoreConfig(env: NodeJS.ProcessEnv): Config['objectStore'] {
  const kind = env.OBJECT_STORE || 'local';
  if (kind === 'local') return { kind };
  if (kind !== 's3') throw new ConfigError('OBJECT_STORE', `"${kind}" must be local or s3`);
  const need = (name: string) => {
    const v = env[name]?.trim();
    if (!v) throw new ConfigError(name, 'is required when OBJECT_STORE=s3');
    return v;
  };
  const bucket = need('S3_BUCKET');
  if (!S3_BUCKET_RE.test(bucket)) throw new ConfigError('S3_BUCKET', `"${bucket}" is not a bucket name (3-63 lower-case letters, digits, '.' and '-')`);
  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!S3_REGION_RE.test(region)) throw new ConfigError('S3_REGION', `"${region}" is not a region name (e.g. us-east-1)`);
  // S3-compatible servers at their own endpoint mostly take path-style requests; AWS prefers virtual hosts
  const endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:']);
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim().toLowerCase();
  if (pathStyle && !['1', 'true', '0', 'false'].includes(pathStyle)) throw new ConfigError('S3_FORCE_PATH_STYLE', `"${env.S3_FORCE_PATH_STYLE}" must be true or false`);
  return {
    kind,
    endpoint,
    bucket,
    region,
    accessKeyId: need('S3_ACCESS_KEY_ID'),
    secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
    forcePathStyle: pathStyle ? pathStyle === '1' || pathStyle === 'true' : endpoint !== undefined,
  };
}

/** Random value for ids and tokens; never Math.random. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
