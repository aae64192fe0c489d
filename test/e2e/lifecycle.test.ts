// The lifecycle an orchestrator drives (docs/deploy.md), on processes started on their own as a
// deployment starts them: a process refuses to start without REDIS_URL unless SINGLE_PROCESS=1;
// replicas do not migrate (they refuse to start with migrations pending) and `npm run migrate`
// applies every subgraph's once; WORKERS=0 runs no job worker; readiness answers for the process
// itself (a gateway whose subgraphs are all down is ready; /health/detailed says they are down); on
// SIGTERM readiness answers 503 at once while the process keeps serving for SHUTDOWN_DELAY_MS, then it
// drains and exits 0.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ROOT, spawnScript, stop, waitFor } from '../harness/spawn.js';
import { scratchDatabase } from '../harness/scratch-db.js';
import { stack } from '../harness/client.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 900;
const db = scratchDatabase('lifecycle');
const logOf = (name: string) => readFileSync(resolve(ROOT, '.data', 'test-logs', `${name}.log`), 'utf8');
const exitOf = (child: ChildProcess) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));
const children: ChildProcess[] = [];
const secrets = () => ({ JWT_SECRET: stack().env.JWT_SECRET, INTERNAL_SECRET: stack().env.INTERNAL_SECRET, LOG_LEVEL: 'warn' });

beforeAll(() => db.create(), 30_000);
afterAll(async () => {
  await Promise.all(children.map((c) => stop(c)));
  await db.drop();
}, 60_000);

test.each([
  ['gateway/main.ts', 'gateway'],
  ['rest-bridge/main.ts', 'rest'],
  ['subgraphs/search/main.ts', 'search'],
])('%s started on its own without REDIS_URL refuses to start, naming the variable in one line', async (script, name) => {
  const label = `lifecycle-noredis-${name}`;
  const child = spawnScript(script, { ...secrets(), DATABASE_URL: db.url(), REDIS_URL: '', SINGLE_PROCESS: '', GATEWAY_PORT: String(BASE), REST_PORT: String(BASE + 1), SEARCH_PORT: String(BASE + 2) }, label);
  expect(await exitOf(child)).toBe(1);
  const lines = logOf(label).trim().split('\n');
  expect(lines).toEqual([expect.stringMatching(/^error: REDIS_URL: is required for a process started on its own .*SINGLE_PROCESS=1/)]);
}, 90_000);

test('a replica refuses to start with migrations pending; npm run migrate applies every subgraph once; then it starts', async () => {
  const env = { ...secrets(), DATABASE_URL: db.url(), CATALOG_PORT: String(BASE + 3), MIGRATE_ON_START: '' };
  const refused = spawnScript('subgraphs/catalog/main.ts', env, 'lifecycle-pending');
  expect(await exitOf(refused)).toBe(1);
  expect(logOf('lifecycle-pending')).toMatch(/^error: MIGRATE_ON_START: the catalog schema has \d+ migration\(s\) pending .*npm run migrate/m);

  const first = spawnScript('scripts/migrate.ts', { DATABASE_URL: db.url() }, 'lifecycle-migrate-1');
  expect(await exitOf(first)).toBe(0);
  for (const s of ['platform', 'ai', 'catalog', 'search']) expect(logOf('lifecycle-migrate-1')).toMatch(new RegExp(`^${s}: applied Migration`, 'm'));
  const again = spawnScript('scripts/migrate.ts', { DATABASE_URL: db.url() }, 'lifecycle-migrate-2');
  expect(await exitOf(again)).toBe(0);
  for (const s of ['platform', 'ai', 'catalog', 'search']) expect(logOf('lifecycle-migrate-2')).toMatch(new RegExp(`^${s}: up to date`, 'm'));

  // WORKERS=0: an API-only replica; SHUTDOWN_DELAY_MS: the balancer's notice time
  const catalog = spawnScript('subgraphs/catalog/main.ts', { ...env, WORKERS: '0', SHUTDOWN_DELAY_MS: '2000', SHUTDOWN_GRACE_MS: '3000' }, 'lifecycle-catalog');
  children.push(catalog);
  const origin = `http://127.0.0.1:${BASE + 3}`;
  await waitFor(`${origin}/health/ready`, 120_000, catalog);
  const metrics = await (await fetch(`${origin}/metrics`)).text();
  expect(metrics).not.toMatch(/jobs_queue_depth\{queue="catalog"/);

  const exited = exitOf(catalog);
  const signalled = Date.now();
  catalog.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  const ready = await fetch(`${origin}/health/ready`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toMatchObject({ status: 'draining', service: 'catalog' });
  // still serving during the delay: a request is answered (refused for want of the gateway's signature, not cut)
  const served = await fetch(`${origin}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
  expect(served.status).toBe(401);
  expect((await served.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  expect(await exited).toBe(0);
  const took = Date.now() - signalled;
  expect(took).toBeGreaterThanOrEqual(2000);
  expect(took).toBeLessThan(2000 + 3000 + 1500);
}, 300_000);

test('with WORKERS on, the same replica runs its job workers (the queue is reported)', async () => {
  const catalog = spawnScript('subgraphs/catalog/main.ts', { ...secrets(), DATABASE_URL: db.url(), CATALOG_PORT: String(BASE + 4) }, 'lifecycle-catalog-workers');
  children.push(catalog);
  await waitFor(`http://127.0.0.1:${BASE + 4}/health/ready`, 120_000, catalog);
  expect(await (await fetch(`http://127.0.0.1:${BASE + 4}/metrics`)).text()).toMatch(/jobs_queue_depth\{queue="catalog"/);
  await stop(catalog);
}, 180_000);

test("a gateway's readiness is its own: every subgraph down, it is ready; /health/detailed says they are down", async () => {
  const dead = `http://127.0.0.1:${BASE + 9}/graphql`;
  const gw = spawnScript(
    'gateway/main.ts',
    { ...secrets(), GATEWAY_PORT: String(BASE + 5), PLATFORM_URL: dead, AI_URL: dead, CATALOG_URL: dead, SEARCH_URL: dead, REDIS_URL: '', SINGLE_PROCESS: '1' },
    'lifecycle-gateway',
  );
  children.push(gw);
  const origin = `http://127.0.0.1:${BASE + 5}`;
  await waitFor(`${origin}/health`, 120_000, gw);
  const ready = await fetch(`${origin}/health/ready`);
  expect(ready.status).toBe(200);
  expect((await ready.json()).status).toBe('ok');
  const detailed = await fetch(`${origin}/health/detailed`);
  expect(detailed.status).toBe(503);
  expect((await detailed.json()).components.catalog.status).toBe('unavailable');
  await stop(gw);
}, 180_000);
