// Helpers shared by the search e2e tests: task polling, index set-up, direct (signed) subgraph
// calls for plan-specific tenant contexts, and a client of the stack's database.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { signTenantContext, TENANT_HEADER, type TenantContext } from '../../lib/tenant.js';
import { jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { spawnScript, stop, waitFor } from '../harness/spawn.js';

export const FINAL = ['succeeded', 'failed', 'canceled'];

/** Poll a task through REST until it is final; returns its resource. */
export async function waitTask(t: Tenant, taskId: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await rest('GET', `/search/v1/tasks/${taskId}`, { headers: t.keyHeaders });
    if (r.status !== 200) throw new Error(`task ${taskId}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    if (FINAL.includes(r.body.data.attributes.status)) return r.body.data;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${r.body.data.attributes.status} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

export async function createIndex(t: Tenant, attrs: Record<string, unknown> = {}): Promise<string> {
  const uid = (attrs.uid as string) ?? uniq('idx_');
  const r = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid, ...attrs }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create index: ${r.status} ${JSON.stringify(r.body)}`);
  return uid;
}

/** Add documents and wait for the task; returns the final task resource. */
export async function addDocuments(t: Tenant, uid: string, documents: unknown[], extra: Record<string, unknown> = {}): Promise<any> {
  const r = await rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents, ...extra }), headers: t.keyHeaders });
  if (r.status !== 202) throw new Error(`add documents: ${r.status} ${JSON.stringify(r.body)}`);
  return waitTask(t, r.body.data.id);
}

/** Wait for a settings (or other) task enqueued by a 202 response. */
export async function settle(t: Tenant, res: { status: number; body: any }): Promise<any> {
  if (res.status !== 202) throw new Error(`expected 202, got ${res.status} ${JSON.stringify(res.body)}`);
  return waitTask(t, res.body.data.id);
}

export async function search(t: Tenant, uid: string, attrs: Record<string, unknown>) {
  return rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', attrs), headers: t.keyHeaders });
}

/** A signed tenant context as the gateway would send it, for calling a search subgraph directly. */
export function keyContext(over: Partial<TenantContext> = {}): TenantContext {
  return { kind: 'key', requestId: randomUUID(), scopes: ['search:read', 'search:write'], appId: uniq('app_'), environment: 'live', ...over };
}

export async function subgraphGql(url: string, ctx: TenantContext, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: any; errors?: any[] }> {
  const body = JSON.stringify({ query, variables });
  // signed headers are bound to the subgraph they go to (its name) and to the body
  const audience = Object.entries(stack().subgraphs).find(([, u]) => u === url)?.[0] ?? 'search';
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TENANT_HEADER]: signTenantContext({ ...ctx, requestId: randomUUID() }, stack().env.INTERNAL_SECRET, { audience, body }) },
    body,
  });
  return (await r.json()) as { data?: any; errors?: any[] };
}

/** The PostgreSQL server of the test stack (DATABASE_URL's server, or the embedded one). */
export function serverUrl(database?: string): string {
  const env = stack().env;
  const base = process.env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/postgres`;
  return database ? base.replace(/\/[^/?]*(\?.*)?$/, `/${database}$1`) : base;
}

/** The test stack's own database. */
export function stackDbUrl(): string {
  const env = stack().env;
  return env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/supergraph`;
}

export async function withDb<R>(url: string, fn: (c: pg.Client) => Promise<R>): Promise<R> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Search subgraph processes (subgraphs/search/main.ts) on a database of their own, so the stack's
 * worker stays out of it: `setUp` creates the database, `start` spawns a process and waits until it
 * serves, `tearDown` stops what still runs and drops the database.
 */
export function searchProcesses(prefix: string) {
  const db = `${prefix}_${Date.now()}_${process.pid}`;
  const base = Number(process.env.TEST_PORT_BASE ?? 14000);
  const children: ChildProcess[] = [];
  // stop() waits for an exit event, so not for the ones already gone (exitCode, or signalCode after SIGKILL)
  const stopAll = () => Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => stop(c)));
  return {
    dbUrl: () => serverUrl(db),
    setUp: () => withDb(serverUrl(), (c) => c.query(`create database ${db}`)),
    /** Stop every process still running. */
    stopAll,
    async tearDown() {
      await stopAll();
      await withDb(serverUrl(), (c) => c.query(`drop database if exists ${db} with (force)`));
    },
    async start(name: string, port: number, extra: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
      const env = stack().env;
      const child = spawnScript(
        'subgraphs/search/main.ts',
        {
          DATABASE_URL: serverUrl(db),
          REDIS_URL: '',
          SEARCH_PORT: String(port),
          INTERNAL_SECRET: env.INTERNAL_SECRET,
          JWT_SECRET: env.JWT_SECRET,
          LOG_LEVEL: 'warn',
          SEARCH_POLL_MS: '100',
          SEARCH_DEFAULT_PLAN: 'enterprise',
          ...extra,
        },
        `${name}-${base}`,
      );
      children.push(child);
      await waitFor(`http://127.0.0.1:${port}/health/ready`, 60_000, child);
      return { child, url: `http://127.0.0.1:${port}/graphql` };
    },
  };
}
