// lib/config.ts: defaults follow CONTRACT.md's port table; every bad value fails with a
// ConfigError whose message starts with the variable's name.
import { ConfigError, SUBGRAPH_NAMES, loadConfig, requireSharedState } from '../../lib/config.js';

function expectConfigError(env: NodeJS.ProcessEnv, variable: string): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  const err = caught as ConfigError;
  expect(err.variable).toBe(variable);
  expect(err.message.startsWith(`${variable}: `)).toBe(true);
  return err;
}

describe('loadConfig defaults', () => {
  const cfg = loadConfig({});

  test('ports are the CONTRACT ports', () => {
    expect(cfg.gatewayPort).toBe(4000);
    expect(cfg.restPort).toBe(8080);
    expect(cfg.subgraphPorts).toEqual({ platform: 4001, ai: 4002, catalog: 4003, search: 4004 });
  });

  test('subgraph and gateway URLs derive from the ports', () => {
    expect(cfg.subgraphUrls).toEqual({
      platform: 'http://127.0.0.1:4001/graphql',
      ai: 'http://127.0.0.1:4002/graphql',
      catalog: 'http://127.0.0.1:4003/graphql',
      search: 'http://127.0.0.1:4004/graphql',
    });
    expect(cfg.gatewayUrl).toBe('http://127.0.0.1:4000/graphql');
    expect(Object.keys(cfg.subgraphUrls).sort()).toEqual([...SUBGRAPH_NAMES].sort());
  });

  test('optional backends are unset, limits and log level have defaults', () => {
    expect(cfg.databaseUrl).toBeUndefined();
    expect(cfg.redisUrl).toBeUndefined();
    expect(cfg.logLevel).toBe('info');
    expect(cfg.host).toBe('127.0.0.1');
    expect(cfg.apiKeyCacheTtlMs).toBe(30_000);
    expect(cfg.maxQueryDepth).toBe(12);
    expect(cfg.maxQueryCost).toBe(5000);
    expect(cfg.allowPrivateNetworkFetch).toBe(false);
    expect(cfg.catalogVectorCacheMb).toBe(256);
    expect(loadConfig({ CATALOG_VECTOR_CACHE_MB: '1024' }).catalogVectorCacheMb).toBe(1024);
  });

  test('the default JWT secret is flagged and the internal secret derives from it', () => {
    expect(cfg.jwtSecretIsDefault).toBe(true);
    expect(cfg.internalSecret).toBe(`internal:${cfg.jwtSecret}`);
    const set = loadConfig({ JWT_SECRET: 's3cret' });
    expect(set.jwtSecretIsDefault).toBe(false);
    expect(set.internalSecret).toBe('internal:s3cret');
    expect(loadConfig({ JWT_SECRET: 's3cret', INTERNAL_SECRET: 'other' }).internalSecret).toBe('other');
  });

  test('empty strings count as unset', () => {
    const c = loadConfig({ GATEWAY_PORT: '', DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: '' });
    expect(c.gatewayPort).toBe(4000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.logLevel).toBe('info');
  });
});

describe('loadConfig overrides', () => {
  test('ports override, and the derived URLs follow them', () => {
    const c = loadConfig({ GATEWAY_PORT: '5000', REST_PORT: '5080', CATALOG_PORT: '5003', PLATFORM_PORT: '0' });
    expect(c.gatewayPort).toBe(5000);
    expect(c.restPort).toBe(5080);
    expect(c.subgraphPorts.catalog).toBe(5003);
    expect(c.subgraphPorts.platform).toBe(0);
    expect(c.subgraphUrls.catalog).toBe('http://127.0.0.1:5003/graphql');
    expect(c.gatewayUrl).toBe('http://127.0.0.1:5000/graphql');
  });

  test('an explicit subgraph URL wins over host:port', () => {
    const c = loadConfig({ SEARCH_URL: 'https://search.internal/graphql', SEARCH_PORT: '9999' });
    expect(c.subgraphUrls.search).toBe('https://search.internal/graphql');
    expect(c.subgraphPorts.search).toBe(9999);
  });

  test('accepted database and redis URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).databaseUrl).toBe('postgres://u@h:5432/db');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).databaseUrl).toBe('postgresql://u@h/db');
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example:6380/2' }).redisUrl).toBe('rediss://cache.example:6380/2');
  });

  test.each(['debug', 'info', 'warn', 'error', 'silent'] as const)('LOG_LEVEL=%s is accepted', (level) => {
    expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
  });

  test('ALLOW_PRIVATE_NETWORK_FETCH only on "1"', () => {
    expect(loadConfig({ ALLOW_PRIVATE_NETWORK_FETCH: '1' }).allowPrivateNetworkFetch).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' }).allowPrivateNetworkFetch).toBe(false);
  });
});

