// What every benchmark needs around its measurement: a scratch database on DATABASE_URL's server
// (created for the run, dropped after), the stack's port block away from `npm start` and tests, its
// environment, and the /proc readings (process tree, CPU) the benches print.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { signJwt } from '../gateway/auth/jwt.js';
import { requestJson } from '../lib/http-client.js';
import { stackPortEnv } from '../scripts/stack-ports.js';

const ROOT = resolve(import.meta.dirname, '..');

/** What an A/B bench (bench:gateway-ab, bench:stack-ab) reads from its environment: AB_TREES, AB_ROUNDS, AB_SECONDS, BENCH_PORT_BASE. */
export interface AbSettings {
  /** this checkout */
  root: string;
  /** the first port of the bench's block */
  base: number;
  seconds: number;
  rounds: number;
  /** the two trees compared (default this one twice), named A and B */
  trees: [string, string];
  names: readonly ['A', 'B'];
}

export function abSettings(defaultPort: number, env: NodeJS.ProcessEnv = process.env): AbSettings {
  const root = resolve(import.meta.dirname, '..');
  const trees = (env.AB_TREES ?? `${root},${root}`).split(',').map((p) => resolve(p));
  if (trees.length !== 2) throw new Error('AB_TREES names two checkouts');
  return {
    root,
    base: Number(env.BENCH_PORT_BASE ?? defaultPort),
    seconds: Number(env.AB_SECONDS ?? 4),
    rounds: Number(env.AB_ROUNDS ?? 6),
    trees: [trees[0], trees[1]],
    names: ['A', 'B'],
  };
}

export interface ScratchDatabase {
  /** the scratch database's URL, or undefined without DATABASE_URL (the stack then uses the embedded server) */
  url?: string;
  name?: string;
  drop(): Promise<void>;
}

export async function scratchDatabase(label: string, serverUrl = process.env.DATABASE_URL): Promise<ScratchDatabase> {
  if (!serverUrl) return { drop: async () => undefined };
  // BENCH_DB_PREFIX: where several checkouts share one server, each names its scratch databases apart
  const name = `${process.env.BENCH_DB_PREFIX ?? 'bench'}_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    name,
    url: serverUrl.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`),
    async drop() {
      // BENCH_KEEP_DB=1 keeps it for a look afterwards (EXPLAIN of what the bench ran)
      if (process.env.BENCH_KEEP_DB === '1') return void console.log(`# kept database ${name}`);
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Ports of a whole stack from `base` (gateway) up, as the test harness lays them out (REST at +80, embedded PostgreSQL at +329). */
export function stackPorts(base: number): Record<string, string> {
  return { ...stackPortEnv(base, 80), EMBEDDED_PG_PORT: String(base + 329) };
}

/**
 * Per-key budgets lifted for every bench stack: benches measure throughput, not the image budget
 * (docs/security.md, Limits) nor the query cost budget (docs/cost.md), whose counting still runs on
 * every request.
 */
export const BENCH_BUDGETS = { IMAGE_BUDGET_PER_MINUTE: '1000000', COST_BUDGET_PER_MINUTE: '1000000000000' } as const;

/**
 * The environment of a bench's own stack: the scratch database, the port block from `base`, a data
 * directory under .data/bench-<label>, production-length secrets, quiet logs; `extra` last.
 */
export function benchStackEnv(label: string, base: number, databaseUrl: string | undefined, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl ?? '',
    ...stackPorts(base),
    DATA_DIR: resolve(ROOT, '.data', `bench-${label}`),
    JWT_SECRET: 'bench-jwt-secret-of-at-least-32-bytes!',
    INTERNAL_SECRET: 'bench-internal-secret-of-at-least-32-bytes',
    MASTER_KEY: process.env.MASTER_KEY ?? '0123456789abcdef'.repeat(4),
    LOG_LEVEL: 'error',
    ...BENCH_BUDGETS,
    ...extra,
  };
}

/** The process tree under `pid` (itself included), from /proc. */
export function processTree(pid: number): number[] {
  const out = [pid];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim();
      if (kids) for (const k of kids.split(/\s+/)) out.push(...processTree(Number(k)));
    }
  } catch {
    /* exited */
  }
  return out;
}

/** Resident memory of `pid` in MiB, from /proc (0 once it has exited); a process tree's is the sum over processTree. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The highest RSS the process has had so far (VmHWM), MiB; 0 once it has exited. */
export function peakRssMiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** CPU milliseconds (user + system) spent so far by the process tree under `pid` (`tree` false: by `pid` alone). */
export function cpuMs(pid: number, tree = true): number {
  let ms = 0;
  for (const p of tree ? processTree(pid) : [pid]) ms += statCpuMs(`/proc/${p}/stat`);
  return ms;
}

