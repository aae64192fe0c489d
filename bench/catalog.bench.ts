// Catalog bench (products side), the whole stack in this process on a scratch database:
//  - a catalogue of 63,666 products from ../shared/datasets/debian-packages.jsonl.gz (name, summary
//    and description, section as category, deterministic USD prices, two variants on every tenth),
//    written with bulk SQL, then indexed for search by the real indexing jobs (1,000 ids a job);
//  - GET /v1/products?page[size]=100&include=variants,categories,images through the REST bridge: p95,
//    and the SQL statements one request runs at page sizes 10 and 100 (they must be equal);
//  - GET /v1/products/search with facets through the REST bridge: p95;
//  - POST /v1/products: p95 (90 creates, under the endpoint's 100/min limit);
//  - the effective price of 100 products in one GraphQL query: p95 and its SQL statements.
// Run: BENCH_PORT_BASE=20500 DATABASE_URL=postgres://… npx node --import @swc-node/register/esm-register bench/catalog.bench.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { requestJson } from '../lib/http-client.js';
import { enqueueJob } from '../lib/jobs/index.js';
import { startStack } from '../scripts/stack.js';
import { BENCH_BUDGETS, benchTenant, jsonApi, scratchDatabase, stackPorts } from './harness.js';
import { fmt, summarize } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..');
// the larger data sets are not committed: DATASETS_DIR, else ../shared/datasets beside the checkout
const DATA = process.env.DATASETS_DIR ? resolve(process.env.DATASETS_DIR) : resolve(ROOT, '..', 'shared', 'datasets');
const base = Number(process.env.BENCH_PORT_BASE ?? 20500);
const N = Number(process.env.BENCH_N ?? 200);

// ------------------------------------------------------------------ SQL statement counter
// Every statement of every process part (catalog, platform, gateway look-ups) goes through
// pg.Client.prototype.query in this process; counting calls around one request gives its statements.
let statements = 0;
const origQuery = pg.Client.prototype.query;
(pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (origQuery as (...a: unknown[]) => unknown).apply(this, args);
};

const scratch = await scratchDatabase('catalog');
// the per-key budgets lifted as every bench stack's (a page of 100 with its relations costs ~2,700)
const shared = { JWT_SECRET: 'bench-secret', INTERNAL_SECRET: 'bench-internal', LOG_LEVEL: 'error', REDIS_URL: '', ...BENCH_BUDGETS };
Object.assign(process.env, shared);
const cfg = loadConfig({ ...process.env, ...shared, ...stackPorts(base), DATABASE_URL: scratch.url ?? '', DATA_DIR: resolve(ROOT, '.data', 'bench-catalog') });
const stack = await startStack(cfg, createLogger({}, 'error'));
const pool = new pg.Pool({ connectionString: stack.dbUrl, max: 4 });
const shutdown = async () => {
  await pool.end().catch(() => undefined);
  await stack.stop();
  await scratch.drop();
};

