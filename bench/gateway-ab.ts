// A/B of two source trees' gateways on one stack, alternating, for before/after figures that hold on
// a shared machine: one stack (the first tree's dist/, its subgraphs and REST bridge), and one
// standalone gateway process per tree (`dist/gateway/main.js`) on that stack's subgraphs and the
// same Redis; wrk drives them in turn (A B, B A, …) and each line prints the gateway process's own
// CPU per request (/proc), which moves far less with the machine's load than requests/s do.
//
// Env: AB_TREES (two checkout paths, comma-separated, each built with `npm run build`; default this
// tree twice), AB_SCENARIO=hit (the light federated query from the response cache) | single (a
// single-subgraph query, Cache-Control: no-store), AB_ROUNDS (6), AB_SECONDS (4), AB_PROF=<dir>
// (a CPU profile of the second tree's gateway), BENCH_PORT_BASE (30500), DATABASE_URL (a scratch
// database on that server), REDIS_URL (rate limits, budgets and cache epochs shared as in production).
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { postJson } from '../lib/http-client.js';
import { nodeFlags } from '../scripts/node-flags.js';
import { abSettings, benchStackEnv, benchTenant, cpuMs, scratchDatabase, stopChildren, waitUntilUp } from './harness.js';
import { runWrk } from './wrk.js';
import { spread } from './stats.js';

const { root: ROOT, base, seconds: SECONDS, rounds: ROUNDS, trees, names } = abSettings(30500);
const scenario = process.env.AB_SCENARIO ?? 'hit';
const FLAGS = nodeFlags(ROOT);

const scratch = await scratchDatabase('gateway_ab');
const env = benchStackEnv('gateway-ab', base, scratch.url, { NODE_ENV: 'production', RESPONSE_CACHE_MAX_BYTES: String(64 * 1024 * 1024) });
const children: ChildProcess[] = [];
const stack = spawn(process.execPath, [...FLAGS, resolve(trees[0]!, 'dist/scripts/start-all.js')], { cwd: trees[0], env, stdio: ['ignore', 'ignore', 'inherit'] });
children.push(stack);
const stopAll = async () => {
  await stopChildren(children);
  await scratch.drop();
};

try {
  const rest = `http://127.0.0.1:${base + 80}`;
  await waitUntilUp(`${rest}/health/ready`, stack);
  await waitUntilUp(`http://127.0.0.1:${base}/health/ready`, stack, "the stack's gateway");
  // an app allows 100,000 requests a minute: two apps per gateway, taken in turn by round
  const tenants = await Promise.all([0, 1, 2, 3].map((i) => benchTenant(rest, env.JWT_SECRET!, `ab${i}`, 1)));
  await Promise.all(tenants.map(async (t) => {
    for (let i = 0; i < 5; i++) await t.post('/v1/products', t.keys[0]!, 'products', { name: `Product ${i}`, sku: `SKU-${i}`, description: `The ${i}th product`, price: { amount: 100 * i + 99, currency: 'USD' } });
  }));
  const gateways = await Promise.all(trees.map(async (dir, i) => {
    const port = base + 70 + i;
    const prof = process.env.AB_PROF && i === 1 ? ['--cpu-prof', `--cpu-prof-dir=${process.env.AB_PROF}`] : [];
    const child = spawn(process.execPath, [...FLAGS, ...prof, resolve(dir, 'dist/gateway/main.js')], { cwd: dir, env: { ...env, GATEWAY_PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await new Promise<void>((ok, fail) => {
      child.stdout!.on('data', (b: Buffer) => b.toString().includes('gateway ready') && ok());
      child.once('exit', (c) => fail(new Error(`gateway of ${dir} exited (${c})`)));
    });
    return { pid: child.pid!, url: `http://127.0.0.1:${port}/graphql` };
  }));
  const query = scenario === 'hit' ? '{ products(pageSize: 5) { items { id name price { formatted } } } }' : '{ products(pageSize: 5) { total items { name } } }';
  const body = JSON.stringify({ query, variables: {} });
  const headersOf = (g: number, round: number) => ({ ...tenants[2 * g + (round % 2)]!.keys[0]!, 'content-type': 'application/json', ...(scenario === 'hit' ? {} : { 'cache-control': 'no-store' }) });
  for (const [g, gw] of gateways.entries()) {
    for (const round of [0, 1]) {
      await postJson(gw.url, headersOf(g, round), body);
      const s = await postJson(gw.url, headersOf(g, round), body);
      if (s.status !== 200 || (scenario === 'hit' && s.headers['x-response-cache'] !== 'hit')) throw new Error(`gateway ${names[g]}: ${s.status} ${String(s.headers['x-response-cache'])} ${s.text.slice(0, 200)}`);
    }
  }
  const cpu: number[][] = [[], []];
  const rps: number[][] = [[], []];
  console.log(`# bench/gateway-ab.ts ${scenario}: A ${trees[0]}, B ${trees[1]}; ${ROUNDS} rounds of ${SECONDS} s, 16 connections (wrk)`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const g of round % 2 ? [1, 0] : [0, 1]) {
      const gw = gateways[g]!;
      const headers = headersOf(g, round);
      await runWrk({ url: gw.url, body, headers, seconds: 1, connections: 16 });
      const c0 = cpuMs(gw.pid, false);
      const w = await runWrk({ url: gw.url, body, headers, seconds: SECONDS, connections: 16 });
      const perRequest = (cpuMs(gw.pid, false) - c0) / Math.max(1, w.st.n);
      cpu[g]!.push(perRequest);
      rps[g]!.push(w.st.rps);
      console.log(`round ${round} ${names[g]}  ${w.st.rps.toFixed(0).padStart(6)} req/s  gateway cpu ${(perRequest * 1000).toFixed(1)} µs/req  non-2xx ${w.non2xx}  load ${loadavg()[0]!.toFixed(1)}`);
    }
  }
  for (const g of [0, 1]) console.log(`${names[g]}: gateway cpu µs/req ${spread(cpu[g]!.map((x) => x * 1000), 1)}; req/s ${spread(rps[g]!, 0)}`);
} finally {
  await stopAll();
}
