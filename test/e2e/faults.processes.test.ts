// Faults with each process run separately (docs/operations.md, "Faults"): the four subgraphs, the
// gateway and the REST bridge as processes of their own (the npm run start:* scripts), on the test
// stack's database, every one reaching Redis through a TCP relay this test controls.
//  - the search subgraph killed (SIGKILL): its GraphQL fields answer SERVICE_UNAVAILABLE and its REST
//    paths 503 with Retry-After within a second, the catalog keeps answering; started again on its
//    port, the same gateway uses it with no restart;
//  - Redis cut (every connection reset, new ones refused) and restored: API-key requests keep being
//    answered in their normal time, readiness says degraded, and says ok again once Redis is back.
import type { ChildProcess } from 'node:child_process';
import { createTenant, stack, type Tenant } from '../harness/client.js';
import { spawnScript, stop, waitFor } from '../harness/spawn.js';
import { tcpRelay } from '../harness/tcp-relay.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 620;
const PORTS = { gateway: BASE, platform: BASE + 1, ai: BASE + 2, catalog: BASE + 3, search: BASE + 4, rest: BASE + 5, redis: BASE + 9 };
const REST = `http://127.0.0.1:${PORTS.rest}`;
const GATEWAY = `http://127.0.0.1:${PORTS.gateway}/graphql`;
const redisUrl = process.env.REDIS_URL ? new URL(process.env.REDIS_URL) : undefined;
const relay = tcpRelay(PORTS.redis, { host: redisUrl?.hostname ?? '127.0.0.1', port: Number(redisUrl?.port || 6379) });
const procs = new Map<string, ChildProcess>();
let tenant: Tenant;

function env(): Record<string, string> {
  const s = stack();
  const relayed = redisUrl ? new URL(redisUrl) : undefined;
  if (relayed) {
    relayed.hostname = '127.0.0.1';
    relayed.port = String(PORTS.redis);
  }
  return {
    JWT_SECRET: s.env.JWT_SECRET,
    INTERNAL_SECRET: s.env.INTERNAL_SECRET,
    DATABASE_URL: s.env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${s.env.EMBEDDED_PG_PORT}/supergraph`,
    REDIS_URL: relayed?.toString() ?? '',
    REDIS_KEY_PREFIX: `sgfaults_${process.pid}_${BASE}:`,
    LOG_LEVEL: 'warn',
    GATEWAY_PORT: String(PORTS.gateway),
    PLATFORM_PORT: String(PORTS.platform),
    AI_PORT: String(PORTS.ai),
    CATALOG_PORT: String(PORTS.catalog),
    SEARCH_PORT: String(PORTS.search),
    REST_PORT: String(PORTS.rest),
  };
}

async function startProcess(name: string, script: string, ready: string, n = 0): Promise<void> {
  const child = spawnScript(script, env(), `faults-processes-${name}-${BASE}-${n}`);
  procs.set(name, child);
  await waitFor(ready, 150_000, child);
}

const subgraphReady = (name: keyof typeof PORTS) => `http://127.0.0.1:${PORTS[name]}/health/ready`;

beforeAll(async () => {
  await relay.up();
  tenant = await createTenant();
  await Promise.all(
    (['platform', 'ai', 'catalog', 'search'] as const).map((n) => startProcess(n, `subgraphs/${n}/main.ts`, subgraphReady(n))),
  );
  await startProcess('gateway', 'gateway/main.ts', `http://127.0.0.1:${PORTS.gateway}/health/ready`);
  await startProcess('rest', 'rest-bridge/main.ts', `${REST}/health/ready`);
}, 400_000);

afterAll(async () => {
  await relay.down();
  // stop() waits for an exit event: not for a process already gone (killed by the test)
  await Promise.all([...procs.values()].filter((p) => p.exitCode === null && p.signalCode === null).map((p) => stop(p)));
}, 60_000);

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
}

async function gql(query: string) {
  const r = await fetch(GATEWAY, { method: 'POST', headers: { 'content-type': 'application/json', ...tenant.keyHeaders }, body: JSON.stringify({ query }) });
  return { status: r.status, body: (await r.json()) as { data?: any; errors?: any[] } };
}

async function rest(path: string) {
  const r = await fetch(`${REST}${path}`, { headers: tenant.keyHeaders });
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as any };
}