describe('loadConfig rejects bad values with the variable name first', () => {
  test.each([
    ['GATEWAY_PORT', 'abc'],
    ['GATEWAY_PORT', '65536'],
    ['REST_PORT', '-1'],
    ['REST_PORT', '80.5'],
    ['PLATFORM_PORT', '4001x'],
    ['AI_PORT', '1e6'],
    ['CATALOG_PORT', 'NaN'],
    ['SEARCH_PORT', '99999'],
    ['EMBEDDED_PG_PORT', 'port'],
  ])('%s=%s', (variable, value) => {
    const err = expectConfigError({ [variable]: value }, variable);
    expect(err.message).toContain(`"${value}"`);
  });

  test.each([
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://u@h/db'],
    ['DATABASE_URL', 'http://h/db'],
    ['REDIS_URL', 'localhost:6379'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_URL', 'postgres://h/db'],
    ['GATEWAY_URL', 'ftp://h/graphql'],
    ['PLATFORM_URL', 'nope'],
    ['CATALOG_URL', 'redis://h'],
  ])('%s=%s', (variable, value) => {
    expectConfigError({ [variable]: value }, variable);
  });

  test('a wrong protocol names the allowed ones', () => {
    expect(expectConfigError({ DATABASE_URL: 'mysql://u@h/db' }, 'DATABASE_URL').message).toContain('postgres:, postgresql:');
    expect(expectConfigError({ REDIS_URL: 'http://h' }, 'REDIS_URL').message).toContain('redis:, rediss:');
  });

  test.each(['verbose', 'INFO', 'trace'])('LOG_LEVEL=%s', (level) => {
    expectConfigError({ LOG_LEVEL: level }, 'LOG_LEVEL');
  });

  test.each([
    ['API_KEY_CACHE_TTL_MS', '0'],
    ['API_KEY_CACHE_TTL_MS', 'soon'],
    ['MAX_QUERY_DEPTH', '-3'],
    ['MAX_QUERY_COST', '1.5'],
  ])('%s=%s', (variable, value) => {
    expectConfigError({ [variable]: value }, variable);
  });
});

describe('domain verification settings', () => {
  test('DNS_SERVERS: addresses with optional ports, comma-separated; defaults for the mail settings', () => {
    expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, 1.1.1.1,[::1]:53,::1' }).dnsServers).toEqual(['127.0.0.1:5353', '1.1.1.1', '[::1]:53', '::1']);
    const c = loadConfig({});
    expect(c.dnsServers).toEqual([]);
    expect(c.mailSpfInclude).toBe('_spf.mail.example.com');
    expect(c.mailDkimSelector).toBe('sg1');
    expect(c.mailDkimPublicKey).toBeUndefined();
  });

  test('bad values name the variable', () => {
    expect(() => loadConfig({ DNS_SERVERS: 'dns.google' })).toThrow(/^DNS_SERVERS: "dns.google" is not an IP address/);
    expect(() => loadConfig({ DNS_SERVERS: '127.0.0.1:99999' })).toThrow(/^DNS_SERVERS:/);
    expect(() => loadConfig({ MAIL_SPF_INCLUDE: 'not a name' })).toThrow(/^MAIL_SPF_INCLUDE:/);
    expect(() => loadConfig({ CATALOG_VECTOR_CACHE_MB: '0' })).toThrow(/^CATALOG_VECTOR_CACHE_MB:/);
  });
});

// issue 12 item 1: no public defaults in production
describe('NODE_ENV=production refuses development secrets', () => {
  const strong = 'x'.repeat(40);
  const base = { NODE_ENV: 'production', JWT_SECRET: strong, INTERNAL_SECRET: 'y'.repeat(40) };

  test('strong, distinct secrets start', () => {
    expect(loadConfig(base).production).toBe(true);
  });

  test.each([
    ['JWT_SECRET unset', { JWT_SECRET: undefined }, 'JWT_SECRET', /is required/],
    ['JWT_SECRET the development default', { JWT_SECRET: 'dev-only-jwt-secret-change-me' }, 'JWT_SECRET', /development default/],
    ['JWT_SECRET too short', { JWT_SECRET: 'short-secret' }, 'JWT_SECRET', /at least 32 bytes/],
    ['INTERNAL_SECRET unset', { INTERNAL_SECRET: undefined }, 'INTERNAL_SECRET', /is required/],
    ['INTERNAL_SECRET the derived development default', { INTERNAL_SECRET: 'internal:dev-only-jwt-secret-change-me' }, 'INTERNAL_SECRET', /development default/],
    ['INTERNAL_SECRET too short', { INTERNAL_SECRET: 'abc' }, 'INTERNAL_SECRET', /at least 32 bytes/],
    ['INTERNAL_SECRET equal to JWT_SECRET', { INTERNAL_SECRET: strong }, 'INTERNAL_SECRET', /must differ/],
  ])('%s → one line naming the variable', (_name, over, variable, message) => {
    const env: NodeJS.ProcessEnv = { ...base, ...over };
    for (const [k, v] of Object.entries(over)) if (v === undefined) delete env[k];
    expect(expectConfigError(env, variable).message).toMatch(message);
  });

  test('outside production the defaults still work', () => {
    expect(loadConfig({}).jwtSecretIsDefault).toBe(true);
  });
});

describe('JWT rotation and TRUSTED_PROXIES settings', () => {
  test('JWT_SECRET_PREVIOUS needs its kid and the end of its grace period', () => {
    expectConfigError({ JWT_SECRET: 'a', JWT_SECRET_PREVIOUS: 'b' }, 'JWT_PREVIOUS_KID');
    expectConfigError({ JWT_SECRET: 'a', JWT_SECRET_PREVIOUS: 'b', JWT_PREVIOUS_KID: 'k0' }, 'JWT_PREVIOUS_UNTIL');
    expectConfigError({ JWT_SECRET: 'a', JWT_SECRET_PREVIOUS: 'b', JWT_PREVIOUS_KID: 'k1', JWT_PREVIOUS_UNTIL: '2030-01-01T00:00:00Z' }, 'JWT_PREVIOUS_KID');
    const cfg = loadConfig({ JWT_SECRET: 'a', JWT_KID: 'k2', JWT_SECRET_PREVIOUS: 'b', JWT_PREVIOUS_KID: 'k1', JWT_PREVIOUS_UNTIL: '2030-01-01T00:00:00Z', JWT_MAX_LIFETIME_SEC: '3600' });
    expect(cfg.jwt).toEqual({
      keys: [
        { kid: 'k2', secret: 'a' },
        { kid: 'k1', secret: 'b', notAfterSec: Date.parse('2030-01-01T00:00:00Z') / 1000 },
      ],
      currentKid: 'k2',
      maxLifetimeSec: 3600,
      issuer: undefined,
      audience: undefined,
      // no identity provider configured: HS256 only
      jwks: [],
      clockSkewSec: 60,
      jwksCacheMs: 600_000,
      jwksMinRefreshMs: 30_000,
    });
  });

  test('TRUSTED_PROXIES takes IPs and CIDRs, refuses anything else', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7,::1/128' }).trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.7', '::1/128']);
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expectConfigError({ TRUSTED_PROXIES: '10.0.0.0/33' }, 'TRUSTED_PROXIES');
    expectConfigError({ TRUSTED_PROXIES: 'lb.internal' }, 'TRUSTED_PROXIES');
  });
});

