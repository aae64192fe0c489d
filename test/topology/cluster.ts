// The topology of docs/deploy.md on loopback, for test/topology/topology.test.ts: HAProxy in front of
// two of every process (REST bridges, gateways with their WebSockets, each subgraph), PostgreSQL
// through PgBouncer in transaction mode (DATABASE_DIRECT_URL for LISTEN and the migration lock), Redis
// primary + replica + 3 Sentinels, the object store on S3 (s3rver). Every port is TEST_PORT_BASE +
// 1510…1599. Each process is started as a deployment starts it (its own entry point, no
// SINGLE_PROCESS, no migration at start: `npm run migrate` once before).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { startPgBouncer } from '../harness/pgbouncer.js';
import { ROOT, spawnScript, waitFor } from '../harness/spawn.js';
import { startSentinelSet, type SentinelSet } from '../harness/redis-sentinel.js';
import { startS3Server, type TestS3 } from '../harness/s3-server.js';

export const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 1510;
export const PORTS = {
  redis: BASE, // + 0…4: primary, replica, 3 sentinels
  pgbouncer: BASE + 5,
  // HAProxy frontends
  lb: { gateway: BASE + 10, rest: BASE + 11, platform: BASE + 12, ai: BASE + 13, catalog: BASE + 14, search: BASE + 15 },
  // the replicas behind them: two of each
  platform: [BASE + 20, BASE + 21],
  ai: [BASE + 22, BASE + 23],
  catalog: [BASE + 24, BASE + 25],
  search: [BASE + 26, BASE + 27],
  gateway: [BASE + 28, BASE + 29],
  rest: [BASE + 30, BASE + 31],
} as const;

export type Role = 'platform' | 'ai' | 'catalog' | 'search' | 'gateway' | 'rest';
const SCRIPT: Record<Role, string> = {
  platform: 'subgraphs/platform/main.ts',
  ai: 'subgraphs/ai/main.ts',
  catalog: 'subgraphs/catalog/main.ts',
  search: 'subgraphs/search/main.ts',
  gateway: 'gateway/main.ts',
  rest: 'rest-bridge/main.ts',
};
const PORT_VAR: Record<Role, string> = { platform: 'PLATFORM_PORT', ai: 'AI_PORT', catalog: 'CATALOG_PORT', search: 'SEARCH_PORT', gateway: 'GATEWAY_PORT', rest: 'REST_PORT' };

export const SECRETS = {
  JWT_SECRET: 'topology-jwt-secret-0123456789abcdef0123',
  INTERNAL_SECRET: 'topology-internal-secret-0123456789abcdef',
  MASTER_KEY: '5f1d3a0c9b7e2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f',
};
/** The balancer's notice time: HAProxy checks readiness every 500 ms and takes a replica out after 2 failed checks. */
const SHUTDOWN = { SHUTDOWN_DELAY_MS: '3000', SHUTDOWN_GRACE_MS: '8000' };

export interface Replica {
  role: Role;
  index: number;
  port: number;
  child?: ChildProcess;
  starts: number;
}

const tcpOpen = (port: number) =>
  new Promise<boolean>((r) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), r(true))).once('error', () => r(false));
  });

