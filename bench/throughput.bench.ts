// npm run bench:throughput: throughput at 16 concurrent clients, the way `npm start` runs the system.
// The stack runs in child processes (`scripts/start-all`, compiled or through the TypeScript loader,
// one process or one per service), stock @apollo/gateway in another on the same subgraphs, and this
// process only sends requests over keep-alive node:http. Per scenario it prints p50/p95/p99, req/s,
// and the CPU the stack's processes spent per request (utime+stime from /proc, so it includes
// everything a request costs: HTTP, GraphQL, SQL driver, JSON).
//
// Env: BENCH_PORT_BASE (22500), BENCH_SECONDS per scenario (4), BENCH_BUILD=dist|ts (dist: npm run
// build's output, rebuilt when stale), BENCH_PROCESSES=one|split (what `npm start` defaults to), BENCH_PROFILE=<dir>
// (a CPU profile of the stack in one process after start-up, printed at the end beside the profile
// before the throughput work; BENCH_ONLY=direct,fed profiles what that one did),
// BENCH_ONLY=<comma list of scenario ids>, BENCH_ROUNDS (8: the REST/gateway pair alternates in rounds; a round moves the ratio by up to ±15 %, so 8 rounds pool it),
// BENCH_NODE_FLAGS (the stack's node options; default npm start's). Uses DATABASE_URL (a scratch database) when set.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { PlatformClient } from '../gateway/platform-client.js';
import { hashApiKey } from '../lib/api-key-hash.js';
import { postJson, requestJson } from '../lib/http-client.js';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../lib/tenant.js';
import { loadOperations } from '../rest-bridge/operations.js';
import { nodeFlags } from '../scripts/node-flags.js';
import { benchStackEnv, benchTenant, cpuMs, processTree, rssMiB, scratchDatabase, stopChildren, waitUntilUp } from './harness.js';
import { fmt, summarize, type Stats } from './stats.js';
import { hasWrk, runWrk } from './wrk.js';
import { printProfileBeforeAfter, printTargets, type ScenarioResult } from './throughput-report.js';