describe('deployment switches (docs/deploy.md)', () => {
  test('defaults: no shutdown delay, workers on, migrations decided by the entry point, telemetry off, one database URL', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ shutdownDelayMs: 0, shutdownGraceMs: 10_000, workers: true, singleProcess: false, apolloTelemetry: false });
    expect(c.migrateOnStart).toBeUndefined();
    expect(c.databaseDirectUrl).toBeUndefined();
  });

  test('set: WORKERS=0, MIGRATE_ON_START=1/0, SINGLE_PROCESS=1, SHUTDOWN_DELAY_MS, DATABASE_DIRECT_URL', () => {
    const c = loadConfig({ WORKERS: '0', MIGRATE_ON_START: '1', SINGLE_PROCESS: 'true', SHUTDOWN_DELAY_MS: '5000', DATABASE_DIRECT_URL: 'postgres://db:5432/app' });
    expect(c).toMatchObject({ workers: false, migrateOnStart: true, singleProcess: true, shutdownDelayMs: 5000, databaseDirectUrl: 'postgres://db:5432/app' });
    expect(loadConfig({ MIGRATE_ON_START: '0' }).migrateOnStart).toBe(false);
  });

  test.each([
    ['WORKERS', 'no'],
    ['MIGRATE_ON_START', 'yes'],
    ['SINGLE_PROCESS', '2'],
    ['APOLLO_TELEMETRY', 'on'],
    ['SHUTDOWN_DELAY_MS', '-1'],
    ['DATABASE_DIRECT_URL', 'mysql://x'],
  ])('%s=%s stops start-up naming the variable', (variable, value) => {
    expectConfigError({ [variable]: value }, variable);
  });

  test('a process started on its own needs REDIS_URL unless SINGLE_PROCESS=1', () => {
    expect(() => requireSharedState(loadConfig({}))).toThrow(/^REDIS_URL: is required for a process started on its own .*SINGLE_PROCESS=1/);
    expect(() => requireSharedState(loadConfig({ SINGLE_PROCESS: '1' }))).not.toThrow();
    expect(() => requireSharedState(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }))).not.toThrow();
  });
});