/** user + system CPU ms of a /proc stat file (a process's or one thread's); 0 once it has exited */
function statCpuMs(path: string): number {
  try {
    const f = readFileSync(path, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // USER_HZ = 100
  } catch {
    return 0;
  }
}

/** CPU milliseconds (user + system) spent so far by the main thread of `pid` (a Node process: its event loop). */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/** Poll `url` until it answers 2xx; fails as soon as `child` (the stack) has exited. */
export async function waitUntilUp(url: string, child: ChildProcess, what = 'the stack'): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited early (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A bench tenant: its app, one header set per API key, and JSON:API helpers against the bridge. */
export interface BenchTenant {
  appId: string;
  accountUrlId: string;
  /** the platform administrator's headers (JWT + X-Platform) */
  platformHeaders: Record<string, string>;
  /** X-App-Id, X-Api-Key and the JSON content type, one set per key */
  keys: Record<string, string>[];
  /** a request to the bridge; its JSON answer, or an error naming the path and status (>= 300) */
  call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<any>;
  /** POST a JSON:API document of `type` with `attributes`; the answer's `data` */
  post(path: string, headers: Record<string, string>, type: string, attributes: Record<string, unknown>): Promise<any>;
}

export interface BenchTenantOptions {
  /** how many secret keys (1) */
  keys?: number;
  /** a subscription to this plan (`enterprise`: no document cap), else the default plan */
  plan?: string;
  /** a call's time limit (30 s); a bench writing large batches on a loaded machine wants more */
  timeoutMs?: number;
}

/** A JSON:API document of `type` with `attributes`, as the bridge takes it. */
export function jsonApi(type: string, attributes: Record<string, unknown>): { data: { type: string; attributes: Record<string, unknown> } } {
  return { data: { type, attributes } };
}

/**
 * A platform, account and app made through the REST bridge as a client would (a platform-admin JWT),
 * with secret keys; app and keys allow 100,000 requests a minute so the bench, not a limit, sets the
 * pace. `label` names the platform (one per bench process); `keys` may be a count (older callers).
 */
export async function benchTenant(rest: string, jwtSecret: string, label: string, options: BenchTenantOptions | number = {}): Promise<BenchTenant> {
  const { keys: keyCount = 1, plan, timeoutMs = 30_000 } = typeof options === 'number' ? { keys: options } : options;
  const now = Math.floor(Date.now() / 1000);
  const token = signJwt({ sub: 'bench', scope: 'platform:admin platform:manage platform:read', iat: now, exp: now + 7200 }, jwtSecret);
  const code = `${label}${process.pid}`;
  const ph = { authorization: `Bearer ${token}`, 'x-platform': code, 'content-type': 'application/json' };
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const r = await requestJson(method, `${rest}${path}`, headers, body === undefined ? undefined : JSON.stringify(body), timeoutMs);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
    return JSON.parse(r.text) as any;
  };
  const post = async (path: string, headers: Record<string, string>, type: string, attributes: Record<string, unknown>) => (await call('POST', path, headers, jsonApi(type, attributes))).data;
  await post('/platforms', ph, 'platforms', { code, name: label });
  const acct = await post('/accounts', ph, 'accounts', { name: label, code, deployment_model: 'dedicated_cloud' });
  const accountUrlId = acct.attributes.url_id as string;
  if (plan) await post(`/accounts/${accountUrlId}/subscriptions`, ph, 'subscriptions', { model_code: plan, trial: false });
  const app = await post(`/accounts/${accountUrlId}/apps`, ph, 'apps', { name: `${label} app`, rate_limit_per_minute: 100_000 });
  const keys: Record<string, string>[] = [];
  for (let i = 0; i < keyCount; i++) {
    const k = await post(`/accounts/${accountUrlId}/apps/${app.id}/api_keys`, ph, 'api_keys', { name: `${label}-${i}`, key_type: 'secret', rate_limit_per_minute: 100_000 });
    keys.push({ 'x-app-id': app.id as string, 'x-api-key': k.attributes.key_id as string, 'content-type': 'application/json' });
  }
  return { appId: app.id as string, accountUrlId, platformHeaders: ph, keys, call, post };
}

/** SIGTERM every child still running, the last started first, each awaited until it exits. */
export async function stopChildren(children: readonly ChildProcess[]): Promise<void> {
  for (const c of [...children].reverse()) {
    if (c.exitCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }
}