async function untilOpen(port: number, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await tcpOpen(port))) {
    if (Date.now() > deadline) throw new Error(`${what} not listening on ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exited = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

export function haproxyConfig(): string {
  const backend = (role: Role, ws = false) => [
    `frontend fe_${role}`,
    `  bind 127.0.0.1:${PORTS.lb[role]}`,
    `  default_backend be_${role}`,
    `backend be_${role}`,
    '  option httpchk GET /health/ready',
    '  http-check expect status 200',
    ...(ws ? ['  timeout tunnel 1h'] : []),
    ...PORTS[role].map((p, i) => `  server ${role}${i + 1} 127.0.0.1:${p} check inter 500 fall 2 rise 1`),
  ];
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-request 10s',
    // a loaded machine answers a readiness check late: late is not down
    '  timeout check 5s',
    // a request whose connection failed or was closed unanswered goes to the other replica
    '  option redispatch',
    '  retries 3',
    '  retry-on conn-failure empty-response response-timeout',
    '  option http-server-close',
    // with no replica of a role up (both restarting on a loaded machine), the balancer's own 503
    // tells the client when to retry, as the processes' 503s do
    '  http-error status 503 content-type application/json string \'{"errors":[{"status":"503","code":"SERVICE_UNAVAILABLE","title":"no replica available; retry shortly"}]}\' hdr Retry-After 1',
    ...(['gateway', 'rest', 'platform', 'ai', 'catalog', 'search'] as Role[]).flatMap((r) => backend(r, r === 'gateway')),
    '',
  ].join('\n');
}

export interface Cluster {
  replicas: Replica[];
  sentinels: SentinelSet;
  s3: TestS3;
  /** the balancer's REST and GraphQL addresses */
  rest: string;
  gateway: string;
  /** a replica's own address (revocation checks go to one gateway, then the other) */
  origin(r: Replica): string;
  /** SIGTERM, wait for the exit, start again (ready awaited by `ready`) */
  restart(r: Replica): Promise<void>;
  ready(r: Replica, timeoutMs?: number): Promise<void>;
  kill9(r: Replica): Promise<void>;
  start(r: Replica): void;
  stop(): Promise<void>;
  /** the exit codes of the replicas stopped by SIGTERM (0 expected) */
  exitCodes: { name: string; code: number | null }[];
}

export async function startCluster(directUrl: string): Promise<Cluster> {
  const dir = resolve(ROOT, '.data', `topology-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  mkdirSync(resolve(ROOT, '.data', 'test-logs'), { recursive: true });
  chmodSync(dir, 0o777);
  const infra: ChildProcess[] = [];
  const replicas: Replica[] = (Object.keys(SCRIPT) as Role[]).flatMap((role) => PORTS[role].map((port, index) => ({ role, index, port, starts: 0 })));
  const cleanups: (() => Promise<void>)[] = [];
  const stopInfra = async () => {
    for (const r of replicas) r.child?.kill('SIGKILL');
    for (const c of infra) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    await Promise.all(infra.map(exited));
    for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // PgBouncer in transaction mode in front of the test's database
    infra.push(startPgBouncer(dir, directUrl, { port: PORTS.pgbouncer, poolSize: 20, maxClients: 1000 }));
    writeFileSync(resolve(dir, 'haproxy.cfg'), haproxyConfig());
    // its log (servers going down and up during the roll) beside the processes' logs
    const haproxyLog = openSync(resolve(ROOT, '.data', 'test-logs', 'topology-haproxy.log'), 'w');
    infra.push(spawn('haproxy', ['-db', '-f', resolve(dir, 'haproxy.cfg')], { stdio: ['ignore', haproxyLog, haproxyLog] }));
    closeSync(haproxyLog);
    const sentinels = await startSentinelSet(PORTS.redis);
    cleanups.push(() => sentinels.stop());
    const s3 = await startS3Server('topology');
    cleanups.push(() => s3.stop());
    await untilOpen(PORTS.pgbouncer, 'pgbouncer');
    await untilOpen(PORTS.lb.gateway, 'haproxy');

    const pooled = new URL(directUrl);
    pooled.hostname = '127.0.0.1';
    pooled.port = String(PORTS.pgbouncer);
    const lb = (role: Role) => `http://127.0.0.1:${PORTS.lb[role]}/graphql`;
    const env: Record<string, string> = {
      ...SECRETS,
      ...SHUTDOWN,
      ...sentinels.env,
      ...s3.env,
      DATABASE_URL: pooled.toString(),
      DATABASE_DIRECT_URL: directUrl,
      SINGLE_PROCESS: '',
      MIGRATE_ON_START: '0',
      LOG_LEVEL: 'warn',
      PLATFORM_URL: lb('platform'),
      AI_URL: lb('ai'),
      CATALOG_URL: lb('catalog'),
      SEARCH_URL: lb('search'),
      GATEWAY_URL: lb('gateway'),
    };

    // migrations once, through the pooler, their lock on the direct URL (docs/deploy.md)
    const migrate = spawnScript('scripts/migrate.ts', { DATABASE_URL: env.DATABASE_URL, DATABASE_DIRECT_URL: directUrl }, 'topology-migrate');
    await exited(migrate);
    if (migrate.exitCode !== 0) throw new Error('npm run migrate failed (see .data/test-logs/topology-migrate.log)');

    const exitCodes: Cluster['exitCodes'] = [];
    const name = (r: Replica) => `${r.role}${r.index + 1}`;
    const origin = (r: Replica) => `http://127.0.0.1:${r.port}`;
    const start = (r: Replica) => {
      r.starts++;
      r.child = spawnScript(SCRIPT[r.role], { ...env, [PORT_VAR[r.role]]: String(r.port) }, `topology-${name(r)}-${r.starts}`);
    };
    const ready = (r: Replica, timeoutMs = 300_000) => waitFor(`${origin(r)}/health/ready`, timeoutMs, r.child);
    // the subgraphs first, then the edges (the gateways compose the supergraph from them)
    const edge = (r: Replica) => r.role === 'gateway' || r.role === 'rest';
    for (const r of replicas.filter((x) => !edge(x))) start(r);
    await Promise.all(replicas.filter((x) => !edge(x)).map((r) => ready(r)));
    for (const r of replicas.filter(edge)) start(r);
    await Promise.all(replicas.filter(edge).map((r) => ready(r)));
    return {
      replicas,
      sentinels,
      s3,
      rest: `http://127.0.0.1:${PORTS.lb.rest}`,
      gateway: `http://127.0.0.1:${PORTS.lb.gateway}/graphql`,
      origin,
      exitCodes,
      start,
      ready,
      async restart(r) {
        const c = r.child!;
        c.kill('SIGTERM');
        await exited(c);
        exitCodes.push({ name: name(r), code: c.exitCode });
        start(r);
      },
      async kill9(r) {
        r.child!.kill('SIGKILL');
        await exited(r.child!);
      },
      async stop() {
        for (const r of replicas) if (r.child && r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
        await Promise.all(
          replicas.map(async (r) => {
            if (!r.child) return;
            const late = setTimeout(() => r.child!.kill('SIGKILL'), 15_000);
            await exited(r.child);
            clearTimeout(late);
          }),
        );
        await stopInfra();
      },
    };
  } catch (e) {
    await stopInfra();
    throw e;
  }
}
