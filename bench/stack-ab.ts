// npm run bench:stack-ab: A/B of two source trees' whole stacks in one process each (`npm start`'s
// default), the way bench:throughput's "single-subgraph query via gateway" runs them, alternating
// (A B, B A, …) so that the machine's drift falls on both alike. Both stacks run side by side from
// the start, each on its own port block and scratch database; wrk drives one at a time with 16
// connections, and each round prints the stack's CPU per request (its process tree from /proc:
// with the embedded PostgreSQL, its server processes too), less what the stack burns idle. A
// figure after a few seconds of load (AB_WARMUP), not from a cold process: bench:throughput's
// 4-second scenario after 0.7 s of warm-up measures mostly the JIT's warm-up on this path.
// bench:gateway-ab measures a gateway process alone; this measures what the one-process stack adds.
//
// Env: AB_TREES (two checkout paths, comma-separated, each built with `npm run build`; default this
// tree twice), AB_ROUNDS (6), AB_SECONDS (4), AB_WARMUP (3: seconds of load on each stack before
// anything is measured, and 1 s before each round; 0: none, to see the warm-up), AB_CLIENT=node (16
// requests at a time from this process over keep-alive node:http, bench:throughput's client, instead
// of wrk, which leaves the stack more of the second core), AB_QUERY (default bench:throughput's
// single-subgraph query), AB_ENV_A / AB_ENV_B (JSON objects of extra environment variables for one
// stack: what a switch changes), AB_NODE_FLAGS (the stacks' node options; default npm start's),
// AB_STDOUT=<path prefix> (each stack's standard output to <prefix>-A.log / -B.log, for
// --trace-deopt and the like), BENCH_PORT_BASE (31000; the second stack at +400), DATABASE_URL
// (scratch databases on that server; else each stack its embedded PostgreSQL), REDIS_URL (rate
// limits, cost budgets and usage counts in Redis, as in production).
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { postJson } from '../lib/http-client.js';
import { nodeFlags } from '../scripts/node-flags.js';
import { abSettings, benchStackEnv, benchTenant, processTree, scratchDatabase, stopChildren, waitUntilUp, type BenchTenant } from './harness.js';
import { spread, summarize } from './stats.js';
import { runWrk } from './wrk.js';

const { root: ROOT, base, seconds: SECONDS, rounds: ROUNDS, trees, names } = abSettings(31000);
const QUERY = process.env.AB_QUERY ?? '{ products(pageSize: 20) { total items { id name sku status price { amount currency formatted } } } }';
const FLAGS = nodeFlags(ROOT);
const children: ChildProcess[] = [];
const scratches: { drop(): Promise<void> }[] = [];

/**
 * CPU ms of the process tree under `pid`, with what its exited children spent (cutime + cstime, once
 * reaped): an embedded PostgreSQL's backends and autovacuum workers come and go during a round, and
 * a tree's live processes alone would lose an exited one's CPU (a round could then read negative).
 */
function cpuMs(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      /* exited */
    }
  }
  return ticks * 10; // USER_HZ = 100
}

interface Stack {
  pid: number;
  url: string;
  tenants: BenchTenant[];
  /** CPU ms a ms the stack burns with no request (job pollers) */
  idle: number;
}

async function startStack(tree: string, i: number): Promise<Stack> {
  const port = base + 400 * i;
  const scratch = await scratchDatabase(`stack_ab_${i}`);
  scratches.push(scratch);
  const extra = JSON.parse(process.env[`AB_ENV_${names[i]}`] ?? '{}') as Record<string, string>;
  const env = benchStackEnv(`stack-ab-${i}`, port, scratch.url, { NODE_ENV: 'production', RESPONSE_CACHE_MAX_BYTES: String(64 * 1024 * 1024), ...extra });
  const flags = process.env.AB_NODE_FLAGS ? process.env.AB_NODE_FLAGS.split(' ').filter(Boolean) : FLAGS;
  const out = process.env.AB_STDOUT ? openSync(`${process.env.AB_STDOUT}-${names[i]}.log`, 'w') : 'ignore';
  const child = spawn(process.execPath, [...flags, resolve(tree, 'dist/scripts/start-all.js')], { cwd: tree, env, stdio: ['ignore', out, 'inherit'] });
  children.push(child);
  const rest = `http://127.0.0.1:${port + 80}`;
  await waitUntilUp(`${rest}/health/ready`, child, `the stack of ${tree}`);
  await waitUntilUp(`http://127.0.0.1:${port}/health/ready`, child, `the gateway of ${tree}`);
  // an app allows 100,000 requests a minute: two apps, taken in turn by round
  const tenants = await Promise.all([0, 1].map((t) => benchTenant(rest, env.JWT_SECRET!, `sab${i}${t}`, 1)));
  for (const t of tenants) {
    for (let p = 0; p < 20; p++) await t.post('/v1/products', t.keys[0]!, 'products', { name: `Product ${p}`, sku: `SKU-${p}`, description: `The ${p}th product`, price: { amount: 100 * p + 99, currency: 'USD' } });
  }
  return { pid: child.pid!, url: `http://127.0.0.1:${port}/graphql`, tenants, idle: 0 };
}

