// A PostgreSQL outage as a subgraph sees it (docs/operations.md): the catalog subgraph runs as its
// own process, reaching its database through a TCP relay this test controls. Cutting the relay (every
// open connection reset, new ones refused) is the database going away; listening again is it coming
// back. During the outage requests answer SERVICE_UNAVAILABLE (503, a retry time), never INTERNAL,
// and readiness says unavailable; afterwards the same process answers again without a restart.
import type { ChildProcess } from 'node:child_process';
import { spawnScript, stop, waitFor } from '../harness/spawn.js';
import { randomUUID } from 'node:crypto';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../../lib/tenant.js';
import { keyContext, serverUrl, sleep, withDb } from './search.helpers.js';
import { stack } from '../harness/client.js';
import { tcpRelay } from '../harness/tcp-relay.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 46;
const RELAY_PORT = BASE;
const CATALOG_PORT = BASE + 1;
const db = `faults_db_${Date.now()}_${process.pid}`;

let child: ChildProcess | undefined;
const pgServer = new URL(serverUrl());
const link = tcpRelay(RELAY_PORT, { host: pgServer.hostname, port: Number(pgServer.port || 5432) });
const dbUrl = () => {
  const u = new URL(serverUrl(db));
  u.hostname = '127.0.0.1';
  u.port = String(RELAY_PORT);
  return u.toString();
};

beforeAll(async () => {
  await withDb(serverUrl(), (c) => c.query(`create database ${db}`));
  await link.up();
}, 30_000);

afterAll(async () => {
  await stop(child);
  await link.down();
  await withDb(serverUrl(), (c) => c.query(`drop database if exists ${db} with (force)`));
}, 60_000);

const LIST = '{ products(pageSize: 1) { total } }';

/** A query straight to the catalog subgraph, signed as the gateway signs it. */
async function catalogGql(url: string, ctx: TenantContext, query: string): Promise<{ data?: any; errors?: any[] }> {
  const body = JSON.stringify({ query, variables: {} });
  const header = signTenantContext({ ...ctx, requestId: randomUUID() }, stack().env.INTERNAL_SECRET, { audience: 'catalog', body });
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', [TENANT_HEADER]: header }, body });
  return (await r.json()) as { data?: any; errors?: any[] };
}

test('database gone: 503 SERVICE_UNAVAILABLE with a retry time and readiness unavailable; back: answers again, same process', async () => {
  const env = stack().env;
  child = spawnScript(
    'subgraphs/catalog/main.ts',
    { DATABASE_URL: dbUrl(), REDIS_URL: '', CATALOG_PORT: String(CATALOG_PORT), INTERNAL_SECRET: env.INTERNAL_SECRET, JWT_SECRET: env.JWT_SECRET, LOG_LEVEL: 'warn' },
    `faults-database-${BASE}`,
  );
  const url = `http://127.0.0.1:${CATALOG_PORT}/graphql`;
  await waitFor(`http://127.0.0.1:${CATALOG_PORT}/health/ready`, 90_000, child);
  const ctx = keyContext({ scopes: ['products:read', 'products:write'] });
  const ok = await catalogGql(url, ctx, LIST);
  expect(ok.errors).toBeUndefined();
  expect(ok.data.products.total).toBe(0);

  await link.down();
  const t0 = Date.now();
  for (let i = 0; i < 3; i++) {
    const r = await catalogGql(url, ctx, LIST);
    expect(r.errors?.[0]?.extensions).toEqual({ code: 'SERVICE_UNAVAILABLE', status: 503, meta: { retryAfterMs: expect.any(Number) } });
  }
  expect(Date.now() - t0).toBeLessThan(10_000);
  const ready = await fetch(`http://127.0.0.1:${CATALOG_PORT}/health/ready`);
  expect(ready.status).toBe(503);
  expect(child.exitCode).toBeNull();

  await link.up();
  const deadline = Date.now() + 20_000;
  let back: { data?: any; errors?: any[] } = {};
  while (Date.now() < deadline) {
    back = await catalogGql(url, ctx, LIST);
    if (!back.errors) break;
    await sleep(250);
  }
  expect(back.errors).toBeUndefined();
  expect(back.data.products.total).toBe(0);
  expect((await fetch(`http://127.0.0.1:${CATALOG_PORT}/health/ready`)).status).toBe(200);
}, 180_000);
