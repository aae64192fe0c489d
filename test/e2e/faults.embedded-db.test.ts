// The embedded PostgreSQL supervised under `npm start` (docs/operations.md, "Faults"): the product
// starts on its embedded defaults (no DATABASE_URL, no REDIS_URL) in a scratch data directory with
// ports of its own; the test kills the postmaster with SIGKILL. Requests meanwhile answer 503 with
// Retry-After (never 500), the process restarts the database by itself (logged), and a request that
// needs the database succeeds again within a bound, with no restart of the product.
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { jsonApi, mintToken, stack, uniq } from '../harness/client.js';
import { ROOT, spawnScript, stackPortEnv, stop, waitFor } from '../harness/spawn.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000) + 600;
const REST = `http://127.0.0.1:${BASE + 5}`;
const DATA_DIR = resolve(ROOT, '.data', `test-embedded-${BASE}`);
const LOG = `faults-embedded-db-${BASE}`;
/** how long after the kill a request must succeed again: the first restart comes after 250 ms */
const RECOVERY_BOUND_MS = 20_000;
let child: ChildProcess | undefined;

beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true });
  const s = stack();
  child = spawnScript(
    'scripts/start-all.ts',
    {
      JWT_SECRET: s.env.JWT_SECRET,
      INTERNAL_SECRET: s.env.INTERNAL_SECRET,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      DATA_DIR,
      EMBEDDED_PG_PORT: String(BASE + 9),
      ...stackPortEnv(BASE),
      LOG_LEVEL: 'warn',
    },
    LOG,
  );
  await waitFor(`${REST}/health/ready`, 180_000, child);
}, 240_000);

afterAll(async () => {
  await stop(child);
  rmSync(DATA_DIR, { recursive: true, force: true });
}, 60_000);

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const r = await fetch(`${REST}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as any };
}

/** The postmaster's pid: the first line of its lock file. */
const postmasterPid = () => Number(readFileSync(resolve(DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
/** Another postmaster runs than `pid` (false while its pid file is missing, between the two). */
const restarted = (pid: number) => {
  try {
    return postmasterPid() !== pid;
  } catch {
    return false;
  }
};

test('postmaster killed with SIGKILL: 503 with Retry-After meanwhile, restarted by the product, requests succeed again', async () => {
  const code = uniq('p');
  const ph = { authorization: `Bearer ${mintToken()}`, 'x-platform': code };
  expect((await call('POST', '/platforms', ph, jsonApi('platforms', { code, name: 'Supervised' }))).status).toBe(201);
  expect((await call('GET', '/accounts', ph)).status).toBe(200);

  const pid = postmasterPid();
  process.kill(pid, 'SIGKILL');
  const killedAt = Date.now();

  const seen: number[] = [];
  let back: Awaited<ReturnType<typeof call>> | undefined;
  while (Date.now() - killedAt < RECOVERY_BOUND_MS) {
    const r = await call('GET', '/accounts', ph);
    seen.push(r.status);
    if (r.status === 503) expect(Number(r.retryAfter)).toBeGreaterThan(0);
    // a backend of the killed postmaster may still answer a moment: success counts once it was replaced
    if (r.status === 200 && restarted(pid)) {
      back = r;
      break;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  const recoveredMs = Date.now() - killedAt;
  console.log(`embedded postgres killed: answers ${[...new Set(seen)].join(', ')}; ${seen.length} requests; a request succeeded ${recoveredMs} ms after the kill`);
  expect(seen.filter((s) => s !== 503 && s !== 200)).toEqual([]);
  expect(back?.status).toBe(200);
  expect(child!.exitCode).toBeNull();
  expect(postmasterPid()).not.toBe(pid);

  // writes work again too, and the restart was logged
  const acct = await call('POST', '/accounts', ph, jsonApi('accounts', { name: 'After restart', code }));
  expect(acct.status).toBe(201);
  const log = readFileSync(resolve(ROOT, '.data', 'test-logs', `${LOG}.log`), 'utf8');
  expect(log).toContain('embedded postgres is down: restarting');
  expect(log).toContain('embedded postgres restarted');
}, 120_000);