try {
  // ---------------------------------------------------------------- tenant
  const restUrl = `http://127.0.0.1:${cfg.restPort}`;
  const gateway = `http://127.0.0.1:${cfg.gatewayPort}/graphql`;
  const { call, keys } = await benchTenant(restUrl, cfg.jwtSecret, 'cbench', { timeoutMs: 120_000 });
  const kh = keys[0]!;
  const doc = jsonApi;
  const first = (await call('POST', '/v1/products', kh, doc('products', { name: 'Bench seed', sku: 'SEED-1' }))).data;
  const part = (await pool.query('select app_id, environment from catalog.products where id = $1', [first.id])).rows[0] as { app_id: string; environment: string };

  // ---------------------------------------------------------------- catalogue
  const pkgs = gunzipSync(readFileSync(resolve(DATA, 'debian-packages.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: number; name: string; section: string; summary: string; description: string; installed_size_kb: number });
  const t0 = performance.now();
  const sections = [...new Set(pkgs.map((p) => p.section))].sort();
  const catId = new Map(sections.map((s, i) => [s, `cat_bench${String(i).padStart(15, '0')}`]));
  const nowIso = new Date().toISOString();
  await pool.query(
    `insert into catalog.categories (id, app_id, environment, name, slug, position, created_at, updated_at)
     select c.id, $1, $2, c.name, c.slug, c.position, now(), now() from jsonb_to_recordset($3::jsonb) as c(id text, name text, slug text, position int)`,
    [part.app_id, part.environment, JSON.stringify(sections.map((s, i) => ({ id: catId.get(s), name: s, slug: s.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || `s${i}`, position: i })))],
  );
  const CHUNK = 4000;
  for (let i = 0; i < pkgs.length; i += CHUNK) {
    const rows = pkgs.slice(i, i + CHUNK).map((p) => ({
      id: `prod_bench${String(p.id).padStart(15, '0')}`,
      name: p.name,
      sku: `DEB-${p.id}`,
      description: `${p.summary}\n\n${p.description}`.slice(0, 4000),
      short_description: p.summary,
      price: 99 + ((p.id * 7919) % 20000),
      quantity: p.id % 17,
      options: p.id % 10 === 0 ? [{ name: 'Size', values: ['S', 'L'] }] : null,
      attributes: { section: p.section, installed_size_kb: p.installed_size_kb },
      cat: catId.get(p.section),
    }));
    const json = JSON.stringify(rows);
    await pool.query(
      `insert into catalog.products (id, app_id, environment, name, sku, description, short_description, status, type, price_amount, price_currency, inventory_quantity, options, attributes, created_at, updated_at)
       select r.id, $1, $2, r.name, r.sku, r.description, r.short_description, 'active', 'physical', r.price, 'USD', r.quantity, r.options, r.attributes, $4::timestamptz - (r.price || ' seconds')::interval, $4::timestamptz
         from jsonb_to_recordset($3::jsonb) as r(id text, name text, sku text, description text, short_description text, price int, quantity int, options jsonb, attributes jsonb)`,
      [part.app_id, part.environment, json, nowIso],
    );
    await pool.query(`insert into catalog.skus (app_id, environment, sku, owner_id, created_at) select $1, $2, r.sku, r.id, now() from jsonb_to_recordset($3::jsonb) as r(id text, sku text)`, [part.app_id, part.environment, json]);
    await pool.query(
      `insert into catalog.product_categories (category_id, product_id, app_id, environment, created_at) select r.cat, r.id, $1, $2, now() from jsonb_to_recordset($3::jsonb) as r(id text, cat text)`,
      [part.app_id, part.environment, json],
    );
    const variants = rows
      .filter((r) => r.options)
      .flatMap((r) => ['S', 'L'].map((size, k) => ({ id: `var_${r.id.slice(10)}${size}0000`, product_id: r.id, sku: `${r.sku}-${size}`, size, position: k, mod: k * 10 })));
    await pool.query(
      `insert into catalog.product_variants (id, app_id, environment, product_id, name, sku, options, price_modifier_type, price_modifier_amount, inventory_quantity, track_stock, position, created_at, updated_at)
       select v.id, $1, $2, v.product_id, v.size, v.sku, jsonb_build_object('Size', v.size), 'percentage', v.mod, 5, true, v.position, now(), now() from jsonb_to_recordset($3::jsonb) as v(id text, product_id text, sku text, size text, position int, mod int)`,
      [part.app_id, part.environment, JSON.stringify(variants)],
    );
    await pool.query(`insert into catalog.skus (app_id, environment, sku, owner_id, created_at) select $1, $2, v.sku, v.id, now() from jsonb_to_recordset($3::jsonb) as v(id text, sku text)`, [part.app_id, part.environment, JSON.stringify(variants)]);
    // the indexing jobs of these products (the same job kind every product write enqueues)
    for (let j = 0; j < rows.length; j += 1000) {
      await enqueueJob(pool, 'catalog', { kind: 'catalog.products.index', key: `products-index:${part.app_id}:${part.environment}`, payload: { appId: part.app_id, environment: part.environment, productIds: rows.slice(j, j + 1000).map((r) => r.id) } });
    }
  }
  // what autovacuum does after a bulk load (statistics, and the visibility map that lets the page's
  // offset walk read the index alone); autovacuum may be off on the bench's server (it is on this machine)
  await pool.query('vacuum analyze catalog.products');
  await pool.query('vacuum analyze catalog.product_categories');
  await pool.query('vacuum analyze catalog.product_variants');
  console.log(`catalogue: ${pkgs.length} products, ${sections.length} categories, ${Math.ceil(pkgs.length / 10)} products with 2 variants, written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // search indexing through the job queue: until the search counts every product
  const t1 = performance.now();
  for (;;) {
    const pending = (await pool.query(`select count(*)::int as n from catalog.jobs where kind = 'catalog.products.index' and status in ('queued', 'running')`)).rows[0].n as number;
    if (pending === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const total = (await call('GET', '/v1/products/search?per_page=1', kh)).meta.total;
  console.log(`search indexing (jobs → documents → engine): ${total} products searchable after ${((performance.now() - t1) / 1000).toFixed(1)} s`);

  const timed = async (n: number, fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 5; i++) await fn(i);
    const samples: number[] = [];
    const start = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn(i);
      samples.push(performance.now() - t);
    }
    const used = process.cpuUsage(cpu);
    // the whole stack and this client run in this process: its CPU per call is the stack's cost
    return { ...summarize(samples, performance.now() - start), cpuMs: (used.user + used.system) / 1000 / n };
  };
  // The stack runs in this process, so its job workers' polls land in the counter too: the fewest
  // statements of five calls is the request's own.
  const countStatements = async (fn: () => Promise<unknown>) => {
    await fn();
    let fewest = Infinity;
    for (let i = 0; i < 5; i++) {
      const before = statements;
      await fn();
      fewest = Math.min(fewest, statements - before);
    }
    return fewest;
  };

  // ---------------------------------------------------------------- list
  const pages = Math.floor(pkgs.length / 100);
  const listPath = (size: number, i: number) => `/v1/products?page[size]=${size}&page[number]=${1 + (i % Math.floor(pkgs.length / size))}&include=variants,categories,images`;
  const listed = await call('GET', listPath(100, 7), kh);
  if (listed.data.length !== 100 || !Array.isArray(listed.data[0].attributes.categories)) throw new Error('list did not answer 100 products with categories');
  // BENCH_PROFILE=<file.cpuprofile>: a CPU profile of the whole stack (bridge, gateway, catalog) over this first list run
  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  console.log(fmt('GET /v1/products?page[size]=100&include=… (REST)', await timed(N, (i) => call('GET', listPath(100, (i * 37) % pages), kh))));
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }
  console.log(fmt('  the same, first page only', await timed(N, () => call('GET', listPath(100, 0), kh))));
  console.log(fmt('  the same, without include', await timed(N, (i) => call('GET', `/v1/products?page[size]=100&page[number]=${1 + ((i * 37) % pages)}`, kh))));
  if (process.env.BENCH_LIST_BREAKDOWN === '1') {
    for (const inc of ['', 'variants', 'categories', 'images', 'variants,categories,images']) {
      const path = `/v1/products?page[size]=100&page[number]=1${inc ? `&include=${inc}` : ''}`;
      const bytes = (await requestJson('GET', `${restUrl}${path}`, kh, undefined, 60_000)).text.length;
      const prof = process.env.BENCH_PROFILE_DIR ? new Session() : undefined;
      if (prof) {
        prof.connect();
        await prof.post('Profiler.enable');
        await prof.post('Profiler.start');
      }
      console.log(fmt(`  first page, include=${inc || '-'} (${bytes} bytes)`, await timed(Math.min(N, 50), () => call('GET', path, kh))));
      if (prof) {
        const { profile } = await prof.post('Profiler.stop');
        writeFileSync(resolve(process.env.BENCH_PROFILE_DIR!, `list-${inc.replace(/,/g, '+') || 'none'}.cpuprofile`), JSON.stringify(profile));
        prof.disconnect();
      }
    }
  }
  const s10 = await countStatements(() => call('GET', listPath(10, 3), kh));
  const s100 = await countStatements(() => call('GET', listPath(100, 3), kh));
  console.log(`  SQL statements per list request (whole stack): page[size]=10 → ${s10}, page[size]=100 → ${s100}`);

  // ---------------------------------------------------------------- search
  const words = ['python', 'game', 'libraray', 'font', 'perl modul', 'kernel', 'gnome', 'server', 'doc', 'edito'];
  const searchPath = (i: number) => `/v1/products/search?q=${encodeURIComponent(words[i % words.length])}&per_page=20${i % 3 === 0 ? '&filters[price][max]=10000' : ''}`;
  const found = await call('GET', searchPath(0), kh);
  if (!found.meta.total || !found.meta.facets.category.length) throw new Error(`search found nothing: ${JSON.stringify(found.meta)}`);
  console.log(fmt('GET /v1/products/search (facets, REST)', await timed(N, (i) => call('GET', searchPath(i), kh))));

  // ---------------------------------------------------------------- create
  console.log(fmt('POST /v1/products (REST)', await timed(85, (i) => call('POST', '/v1/products', kh, doc('products', { name: `Bench ${i}`, sku: `NEW-${process.pid}-${i}-${performance.now()}`, price: { amount: 1000 + i, currency: 'USD' } })))));

  // ---------------------------------------------------------------- effective prices
  const ids = listed.data.map((p: { id: string }) => p.id);
  const priceQuery = JSON.stringify({ query: 'query($ids: [ID!]!) { effectivePrices(productIds: $ids, currency: "USD") { items { id amount formatted } } }', variables: { ids } });
  const priceCall = async () => {
    const r = await requestJson('POST', gateway, kh, priceQuery, 60_000);
    const body = JSON.parse(r.text);
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body;
  };
  console.log(fmt('effectivePrices of 100 products (GraphQL)', await timed(N, priceCall)));
  console.log(`  SQL statements per effective-price query of 100 products: ${await countStatements(priceCall)}`);
} finally {
  await shutdown();
}
