// Two gateway processes over Redis, with the platform and catalog subgraphs in processes of their
// own, on the test stack's database: what the cross-process subscription tests need. Call inside a
// describe: it registers the beforeAll that starts them and the afterAll that stops them.
import type { ChildProcess } from 'node:child_process';
import { stack } from './client.js';
import { spawnScript, stop, waitFor } from './spawn.js';

export interface RedisGateways {
  gatewayA: string;
  gatewayB: string;
  /** SIGKILL gateway A (a crash mid-stream: nothing is drained or told) and wait until it is gone */
  killGatewayA(): Promise<void>;
}

/** `offset`: from TEST_PORT_BASE, one per test file; `label`: log file prefix under .data/test-logs; `gatewayEnv`: more settings of both gateways. */
export function twoGatewaysOverRedis(redisUrl: string, offset: number, label: string, startMs = 150_000, gatewayEnv: Record<string, string> = {}): RedisGateways {
  const base = Number(process.env.TEST_PORT_BASE ?? 14000) + offset;
  const procs: ChildProcess[] = [];
  let gatewayAProcess: ChildProcess | undefined;
  beforeAll(async () => {
    const s = stack();
    const env = {
      JWT_SECRET: s.env.JWT_SECRET,
      INTERNAL_SECRET: s.env.INTERNAL_SECRET,
      DATABASE_URL: s.env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${s.env.EMBEDDED_PG_PORT}/supergraph`,
      REDIS_URL: redisUrl,
      LOG_LEVEL: 'warn',
      PLATFORM_PORT: String(base + 1),
      AI_PORT: String(base + 2),
      CATALOG_PORT: String(base + 3),
      SEARCH_PORT: String(base + 4),
    };
    const platform = spawnScript('subgraphs/platform/main.ts', env, `${label}-platform`);
    const catalog = spawnScript('subgraphs/catalog/main.ts', env, `${label}-catalog`);
    procs.push(platform, catalog);
    await Promise.all([waitFor(`http://127.0.0.1:${base + 1}/health/ready`, startMs, platform), waitFor(`http://127.0.0.1:${base + 3}/health/ready`, startMs, catalog)]);
    const gwA = spawnScript('gateway/main.ts', { ...env, ...gatewayEnv, GATEWAY_PORT: String(base) }, `${label}-gateway-a`);
    const gwB = spawnScript('gateway/main.ts', { ...env, ...gatewayEnv, GATEWAY_PORT: String(base + 10) }, `${label}-gateway-b`);
    procs.push(gwA, gwB);
    gatewayAProcess = gwA;
    await Promise.all([waitFor(`http://127.0.0.1:${base}/health`, startMs, gwA), waitFor(`http://127.0.0.1:${base + 10}/health`, startMs, gwB)]);
  }, 3 * startMs);
  afterAll(async () => {
    await Promise.all(procs.map((p) => stop(p)));
  });
  const killGatewayA = async () => {
    const p = gatewayAProcess;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  };
  return { gatewayA: `http://127.0.0.1:${base}/graphql`, gatewayB: `http://127.0.0.1:${base + 10}/graphql`, killGatewayA };
}
