// npm run bench:soak: the stack under a steady mixed load for a while (issue 13 item 5), bounded and
// local. `npm start` (the TypeScript loader, one process per service with START_PROCESSES=split when
// REDIS_URL is set, else one process) on a scratch database; this process sends, at a fixed rate
// (open loop: a slow answer does not slow the schedule), a cycle of REST and GraphQL reads, writes
// (products created, search documents upserted over a fixed set of ids so the index stays the same
// size), searches, and keeps WebSocket subscriptions open (some re-opened every minute) that receive
// the product events of the writes. Every minute it prints the requests, the error rate (non-2xx or
// GraphQL errors, and requests still unanswered after 10 s), p50/p99, the subscription events
// received, the RSS of every process of the stack and the load average; at the end the RSS of each
// process in the last minute against the second (after warm-up).
//
// Env: BENCH_SECONDS (600), BENCH_RATE requests/s (20), BENCH_PORT_BASE (22800),
// BENCH_PROCESSES=one|split (split when REDIS_URL is set). Uses DATABASE_URL (a scratch database) when set.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { requestJson } from '../lib/http-client.js';
import { benchStackEnv, benchTenant, processTree, scratchDatabase, waitUntilUp } from './harness.js';

const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 22800);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const TIMEOUT_MS = 10_000;
const SUBSCRIBERS = 4;
const MAX_IN_FLIGHT = 400;
const processes = process.env.BENCH_PROCESSES ?? (process.env.REDIS_URL ? 'split' : 'one');

const scratch = await scratchDatabase('soak');
const env = benchStackEnv('soak', base, scratch.url, {
  REDIS_URL: process.env.REDIS_URL ?? '',
  REDIS_KEY_PREFIX: `soak_${process.pid}:`,
  START_PROCESSES: processes,
});
const rest = `http://127.0.0.1:${base + 80}`;
const gateway = `http://127.0.0.1:${base}/graphql`;


/** RSS (MiB) of each node process of the stack, named after its entry point. */
function rssByProcess(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of processTree(pid)) {
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      const script = cmd.find((a) => /\.(ts|js)$/.test(a) && !a.includes('node_modules'));
      if (!script) continue; // npm, sh
      const name = script.replace(/^.*\/(subgraphs\/|gateway\/|rest-bridge\/|scripts\/)/, '$1').replace(/\/main\.(ts|js)$|\.(ts|js)$/, '');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      out.set(name, kb / 1024);
    } catch {
      /* exited */
    }
  }
  return out;
}


