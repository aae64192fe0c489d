// Inventory bench, the whole stack in this process on a scratch database:
//  - reservations on ONE hot SKU: 50 concurrent clients reserve 1 unit each (a new order each time)
//    until the stock is gone; every run checks that nothing was oversold (successes = stock, the
//    reserved counter = stock, the active reservation rows add up to stock). Measured at the
//    catalog subgraph (its GraphQL port, with the signed tenant context the gateway would send; the
//    clients run in a worker thread, bench/inventory.load-worker.ts, as a separate load generator would)
//    and through the REST bridge (POST /v1/products/:id/inventory/reserve; 10 API keys, since the
//    endpoint allows 1,000 a minute per key);
//  - stock alert latency: a graphql-ws client subscribed to inventoryAlerts on the gateway; each
//    adjustment that crosses the low-stock line is timed from the moment its REST response arrives
//    to the moment the alert reaches the client.
// Run: npm run bench:inventory (DATABASE_URL; BENCH_PORT_BASE, default 20700; BENCH_STOCK, BENCH_RUNS)
import { resolve } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import type { TenantContext } from '../lib/tenant.js';
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import type { LoadJob, LoadResult } from './inventory.load-worker.js';
import { startStack } from '../scripts/stack.js';
import { benchTenant, jsonApi, scratchDatabase, stackPorts } from './harness.js';
import { fmt, summarize } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 20700);
const STOCK = Number(process.env.BENCH_STOCK ?? 3000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CLIENTS = 50;

const scratch = await scratchDatabase('inventory');
const shared = { JWT_SECRET: 'bench-secret', INTERNAL_SECRET: 'bench-internal', LOG_LEVEL: 'error', REDIS_URL: '' };
Object.assign(process.env, shared);
const cfg = loadConfig({ ...process.env, ...shared, ...stackPorts(base), DATABASE_URL: scratch.url ?? '', DATA_DIR: resolve(ROOT, '.data', 'bench-inventory') });
const stack = await startStack(cfg, createLogger({}, 'error'));
const pool = new pg.Pool({ connectionString: stack.dbUrl, max: 2 });
const shutdown = async () => {
  await pool.end().catch(() => undefined);
  await stack.stop();
  await scratch.drop();
};

try {
  const restUrl = `http://127.0.0.1:${cfg.restPort}`;
  const gateway = `http://127.0.0.1:${cfg.gatewayPort}/graphql`;
  const catalogUrl = cfg.subgraphUrls.catalog;
  const benchApp = await benchTenant(restUrl, cfg.jwtSecret, 'ibench', { keys: 10, timeoutMs: 120_000 });
  const { call, appId } = benchApp;
  const keys = benchApp.keys.map((h) => h['x-api-key']!);
  const kh = (i = 0) => benchApp.keys[i % keys.length]!;
  const doc = jsonApi;
  const seed = (await call('POST', '/v1/products', kh(), doc('products', { name: 'Seed', sku: 'SEED' }))).data;
  const part = (await pool.query('select app_id, environment from catalog.products where id = $1', [seed.id])).rows[0] as { app_id: string; environment: 'live' | 'test' };

  // ------------------------------------------------------------- reservations on one hot SKU
  const tenant: TenantContext = { kind: 'key', requestId: 'bench', scopes: ['products:read', 'products:write'], appId: part.app_id, environment: part.environment, keyId: 'bench' };
  let order = 0;
  const load = (via: LoadJob['via'], productId: string) =>
    new Promise<LoadResult>((res, rej) => {
      const job: LoadJob = { via, productId, clients: CLIENTS, catalogUrl, restUrl, internalSecret: cfg.internalSecret, tenant, appId, keys, orderPrefix: `${via}${++order}-` };
      const w = new Worker(new URL('./inventory.load-worker.ts', import.meta.url), { workerData: job });
      w.once('message', res);
      w.once('error', rej);
    });

  const hotRun = async (label: string, stock: number, via: LoadJob['via']) => {
    const p = (await call('POST', '/v1/products', kh(), doc('products', { name: `Hot ${label}`, sku: `HOT-${++order}-${Date.now()}`, inventory: { quantity: stock } }))).data;
    const elu0 = performance.eventLoopUtilization();
    const { ok, refused, samples, wall } = await load(via, p.id);
    const elu = performance.eventLoopUtilization(elu0);
    const counters = (await pool.query('select inventory_reserved from catalog.products where id = $1', [p.id])).rows[0];
    const rows = (await pool.query(`select count(*)::int n, coalesce(sum(quantity), 0)::int q from catalog.inventory_reservations where item_id = $1 and status = 'active'`, [p.id])).rows[0];
    const oversold = ok - stock;
    const consistent = Number(counters.inventory_reserved) === stock && rows.q === stock;
    console.log(fmt(`reserve 1 unit, ${label}`, summarize(samples, wall)));
    console.log(
      `  stock ${stock}: ${ok} held, ${refused} refused at the end, oversold ${oversold}, counter ${counters.inventory_reserved}, active rows ${rows.n} (sum ${rows.q})` +
        ` → ${consistent && oversold === 0 ? 'OK' : 'OVERSOLD/INCONSISTENT'}; ${((ok / wall) * 1000).toFixed(0)} reservations/s`,
    );
    // the stack's thread (every subgraph, the gateway and the bridge; not the load worker): busy time per request
    console.log(`  stack event loop ${(elu.utilization * 100).toFixed(0)} % busy, ${(elu.active / samples.length).toFixed(3)} ms per request`);
    return { oversold, rate: (ok / wall) * 1000, consistent };
  };

  console.log(`reservations: one hot SKU, ${CLIENTS} concurrent clients, a new order per request`);
  await hotRun('warm-up (subgraph)', 300, 'subgraph');
  const results = [];
  for (let i = 1; i <= RUNS; i++) results.push(await hotRun(`catalog subgraph run ${i}`, STOCK, 'subgraph'));
  const rest = await hotRun('REST bridge', Math.min(STOCK, 2000), 'rest');
  const oversold = [...results, rest].reduce((n, r) => n + Math.max(0, r.oversold), 0);
  console.log(`oversold over all runs: ${oversold}; subgraph reservations/s per run: ${results.map((r) => r.rate.toFixed(0)).join(', ')}; REST: ${rest.rate.toFixed(0)}`);

  // ------------------------------------------------------------- alert latency over graphql-ws
  const N = Number(process.env.BENCH_ALERTS ?? 100);
  const p = (await call('POST', '/v1/products', kh(), doc('products', { name: 'Alerting', sku: `ALERT-${Date.now()}`, inventory: { quantity: 10, low_stock_threshold: 5 } }))).data;
  const client = createClient({ url: gateway.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { 'x-app-id': appId, 'x-api-key': keys[0] }, retryAttempts: 0 });
  const arrivals: number[] = [];
  let wake: (() => void) | undefined;
  const dispose = client.subscribe(
    { query: `subscription { inventoryAlerts(productId: "${p.id}") { event currentQuantity } }` },
    {
      next: () => {
        arrivals.push(performance.now());
        wake?.();
      },
      error: (e) => console.error('subscription error', e),
      complete: () => undefined,
    },
  );
  await new Promise((r) => setTimeout(r, 500));
  const latencies: number[] = [];
  const adjust = (delta: number) => call('POST', `/v1/products/${p.id}/inventory/adjust`, kh(), { data: { adjustments: [{ quantity: delta, reason: 'bench' }] } });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const seen = arrivals.length;
    const arrived = new Promise<void>((r) => (wake = r));
    await adjust(-6); // 10 → 4: crosses the threshold of 5
    const returned = performance.now();
    if (arrivals.length === seen) await Promise.race([arrived, new Promise((r) => setTimeout(r, 2000))]);
    if (arrivals.length === seen) throw new Error('alert did not arrive within 2 s');
    latencies.push(Math.max(0, arrivals[seen] - returned));
    await adjust(6); // back to 10: no alert
  }
  dispose();
  await client.dispose();
  console.log(fmt('low-stock alert: response → graphql-ws client', summarize(latencies, performance.now() - t0)));
  console.log('  (an alert published before the response arrives counts as 0 ms)');
} finally {
  await shutdown();
}