const SEARCH_Q = '{ indexes { uid } }';
const CATALOG_Q = '{ products(pageSize: 1) { total } }';

test('search killed: its fields SERVICE_UNAVAILABLE and its paths 503 + Retry-After within a second, catalog answers; restarted: used again', async () => {
  expect((await gql(SEARCH_Q)).body.errors).toBeUndefined();
  expect((await rest('/search/v1/indexes')).status).toBe(200);
  expect((await rest('/v1/products')).status).toBe(200); // warm: the first request of a path compiles it

  const search = procs.get('search')!;
  const exited = new Promise((r) => search.once('exit', r));
  search.kill('SIGKILL');
  await exited;

  const g = await timed(() => gql(SEARCH_Q));
  expect(g.ms).toBeLessThan(1000);
  expect(g.value.body.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  const r = await timed(() => rest('/search/v1/indexes'));
  expect(r.ms).toBeLessThan(1000);
  expect(r.value.status).toBe(503);
  expect(Number(r.value.retryAfter)).toBeGreaterThan(0);
  expect(r.value.body.code ?? r.value.body.errors?.[0]?.code).toBe('service_unavailable');
  const c = await timed(() => rest('/v1/products'));
  expect(c.value.status).toBe(200);
  expect(c.ms).toBeLessThan(3000); // its usual time on a busy machine: nothing waits on the dead subgraph
  expect((await gql(CATALOG_Q)).body.errors).toBeUndefined();
  console.log(`search killed: GraphQL answered in ${g.ms.toFixed(0)} ms, REST 503 in ${r.ms.toFixed(0)} ms, catalog REST 200 in ${c.ms.toFixed(0)} ms`);

  await startProcess('search', 'subgraphs/search/main.ts', subgraphReady('search'), 1);
  const back = await gql(SEARCH_Q);
  expect(back.body.errors).toBeUndefined();
  expect(Array.isArray(back.body.data.indexes)).toBe(true);
  expect((await rest('/search/v1/indexes')).status).toBe(200);
  expect(procs.get('gateway')!.exitCode).toBeNull();
}, 240_000);

const describeRedis = redisUrl ? describe : describe.skip;
describeRedis('Redis behind a relay', () => {
  const ready = async (url: string) => {
    const r = await fetch(url);
    return { status: r.status, body: (await r.json()) as any };
  };
  /** readiness once it says `status` (node-redis reconnects with a backoff of up to 2 s), or as it is after 20 s */
  const readyWithin = async (url: string, status: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const r = await ready(url);
      if (r.body.status === status || Date.now() > deadline) return r;
      await new Promise((res) => setTimeout(res, 250));
    }
  };

  test('cut: requests answered in normal time, readiness degraded; restored: readiness ok again', async () => {
    const normal = await timed(() => gql(CATALOG_Q));
    expect(normal.value.body.errors).toBeUndefined();
    expect((await readyWithin(`http://127.0.0.1:${PORTS.gateway}/health/ready`, 'ok')).body.status).toBe('ok');

    await relay.down();
    const during: number[] = [];
    for (let i = 0; i < 10; i++) {
      const g = await timed(() => gql(CATALOG_Q));
      expect(g.value.status).toBe(200);
      expect(g.value.body.errors).toBeUndefined();
      const r = await timed(() => rest('/v1/products'));
      expect(r.value.status).toBe(200);
      during.push(g.ms, r.ms);
    }
    const worst = Math.max(...during);
    console.log(`redis cut: 20 requests, slowest ${worst.toFixed(0)} ms (before the cut ${normal.ms.toFixed(0)} ms)`);
    // no request waits on the dead connection (a Redis call is abandoned after 1 s at worst)
    expect(worst).toBeLessThan(1500);
    const gw = await ready(`http://127.0.0.1:${PORTS.gateway}/health/ready`);
    expect(gw.status).toBe(200);
    expect(gw.body.status).toBe('degraded');
    expect(gw.body.components.redis.status).toBe('degraded');
    expect((await ready(`${REST}/health/ready`)).body.status).toBe('degraded');

    await relay.up();
    expect((await readyWithin(`http://127.0.0.1:${PORTS.gateway}/health/ready`, 'ok')).body.status).toBe('ok');
    expect((await readyWithin(`${REST}/health/ready`, 'ok')).body.status).toBe('ok');
    expect((await gql(CATALOG_Q)).body.errors).toBeUndefined();
  }, 120_000);
});