const stack = spawn(process.execPath, ['--import', '@swc-node/register/esm-register', resolve(ROOT, 'scripts', 'start-all.ts')], {
  cwd: ROOT,
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const clients: Client[] = [];
const stopAll = async () => {
  for (const c of clients) await c.dispose();
  if (stack.exitCode === null) {
    const exited = new Promise((r) => stack.once('exit', r));
    stack.kill('SIGTERM');
    await exited;
  }
  await scratch.drop();
};
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  await waitUntilUp(`${rest}/health/ready`, stack);
  await waitUntilUp(`http://127.0.0.1:${base}/health/ready`, stack);

  // ---------------------------------------------------------------- a tenant, keys, an index
  // REST paths have per-key limits per minute: the load is spread over keys of one app
  const { keys, post } = await benchTenant(rest, env.JWT_SECRET!, 'soak', 12);
  const key = (i: number) => keys[i % keys.length]!;
  for (let i = 0; i < 20; i++) await post('/v1/products', key(i), 'products', { name: `Seed ${i}`, sku: `SEED-${i}`, price: { amount: 100 * i + 99, currency: 'USD' } });
  await post('/search/v1/indexes', key(0), 'indexes', { uid: 'soak', primary_key: 'id' });
  const doc = (i: number) => ({ id: `d${i % 500}`, title: `Lamp number ${i % 500}`, body: `a ${['red', 'blue', 'green', 'brass'][i % 4]} lamp, model ${i % 97}` });
  await post('/search/v1/indexes/soak/documents', key(0), 'documents', { documents: Array.from({ length: 500 }, (_, i) => doc(i)) });

  // ---------------------------------------------------------------- subscriptions
  let events = 0;
  const openSubscriber = () => {
    const c = createClient({ url: gateway.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { 'x-app-id': key(0)['x-app-id']!, 'x-api-key': key(0)['x-api-key']! }, retryAttempts: 0 });
    c.subscribe({ query: 'subscription { productEvents { event product { id name } } }' }, { next: () => void events++, error: () => undefined, complete: () => undefined });
    clients.push(c);
    return c;
  };
  for (let i = 0; i < SUBSCRIBERS; i++) openSubscriber();

  // ---------------------------------------------------------------- the mix
  // an operation answers true, or what went wrong (the first few are printed each minute)
  const gql = (i: number, query: string, variables: Record<string, unknown> = {}) =>
    requestJson('POST', gateway, key(i), JSON.stringify({ query, variables })).then((r) => {
      const errors = (JSON.parse(r.text) as { errors?: { extensions?: { code?: string } }[] }).errors;
      return r.status === 200 && !errors ? true : `${r.status} ${errors?.[0]?.extensions?.code ?? ''}`;
    });
  const ok2xx = (p: Promise<{ status: number; text: string }>) => p.then((r) => (r.status >= 200 && r.status < 300 ? true : `${r.status} ${r.text.slice(0, 80)}`));
  const mix: { name: string; run: (i: number) => Promise<true | string> }[] = [
    { name: 'REST read', run: (i) => ok2xx(requestJson('GET', `${rest}/v1/products?page[size]=20`, key(i))) },
    { name: 'GraphQL read', run: (i) => gql(i, '{ products(pageSize: 20) { total items { id name price { formatted } } } }') },
    { name: 'REST search', run: (i) => ok2xx(requestJson('POST', `${rest}/search/v1/indexes/soak/search`, key(i), JSON.stringify({ data: { type: 'search_queries', attributes: { q: ['lamp', 'red', 'brass model', 'blue lamp'][i % 4], limit: 10 } } }))) },
    { name: 'GraphQL read', run: (i) => gql(i, '{ currentApp { id name } indexes { uid numberOfDocuments } }') },
    { name: 'REST write', run: (i) => ok2xx(requestJson('POST', `${rest}/v1/products`, key(i), JSON.stringify({ data: { type: 'products', attributes: { name: `Soak ${i}`, sku: `SOAK-${process.pid}-${i}`, price: { amount: 1000 + (i % 500), currency: 'USD' } } } }))) },
    { name: 'REST read', run: (i) => ok2xx(requestJson('GET', `${rest}/v1/products?page[size]=5&page[number]=2`, key(i))) },
    { name: 'GraphQL write', run: (i) => gql(i, 'mutation($i: CreateProductInput!) { createProduct(input: $i) { id } }', { i: { name: `Soak gql ${i}`, sku: `SOAKG-${process.pid}-${i}` } }) },
    { name: 'REST search write', run: (i) => ok2xx(requestJson('POST', `${rest}/search/v1/indexes/soak/documents`, key(i), JSON.stringify({ data: { type: 'documents', attributes: { documents: [doc(i), doc(i + 1)] } } }))) },
  ];

  interface Minute {
    n: number;
    errors: number;
    lat: number[];
  }
  const minute = (): Minute => ({ n: 0, errors: 0, lat: [] });
  let cur = minute();
  let inFlight = 0;
  let dropped = 0;
  const firstErrors: string[] = [];
  const fire = (i: number) => {
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped++;
      return;
    }
    const op = mix[i % mix.length]!;
    const bucket = cur;
    const t0 = performance.now();
    inFlight++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((r) => (timer = setTimeout(() => r(`no answer within ${TIMEOUT_MS} ms`), TIMEOUT_MS)));
    Promise.race([op.run(i).catch((e: Error) => e.message), timeout])
      .then((ok) => {
        bucket.n++;
        bucket.lat.push(performance.now() - t0);
        if (ok !== true) {
          bucket.errors++;
          if (firstErrors.length < 5) firstErrors.push(`${op.name}: ${ok}`);
        }
      })
      .finally(() => {
        clearTimeout(timer);
        inFlight--;
      });
  };

  const p = (s: number[], q: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0);
  const rows: { rss: Map<string, number> }[] = [];
  console.log(`soak: ${SECONDS} s at ${RATE} req/s (${processes === 'split' ? 'one process per service' : 'one process'}), ${SUBSCRIBERS} subscribers; stack pid ${stack.pid}`);
  const started = performance.now();
  let i = 0;
  let nextMinute = 60_000;
  let minuteNo = 0;
  const report = (last: Minute, seconds: number) => {
    minuteNo++;
    const lat = last.lat.sort((a, b) => a - b);
    const rss = rssByProcess(stack.pid!);
    rows.push({ rss });
    const rssText = [...rss].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
    console.log(
      `min ${String(minuteNo).padStart(2)} (${seconds.toFixed(0)} s): ${last.n} req, errors ${((100 * last.errors) / Math.max(1, last.n)).toFixed(2)} % (${last.errors}), p50 ${p(lat, 0.5).toFixed(1)} ms, p99 ${p(lat, 0.99).toFixed(1)} ms, events ${events}, in flight ${inFlight}, dropped ${dropped}; RSS MiB: ${rssText}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
    if (firstErrors.length) console.log(`  first errors: ${firstErrors.splice(0).join(' | ')}`);
    events = 0;
  };
  while (performance.now() - started < SECONDS * 1000) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    fire(i++);
    const elapsed = performance.now() - started;
    if (elapsed >= nextMinute) {
      const last = cur;
      cur = minute();
      nextMinute += 60_000;
      // churn: one subscriber closed and a new one opened every minute
      void clients.shift()?.dispose();
      openSubscriber();
      setTimeout(() => report(last, elapsed / 1000), TIMEOUT_MS + 500);
    }
  }
  const tail = cur;
  await new Promise((r) => setTimeout(r, TIMEOUT_MS + 1000));
  if (tail.n) report(tail, (performance.now() - started) / 1000);

  // ---------------------------------------------------------------- RSS: last minute against the second
  if (rows.length >= 3) {
    const from = rows[1]!.rss;
    const to = rows[rows.length - 1]!.rss;
    const growth = [...to].map(([k, v]) => `${k} ${from.get(k)?.toFixed(0)} → ${v.toFixed(0)} MiB (${(((v - (from.get(k) ?? v)) / (from.get(k) ?? v)) * 100).toFixed(1)} %)`);
    console.log(`RSS from minute 2 to the last: ${growth.join(', ')}`);
  }
} finally {
  await stopAll();
}
