// deploy/compose.yaml and deploy/haproxy.cfg, offline: two replicas of every role behind HAProxy
// (health-checked on /health/ready, WebSockets tunnelled), PostgreSQL behind PgBouncer, Redis and an
// S3-compatible store; every service's environment is the README's variables, every dependency
// waits for a healthcheck or a finished one-shot, and HAProxy itself accepts the configuration.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT, readmeEnvironmentVariables } from './readme-env.js';

type Service = {
  image?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
  ports?: string[];
  stop_grace_period?: string;
};
const compose = parse(readFileSync(resolve(ROOT, 'deploy', 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const haproxyCfg = readFileSync(resolve(ROOT, 'deploy', 'haproxy.cfg'), 'utf8');
const ROLE_PORTS = { rest: 8080, gateway: 4000, platform: 4001, ai: 4002, catalog: 4003, search: 4004 } as const;
const PLATFORM_IMAGE = '${PLATFORM_IMAGE:-localhost/supergraph-platform:0.1.0}';

test('every role runs two replicas of the one image, with ROLE naming it', () => {
  for (const role of Object.keys(ROLE_PORTS)) {
    expect(services[role]?.image).toBe(PLATFORM_IMAGE);
    expect(services[role].environment?.ROLE).toBe(role);
    expect(services[role].deploy?.replicas).toBe(2);
  }
  expect(services.migrate.environment?.ROLE).toBe('migrate');
  expect(services.migrate.restart).toBe('no');
  for (const infra of ['postgres', 'pgbouncer', 'redis', 'minio', 'haproxy']) expect(services[infra]?.image).toBeDefined();
});

test("the platform services' environment is the README's variables, production-complete", () => {
  const known = new Set(readmeEnvironmentVariables());
  for (const [name, s] of Object.entries(services)) {
    if (s.image !== PLATFORM_IMAGE) continue;
    const env = s.environment ?? {};
    expect({ name, unknown: Object.keys(env).filter((k) => !known.has(k)) }).toEqual({ name, unknown: [] });
    // NODE_ENV=production requires the three secrets (lib/config.ts); replicas share Redis and S3
    for (const required of ['JWT_SECRET', 'INTERNAL_SECRET', 'MASTER_KEY', 'REDIS_URL', 'S3_BUCKET']) expect(env[required]).toBeTruthy();
    expect(env.NODE_ENV).toBe('production');
    expect(env.OBJECT_STORE).toBe('s3');
    expect(env.MIGRATE_ON_START).toBe('0');
    // request pools through PgBouncer, the session work (LISTEN, the migration lock) direct
    expect(env.DATABASE_URL).toMatch(/@pgbouncer:5432\//);
    expect(env.DATABASE_DIRECT_URL).toMatch(/@postgres:5432\//);
    // the other services through HAProxy, on the ports its frontends bind
    for (const [role, port] of Object.entries(ROLE_PORTS)) {
      if (role === 'rest') continue;
      const variable = role === 'gateway' ? 'GATEWAY_URL' : `${role.toUpperCase()}_URL`;
      expect(env[variable]).toBe(`http://haproxy:${port}/graphql`);
    }
    // the stop grace period outlasts the drain
    const grace = Number(/^(\d+)s$/.exec(s.stop_grace_period ?? '')?.[1]);
    expect(grace).toBeGreaterThanOrEqual((Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_GRACE_MS)) / 1000 + 1);
  }
});

test('every dependency waits for a healthcheck or a finished one-shot', () => {
  for (const [name, s] of Object.entries(services)) {
    for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
      const target = services[dep];
      expect({ name, dep, exists: Boolean(target) }).toEqual({ name, dep, exists: true });
      if (condition === 'service_healthy') {
        // the platform image carries its own HEALTHCHECK (deploy/Containerfile)
        expect({ name, dep, healthcheck: Boolean(target.healthcheck || target.image === PLATFORM_IMAGE) }).toEqual({ name, dep, healthcheck: true });
      } else if (condition === 'service_completed_successfully') {
        expect({ name, dep, restart: target.restart }).toEqual({ name, dep, restart: 'no' });
      } else {
        expect(condition).toBe('service_started');
      }
    }
  }
  for (const role of ['platform', 'ai', 'catalog', 'search']) {
    expect(services[role].depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
  }
});

test('every secret the file needs is in .env.example', () => {
  const text = readFileSync(resolve(ROOT, 'deploy', 'compose.yaml'), 'utf8');
  const needed = new Set([...text.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]));
  const example = readFileSync(resolve(ROOT, 'deploy', '.env.example'), 'utf8');
  const listed = new Set([...example.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
  expect([...needed].filter((v) => !listed.has(v))).toEqual([]);
});

test('HAProxy publishes REST and GraphQL and balances two ready replicas of each role', () => {
  expect(services.haproxy.ports).toEqual(expect.arrayContaining(['8080:8080', '4000:4000']));
  for (const [role, port] of Object.entries(ROLE_PORTS)) {
    const backend = new RegExp(`\\nbackend ${role}\\n((?:  .*\\n)+)`).exec(haproxyCfg)?.[1] ?? '';
    expect(backend).toContain(`server-template ${role} 2 ${role}:${port}`);
    expect(backend).toContain('option httpchk GET /health/ready');
    expect(haproxyCfg).toMatch(new RegExp(`bind :${port}\\n  default_backend ${role}\\n`));
  }
  // WebSockets stay open past the client/server timeouts once upgraded
  expect(haproxyCfg).toMatch(/timeout tunnel 1h/);
  expect(haproxyCfg).toMatch(/resolvers docker/);
});

// Debian's docker-compose (1.x, installed by .ci/run) checks the file against the Compose schema
// offline, with placeholder secrets
const dockerCompose = ['/usr/bin/docker-compose', '/usr/local/bin/docker-compose'].find((p) => existsSync(p));
(dockerCompose ? test : test.skip)('docker-compose accepts the file (docker-compose config)', () => {
  const text = readFileSync(resolve(ROOT, 'deploy', 'compose.yaml'), 'utf8');
  const secrets = Object.fromEntries([...text.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => [m[1], 'placeholder']));
  const out = execFileSync(dockerCompose!, ['-f', resolve(ROOT, 'deploy', 'compose.yaml'), 'config', '--services'], { encoding: 'utf8', env: { ...process.env, ...secrets } });
  expect(out.trim().split('\n').sort()).toEqual(Object.keys(services).sort());
});

const haproxy = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p));
(haproxy ? test : test.skip)('HAProxy accepts the configuration (haproxy -c)', () => {
  const out = execFileSync(haproxy!, ['-c', '-f', resolve(ROOT, 'deploy', 'haproxy.cfg')], { encoding: 'utf8' });
  expect(out).toMatch(/Configuration file is valid/);
});
