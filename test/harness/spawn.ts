// Start project processes the way the npm scripts do (Node 22 from node_modules, the system's Node
// options from scripts/node-flags.ts, swc register).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { nodeFlags } from '../../scripts/node-flags.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const NODE = resolve(ROOT, 'node_modules', '.bin', 'node');

export function spawnScript(script: string, env: Record<string, string | undefined>, logName: string): ChildProcess {
  mkdirSync(resolve(ROOT, '.data', 'test-logs'), { recursive: true });
  const log = createWriteStream(resolve(ROOT, '.data', 'test-logs', `${logName}.log`));
  const child = spawn(NODE, [...nodeFlags(ROOT), '--import', '@swc-node/register/esm-register', script], {
    cwd: ROOT,
    // processes started on their own: on the test's database (migrated at start), Redis only where a test gives REDIS_URL
    env: { ...process.env, NODE_OPTIONS: '', SINGLE_PROCESS: '1', MIGRATE_ON_START: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}

export async function waitFor(url: string, timeoutMs = 90_000, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before ${url} was ready (see .data/test-logs)`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms: ${last}`);
}

/** true once `ok` holds for an answer of `f` within `ms` (e.g. a cache dropped on an event published after commit) */
export async function poll<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  do {
    if (ok(await f())) return true;
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < end);
  return false;
}

export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(t);
      res();
    });
    child.kill('SIGTERM');
  });
}

export { stackPortEnv } from '../../scripts/stack-ports.js';