const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 22500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** rounds of a paired scenario (REST bridge and gateway), alternating */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CONCURRENCY = 16;
const build = process.env.BENCH_BUILD ?? 'dist';
// the compiled build as `npm start` in production runs it, rebuilt when a source is newer
if (build === 'dist') execFileSync(process.execPath, [resolve(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
const processes = process.env.BENCH_PROCESSES ?? '';
const only = process.env.BENCH_ONLY?.split(',');
const profileDir = process.env.BENCH_PROFILE;
const LOADER = ['--import', '@swc-node/register/esm-register'];
/** Node options of the stack's process: `npm start`'s (scripts/node-flags.ts), or BENCH_NODE_FLAGS */
const NODE_FLAGS = process.env.BENCH_NODE_FLAGS !== undefined ? process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean) : nodeFlags(ROOT);

const scratch = await scratchDatabase('throughput');
const env = benchStackEnv('throughput', base, scratch.url, {
  NODE_ENV: build === 'dist' ? 'production' : 'development',
  // the response cache on (docs/response-cache.md): the uncached scenarios send Cache-Control: no-store
  RESPONSE_CACHE_MAX_BYTES: String(64 * 1024 * 1024),
  ...(processes ? { START_PROCESSES: processes } : {}),
});
const rest = `http://127.0.0.1:${base + 80}`;
const gatewayUrl = `http://127.0.0.1:${base}/graphql`;
const stockUrl = `http://127.0.0.1:${base + 90}/graphql`;
const children: ChildProcess[] = [];

/** node args of an entry point under the chosen build (dist/…js, or the .ts through the loader). */
function entry(tsPath: string): string[] {
  if (build === 'dist') return [resolve(ROOT, 'dist', tsPath.replace(/\.ts$/, '.js'))];
  return [...LOADER, resolve(ROOT, tsPath)];
}


/** RSS of a process tree, MiB */
const treeRss = (pid: number) => processTree(pid).reduce((sum, p) => sum + rssMiB(p), 0);

// ------------------------------------------------------------------ the stack
const started = performance.now();
// BENCH_PROFILE: the same stack in one process with a profiler of the steady state (bench/profiled-stack.ts)
const stack = spawn(process.execPath, [...NODE_FLAGS, ...entry(profileDir ? 'bench/profiled-stack.ts' : 'scripts/start-all.ts')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
children.push(stack);
const stopAll = async () => {
  await stopChildren(children);
  await scratch.drop();
};
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  await waitUntilUp(`${rest}/health/ready`, stack, 'the stack');
  await waitUntilUp(`http://127.0.0.1:${base}/health/ready`, stack, 'the gateway');
  const startSeconds = (performance.now() - started) / 1000;

  // ---------------------------------------------------------------- tenants and a few products
  // An app allows at most 100,000 requests a minute (shared by its keys), and the scenarios together
  // send more: each group of scenarios gets an app of its own, each app the same 20 products. REST
  // paths also have per-key limits per minute (the spec's table: GET /v1/products 1,000): the REST
  // pair spreads its requests over 80 keys of its app (80,000 a minute).
  const tenants = await Promise.all([
    benchTenant(rest, env.JWT_SECRET!, 'tput', 1), // direct, single, federated, ListProducts; the stock gateway's tenant
    benchTenant(rest, env.JWT_SECRET!, 'tputrest', 80), // the REST / gateway pair
    benchTenant(rest, env.JWT_SECRET!, 'tputflight', 1), // in flight, the stack's gateway
    benchTenant(rest, env.JWT_SECRET!, 'tputalone', 1), // in flight, the gateways alone (sharing on / off)
    benchTenant(rest, env.JWT_SECRET!, 'tputcache', 1), // the cached federated query (its own app: it sends ~40,000 requests in a scenario)
    benchTenant(rest, env.JWT_SECRET!, 'tputreplicas', 1), // the same hit through 2 replicas (its own app: the two scenarios send ~80,000 more, past one app's minute)
  ]);
  await Promise.all(tenants.map(async (t) => {
    for (let i = 0; i < 20; i++) await t.post('/v1/products', t.keys[0]!, 'products', { name: `Product ${i}`, sku: `SKU-${i}`, description: `The ${i}th product`, price: { amount: 100 * i + 99, currency: 'USD' } });
  }));
  const [main, restTenant, flight, alone, cached, cachedReplicas] = tenants;
  const { appId } = main;
  const kh = main.keys[0]!;
  const restKeys = restTenant.keys;
  const flightKey = flight.keys[0]!;
  const aloneKey = alone.keys[0]!;

  // The tenant context the gateway signs for this key, for direct subgraph calls and the stock gateway.
  const k = await new PlatformClient(`http://127.0.0.1:${base + 1}/graphql`, env.INTERNAL_SECRET!).verifyApiKey(appId, hashApiKey(kh['x-api-key']));
  if (!k) throw new Error('bench key did not verify');
  const tenant: TenantContext = {
    kind: 'key', requestId: 'bench', scopes: k.scopes, appId: k.appId, keyId: k.keyId, environment: k.environment,
    accountId: k.accountId, platformId: k.platformId, platformCode: k.platformCode, ...(k.plan ? { plan: k.plan } : {}),
  };
  const subgraphUrls = { platform: `http://127.0.0.1:${base + 1}/graphql`, ai: `http://127.0.0.1:${base + 2}/graphql`, catalog: `http://127.0.0.1:${base + 3}/graphql`, search: `http://127.0.0.1:${base + 4}/graphql` };
  const stock = spawn(process.execPath, [...LOADER, resolve(ROOT, 'bench', 'stock-gateway.ts')], {
    cwd: ROOT,
    env: { ...env, BENCH_TENANT: JSON.stringify(tenant), BENCH_SUBGRAPH_URLS: JSON.stringify(subgraphUrls), STOCK_GATEWAY_PORT: String(base + 90) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(stock);
  // Two gateways of ours on their own, on the stack's subgraphs over HTTP, alike but for the sharing
  // of identical in-flight subgraph fetches: what sharing gains, and that distinct queries lose nothing.
  const sharing = (['on', 'off'] as const).filter((m) => !only || only.includes(`same-${m}`) || only.includes(`distinct-${m}`)).map((mode) => {
    const port = base + (mode === 'on' ? 91 : 92);
    const child = spawn(process.execPath, [...NODE_FLAGS, ...entry('gateway/main.ts')], {
      cwd: ROOT,
      // a gateway beside the stack: one replica, Redis only when the bench has it
      env: { ...env, SINGLE_PROCESS: '1', GATEWAY_PORT: String(port), GATEWAY_SHARE_INFLIGHT: mode === 'on' ? '1' : '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return { mode, child, url: `http://127.0.0.1:${port}/graphql`, ready: waitUntilUp(`http://127.0.0.1:${port}/health/ready`, child, `the gateway with sharing ${mode}`) };
  });
  const stockReady = new Promise<void>((ok, fail) => {
    stock.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && ok());
    stock.once('exit', (c) => fail(new Error(`stock gateway exited (${c})`)));
  });

  // ---------------------------------------------------------------- scenarios
  // every scenario but the cached ones bypasses the gateway's response cache, as before it existed
  const gql = async (url: string, headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}, cache = false) => {
    const r = await postJson(url, cache ? headers : { ...headers, 'cache-control': 'no-store' }, JSON.stringify({ query, variables }));
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.text.slice(0, 300)}`);
    const body = JSON.parse(r.text) as { errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  };
  // bound to the subgraph and the exact body (lib/tenant.ts): signed per call
  const signed = (audience: string, query: string) => ({ 'content-type': 'application/json', [TENANT_HEADER]: signTenantContext(tenant, env.INTERNAL_SECRET!, { audience, body: JSON.stringify({ query, variables: {} }) }) });
  const SINGLE = '{ products(pageSize: 20) { total items { id name sku status price { amount currency formatted } } } }';
  const FED = '{ currentApp { id name products { id name } } }';
  // the same query as a registered operation of the main app (README "Registered operations"): sent by id, the gateway runs the registered document
  const FED_ID = createHash('sha256').update(FED).digest('hex');
  if (!only || only.includes('fed-registered')) await main.post(`/accounts/${main.accountUrlId}/apps/${appId}/operations`, main.platformHeaders, 'operation_manifests', { manifest: { [FED_ID]: FED } });
  const byId = async (url: string, headers: Record<string, string>, id: string) => {
    const r = await postJson(url, { ...headers, 'cache-control': 'no-store' }, JSON.stringify({ documentId: id }));
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.text.slice(0, 300)}`);
    const body = JSON.parse(r.text) as { errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  };
  const list = loadOperations().get('ListProducts')!;
  const listVars = { page: 1, pageSize: 20, withVariants: false, withCategories: false, withImages: false };

  /** What one stretch of `fn` from 16 clients gave: latencies, failures, wall time and the stack's busy CPU. */
  interface Measured {
    samples: number[];
    errors: number;
    lastError: string;
    wall: number;
    busy: number;
    /** CPU of this process (the node client), ms */
    client: number;
  }
  /** processes that use none of the stack (the bare server): their own CPU only, no idle rate subtracted */
  const standalone = new Set<number>();
  /** processes measured together: the gateway replicas, under the first one's pid */
  const groups = new Map<number, number[]>();
  const ownCpu = (pid: number) => (groups.get(pid) ?? [pid]).reduce((sum, p) => sum + cpuMs(p), 0);
  const cpuOf = (pid: number) => ownCpu(pid) + (pid === stack.pid || standalone.has(pid) ? 0 : cpuMs(stack.pid!));
  const idleOf = (pid: number) => (standalone.has(pid) ? 0 : idleRate);
  const warmUp = async (fn: (i: number) => Promise<unknown>) => {
    const warm = performance.now();
    let w = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() - warm < 700) await fn(w++).catch(() => undefined);
    }));
  };
  const measure = async (fn: (i: number) => Promise<unknown>, seconds: number, pid: number, into?: Measured): Promise<Measured> => {
    const m = into ?? { samples: [], errors: 0, lastError: '', wall: 0, busy: 0, client: 0 };
    let i = m.samples.length + m.errors;
    const cpu0 = cpuOf(pid);
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() - t0 < seconds * 1000) {
        const t = performance.now();
        try {
          await fn(i++);
          m.samples.push(performance.now() - t);
        } catch (e) {
          // a failure (e.g. a timeout on a saturated machine) is counted and shown, not fatal
          m.errors++;
          m.lastError = (e as Error).message.slice(0, 160);
        }
      }
    }));
    const wall = performance.now() - t0;
    const client = process.cpuUsage(client0);
    m.client += (client.user + client.system) / 1000;
    m.wall += wall;
    // less what the processes burn when idle (job pollers), measured before the scenarios
    m.busy += cpuOf(pid) - cpu0 - idleOf(pid) * wall;
    return m;
  };
  const report = (id: string, label: string, m: Measured): Stats | undefined => {
    if (!m.samples.length) {
      console.log(`${label}: every request failed (${m.errors}; last: ${m.lastError})`);
      return undefined;
    }
    const cpu = Math.max(0, m.busy) / m.samples.length;
    const st = summarize(m.samples, m.wall);
    results.push({ id, label, st, cpu, errors: m.errors });
    console.log(`${fmt(label, st)}  cpu ${cpu.toFixed(2)} ms/req (client ${(m.client / m.samples.length).toFixed(2)})${m.errors ? `  ${m.errors} errors (last: ${m.lastError})` : ''}`);
    return st;
  };

  /** `fn` from 16 clients for SECONDS (after a short warm-up), with the stack's CPU per request. */
  const results: ScenarioResult[] = [];
  const run = async (id: string, label: string, fn: (i: number) => Promise<unknown>, pid = stack.pid!): Promise<Stats | undefined> => {
    if (only && !only.includes(id)) return undefined;
    await warmUp(fn);
    return report(id, label, await measure(fn, SECONDS, pid));
  };
  /** each pair's per-round ratios, printed with the ratios */
  const pairRounds: string[] = [];
  /**
   * Two scenarios whose ratio is a target, measured in alternating rounds (A B A B …, SECONDS / 2
   * a round, so twice SECONDS each in all): a drift of the machine (another process, a slow minute of the host) falls on both alike
   * instead of on whichever ran second.
   */
  const runPair = async (a: { id: string; label: string; fn: (i: number) => Promise<unknown> }, b: { id: string; label: string; fn: (i: number) => Promise<unknown> }) => {
    const runA = !only || only.includes(a.id);
    const runB = !only || only.includes(b.id);
    if (runA) await warmUp(a.fn);
    if (runB) await warmUp(b.fn);
    let ma: Measured | undefined;
    let mb: Measured | undefined;
    /** A's requests per second over B's, round by round: how far the machine moves the pooled ratio */
    const perRound: number[] = [];
    /** the rate of `m`'s last round: what it measured since `was` (its counts before the round) */
    const roundRate = (m: Measured, was?: { n: number; wall: number }) => (m.samples.length - (was?.n ?? 0)) / (m.wall - (was?.wall ?? 0));
    for (let r = 0; r < ROUNDS; r++) {
      const was = { a: ma && { n: ma.samples.length, wall: ma.wall }, b: mb && { n: mb.samples.length, wall: mb.wall } };
      if (runA) ma = await measure(a.fn, SECONDS / 2, stack.pid!, ma);
      if (runB) mb = await measure(b.fn, SECONDS / 2, stack.pid!, mb);
      if (ma && mb) perRound.push(roundRate(ma, was.a) / roundRate(mb, was.b));
    }
    if (ma) report(a.id, `${a.label}${runB ? ` (${ROUNDS} rounds, alternating)` : ''}`, ma);
    if (mb) report(b.id, `${b.label}${runA ? ` (${ROUNDS} rounds, alternating)` : ''}`, mb);
    if (perRound.length) {
      const sorted = [...perRound].sort((x, y) => x - y);
      const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
      pairRounds.push(`${a.id} / ${b.id} by round: ${perRound.map((x) => x.toFixed(2)).join(' ')} (median ${median.toFixed(2)})`);
    }
  };

  /** hits counted by the gateway's metrics (gateway_response_cache_total{result="hit"}) */
  const cacheHits = async () => {
    const r = await requestJson('GET', `http://127.0.0.1:${base}/metrics`, {});
    return Number(/^gateway_response_cache_total\{result="hit"\} (\d+)/m.exec(r.text)?.[1] ?? 0);
  };
  /** a local redis-server's pid (its CPU per request is printed beside the stack's: a hit's Redis commands run on the same cores), when one is visible in /proc */
  const redisPid = (() => {
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'redis-server') return Number(d);
      } catch {
        /* exited */
      }
    }
    return undefined;
  })();
  const runWith = async (id: string, label: string, url: string, request: { body: string; headers: Record<string, string> }, pid: number, check?: () => Promise<number>) => {
    if (only && !only.includes(id)) return;
    await runWrk({ ...request, url, seconds: 1, connections: CONCURRENCY });
    const hits0 = check ? await check() : 0;
    const cpu0 = cpuOf(pid);
    const redis0 = redisPid ? cpuMs(redisPid, false) : 0;
    const t0 = performance.now();
    const w = await runWrk({ ...request, url, seconds: SECONDS, connections: CONCURRENCY });
    const wall = performance.now() - t0;
    const cpu = Math.max(0, cpuOf(pid) - cpu0 - idleOf(pid) * wall) / Math.max(1, w.st.n);
    const redis = redisPid ? `, redis ${((cpuMs(redisPid, false) - redis0) / Math.max(1, w.st.n)).toFixed(3)}` : '';
    const errors = w.non2xx + w.socketErrors;
    const hits = check ? `, ${(((await check()) - hits0) / Math.max(1, w.st.n) * 100).toFixed(1)} % of them cache hits` : '';
    results.push({ id, label, st: w.st, cpu, errors });
    console.log(`${fmt(label, w.st)}  cpu ${cpu.toFixed(2)} ms/req (wrk ${w.clientCpu.toFixed(3)}${redis})${errors ? `  ${errors} errors (non-2xx ${w.non2xx}, socket ${w.socketErrors})` : ''}  (p95 column: wrk's p90${hits})`);
  };
  /**
   * The production topology: gateway replicas. Two gateway processes (gateway/main.ts) on the stack's
   * subgraphs share one port (GATEWAY_REUSE_PORT: SO_REUSEPORT, the kernel spreads the 16 connections
   * over them) and one Redis (rate limits, cost budgets, the cache's write epochs: the cache stays
   * exact across them, test/e2e/response-cache.redis.test.ts). CPU: both replicas and the stack.
   */
  async function runReplicas(request: { body: string; headers: Record<string, string> }): Promise<void> {
    if (!process.env.REDIS_URL) return void console.log('# fed-cached-replicas: skipped, replicas need REDIS_URL');
    const port = base + 94;
    const replicas = [0, 1].map(() => {
      const child = spawn(process.execPath, [...NODE_FLAGS, ...entry('gateway/main.ts')], { cwd: ROOT, env: { ...env, GATEWAY_PORT: String(port), GATEWAY_REUSE_PORT: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      return child;
    });
    await Promise.all(replicas.map((child, i) => new Promise<void>((ok, fail) => {
      child.stdout!.on('data', (b: Buffer) => b.toString().includes('gateway ready') && ok());
      child.once('exit', (c) => fail(new Error(`gateway replica ${i} exited (${c})`)));
    })));
    groups.set(replicas[0]!.pid!, replicas.map((c) => c.pid!));
    const url = `http://127.0.0.1:${port}/graphql`;
    await run('fed-cached-replicas', 'the same hit, 2 gateway replicas on one port', () => gql(url, request.headers, FED, {}, true), replicas[0]!.pid);
    await runWith('fed-cached-replicas-wrk', 'the same hit, 2 gateway replicas on one port, wrk', url, request, replicas[0]!.pid!);
  }
  async function runCachedWithWrk(): Promise<void> {
    const wanted = ['fed-cached-wrk', 'fed-cached-replicas', 'fed-cached-replicas-wrk', 'ceiling', 'ceiling-wrk'].filter((id) => !only || only.includes(id));
    if (!wanted.length) return;
    if (!(await hasWrk())) return void console.log(`# ${wanted.join(', ')}: skipped, wrk is not installed (apt-get install wrk)`);
    const request = { body: JSON.stringify({ query: FED, variables: {} }), headers: cached.keys[0]! };
    await postJson(gatewayUrl, request.headers, request.body); // fills the entry when the node client's scenario did not run
    const sample = await postJson(gatewayUrl, request.headers, request.body);
    if (sample.status !== 200 || sample.headers['x-response-cache'] !== 'hit') throw new Error(`the cached query was not a hit: ${sample.status} ${String(sample.headers['x-response-cache'])}`);
    await runWith('fed-cached-wrk', 'federated query via gateway, response cache hit, wrk', gatewayUrl, request, stack.pid!, cacheHits);
    if (wanted.some((id) => id.startsWith('fed-cached-replicas'))) await runReplicas({ ...request, headers: cachedReplicas.keys[0]! });
    if (!wanted.some((id) => id.startsWith('ceiling'))) return;
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'cache-control', 'age', 'x-response-cache', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-cost-requested', 'x-cost-limit', 'x-cost-remaining', 'x-cost-reset']) if (typeof sample.headers[h] === 'string') headers[h] = sample.headers[h];
    const port = base + 93;
    const bare = spawn(process.execPath, [...LOADER, resolve(ROOT, 'bench', 'bare-server.ts')], { cwd: ROOT, env: { ...process.env, BARE_PORT: String(port), BARE_BODY: sample.text, BARE_HEADERS: JSON.stringify(headers) }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(bare);
    standalone.add(bare.pid!);
    await new Promise<void>((ok, fail) => {
      bare.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && ok());
      bare.once('exit', (c) => fail(new Error(`bare server exited (${c})`)));
    });
    const bareUrl = `http://127.0.0.1:${port}/graphql`;
    await run('ceiling', 'ceiling: bare node:http, the same bytes', () => gql(bareUrl, request.headers, FED, {}, true), bare.pid);
    await runWith('ceiling-wrk', 'ceiling: bare node:http, the same bytes, wrk', bareUrl, request, bare.pid!);
  }

  let idleRate = 0;
  if (profileDir) stack.kill('SIGUSR2');
  console.log(`# bench/throughput.bench.ts  ${new Date().toISOString()}  node ${process.version}  build=${build}  processes=${processes || 'default'}`);
  console.log(`# ${cpus().length} cores, load average before the run ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine skews the figures)`);
  console.log(`# ${CONCURRENCY} concurrent clients, ${SECONDS} s a scenario; cpu = CPU of the stack's processes per request`);
  // every process is up before any measurement: a start-up's CPU would fall on the first scenarios
  await Promise.all([stockReady, ...sharing.map((g) => g.ready)]);
  const idle0 = cpuMs(stack.pid!) + cpuMs(stock.pid!);
  const idleT = performance.now();
  await new Promise((r) => setTimeout(r, 3000));
  idleRate = (cpuMs(stack.pid!) + cpuMs(stock.pid!) - idle0) / (performance.now() - idleT);
  console.log(`# idle CPU of the stack and stock gateway: ${(idleRate * 100).toFixed(1)} % of a core (subtracted below)`);
  await run('direct', 'single-subgraph query, direct to catalog', () => gql(subgraphUrls.catalog, signed('catalog', SINGLE), SINGLE));
  await run('single', 'single-subgraph query via gateway', () => gql(gatewayUrl, kh, SINGLE));
  await run('single-stock', 'single-subgraph query via stock @apollo/gateway', () => gql(stockUrl, { 'content-type': 'application/json' }, SINGLE), stock.pid);
  await run('fed', 'federated query via gateway', () => gql(gatewayUrl, kh, FED));
  // the same query sent as a registered operation's id (uncached): the gateway neither parses nor validates it
  await run('fed-registered', 'federated query via gateway, registered operation id', () => byId(gatewayUrl, kh, FED_ID));
  // the same query answered from the gateway's response cache: no planning, no subgraph fetch
  await run('fed-cached', 'federated query via gateway, response cache hit', () => gql(gatewayUrl, cached.keys[0]!, FED, {}, true));
  // The same hit from wrk (bench/wrk.ts: C, one thread), which spends a small part of the CPU the
  // node client above does; and the ceiling: a bare node:http server answering the hit's bytes
  // (bench/bare-server.ts), from the node client and from wrk.
  await runCachedWithWrk();
  await run('fed-stock', 'federated query via stock @apollo/gateway', () => gql(stockUrl, { 'content-type': 'application/json' }, FED), stock.pid);
  await run('rest-gw', 'same operation (ListProducts) via gateway', () => gql(gatewayUrl, kh, list.source, listVars));
  // the same 80 keys in both: a tenant context per key, so nothing is shared in flight
  await runPair(
    {
      id: 'rest',
      label: 'GET /v1/products?page[size]=20 via REST bridge',
      fn: async (i) => {
        const r = await requestJson('GET', `${rest}/v1/products?page[size]=20`, restKeys[i % restKeys.length]);
        if (r.status !== 200) throw new Error(`REST ${r.status} ${r.text.slice(0, 300)}`);
        JSON.parse(r.text);
      },
    },
    { id: 'rest-gw-keys', label: 'same operation via gateway, the REST keys', fn: (i) => gql(gatewayUrl, restKeys[i % restKeys.length]!, list.source, listVars) },
  );
  // In-flight sharing: 16 clients sending one query vs 16 clients each sending its own page size
  // (20-35: every one reads all 20 products, so distinct queries cost what the identical one does).
  const PAGE = 'query($n: Int!) { products(page: 1, pageSize: $n) { total items { id name sku status price { amount currency formatted } } } }';
  await run('same', '16 identical queries in flight, gateway', () => gql(gatewayUrl, flightKey, PAGE, { n: 20 }));
  await run('same-stock', '16 identical queries in flight, stock gateway', () => gql(stockUrl, { 'content-type': 'application/json' }, PAGE, { n: 20 }), stock.pid);
  await run('distinct', '16 distinct queries in flight, gateway', (i) => gql(gatewayUrl, flightKey, PAGE, { n: 20 + (i % 16) }));
  await run('distinct-stock', '16 distinct queries in flight, stock gateway', (i) => gql(stockUrl, { 'content-type': 'application/json' }, PAGE, { n: 20 + (i % 16) }), stock.pid);

  for (const g of sharing) {
    await run(`same-${g.mode}`, `16 identical queries in flight, gateway alone, sharing ${g.mode}`, () => gql(g.url, aloneKey, PAGE, { n: 20 }), g.child.pid);
    await run(`distinct-${g.mode}`, `16 distinct queries in flight, gateway alone, sharing ${g.mode}`, (i) => gql(g.url, aloneKey, PAGE, { n: 20 + (i % 16) }), g.child.pid);
  }

  const by = (id: string) => results.find((r) => r.id === id);
  const ratio = (a: string, b: string, what: string) => {
    const x = by(a);
    const y = by(b);
    if (x && y) console.log(`  ${what}: ${(x.st.rps / y.st.rps).toFixed(2)}×`);
  };
  console.log('# ratios (req/s)');
  ratio('single', 'single-stock', 'single-subgraph, ours / stock @apollo/gateway');
  ratio('fed', 'fed-stock', 'federated, ours / stock @apollo/gateway');
  ratio('fed-registered', 'fed', 'federated, registered operation id / document (both uncached)');
  ratio('fed-cached', 'fed', 'federated, response cache hit / uncached');
  ratio('rest', 'rest-gw', 'REST bridge / gateway, same operation');
  ratio('rest', 'rest-gw-keys', 'REST bridge / gateway, same operation and keys');
  for (const line of pairRounds) console.log(`  ${line}`);
  ratio('same', 'distinct', 'identical / distinct in flight (ours)');
  ratio('same-stock', 'distinct-stock', 'identical / distinct in flight (stock)');
  ratio('same-on', 'same-off', 'identical in flight, sharing on / off (gateway alone)');
  ratio('distinct-on', 'distinct-off', 'distinct in flight, sharing on / off (gateway alone)');
  printTargets(results, CONCURRENCY);
  console.log(`# processes: start → ready ${startSeconds.toFixed(1)} s, RSS ${treeRss(stack.pid!).toFixed(0)} MiB (stack, ${processTree(stack.pid!).length} processes); stock gateway RSS ${treeRss(stock.pid!).toFixed(0)} MiB`);
} finally {
  await stopAll();
}
// the profile is written as the stack stops
if (profileDir) printProfileBeforeAfter(profileDir, only ? `scenarios ${only.join(', ')}` : 'every scenario');
process.exit(0);