try {
  const stacks = await Promise.all(trees.map((t, i) => startStack(t, i)));
  const body = JSON.stringify({ query: QUERY, variables: {} });
  const headersOf = (s: Stack, round: number) => ({ ...s.tenants[round % 2]!.keys[0]!, 'content-type': 'application/json', 'cache-control': 'no-store' });
  for (const s of stacks) {
    const r = await postJson(s.url, headersOf(s, 0), body);
    if (r.status !== 200 || r.text.includes('"errors"')) throw new Error(`${s.url}: ${r.status} ${r.text.slice(0, 300)}`);
  }
  /** 16 clients sending `body` for `seconds`, as wrk's result (requests and requests/s) */
  const load = async (url: string, headers: Record<string, string>, seconds: number) => {
    if (process.env.AB_CLIENT !== 'node') return runWrk({ url, body, headers, seconds, connections: 16 });
    const samples: number[] = [];
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (performance.now() - t0 < seconds * 1000) {
        const t = performance.now();
        const r = await postJson(url, headers, body);
        if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.text.slice(0, 200)}`);
        JSON.parse(r.text);
        samples.push(performance.now() - t);
      }
    }));
    return { st: summarize(samples, performance.now() - t0), non2xx: 0 };
  };
  // the first seconds of a stack run colder code (JIT): each warmed up before anything is measured
  const warmup = Number(process.env.AB_WARMUP ?? 3);
  if (warmup > 0) for (const s of stacks) await load(s.url, headersOf(s, 1), warmup);
  // what each stack burns with no request, measured together over 3 s
  const idle0 = stacks.map((s) => cpuMs(s.pid));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 3000));
  for (const [i, s] of stacks.entries()) s.idle = (cpuMs(s.pid) - idle0[i]!) / (performance.now() - t0);
  console.log(`# bench/stack-ab.ts: A ${trees[0]}, B ${trees[1]}; ${ROUNDS} rounds of ${SECONDS} s, 16 connections (${process.env.AB_CLIENT === 'node' ? 'node:http' : 'wrk'}); idle ${stacks.map((s, i) => `${names[i]} ${(s.idle * 100).toFixed(1)} %`).join(', ')} of a core`);
  const cpu: number[][] = [[], []];
  const rps: number[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    for (const g of round % 2 ? [1, 0] : [0, 1]) {
      const s = stacks[g]!;
      const headers = headersOf(s, round);
      if (warmup > 0) await load(s.url, headers, 1);
      const c0 = cpuMs(s.pid);
      const w0 = performance.now();
      const w = await load(s.url, headers, SECONDS);
      const busy = cpuMs(s.pid) - c0 - s.idle * (performance.now() - w0);
      const perRequest = busy / Math.max(1, w.st.n);
      cpu[g]!.push(perRequest);
      rps[g]!.push(w.st.rps);
      console.log(`round ${round} ${names[g]}  ${w.st.rps.toFixed(0).padStart(6)} req/s  stack cpu ${(perRequest * 1000).toFixed(0)} µs/req  non-2xx ${w.non2xx}  load ${loadavg()[0]!.toFixed(1)}`);
    }
  }
  for (const g of [0, 1]) console.log(`${names[g]}: stack cpu µs/req ${spread(cpu[g]!.map((x) => x * 1000), 0)}; req/s ${spread(rps[g]!, 0)}`);
} finally {
  await stopChildren(children);
  for (const s of scratches) await s.drop();
}
