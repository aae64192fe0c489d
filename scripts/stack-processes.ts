// START_PROCESSES=split: `npm start` runs each subgraph, the gateway and the REST bridge as its own
// process (their standalone entry points, npm run start:<name>), so the machine's cores share the
// work; this process keeps only the embedded PostgreSQL (when DATABASE_URL is unset) and stops the
// children with itself. The processes talk through Redis pub/sub (key invalidations, subscription
// events), so split needs REDIS_URL: in-process pub/sub cannot cross processes. See docs/performance.md
// for the measured choice of the default.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, SUBGRAPH_NAMES, type Config } from '../lib/config.js';
import { startEmbeddedPostgres, checkDatabase, databaseUrl, type EmbeddedDatabase } from '../lib/db.js';
import type { Logger } from '../lib/logger.js';
import { onDrain } from '../lib/lifecycle.js';
import { redisConfigured } from '../lib/redis.js';

export interface ProcessStack {
  dbUrl: string;
  pids: number[];
  /** SIGTERM to every child (they drain in parallel), SIGKILL to any still running at `deadline` */
  stop(deadline?: number): Promise<void>;
}

/** Entry points beside this file: .ts under the development loader, .js in the compiled build. */
function entry(rel: string): string {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`../${rel}${ext}`, import.meta.url));
}

async function healthy(url: string, child: ChildProcess, name: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start-up (code ${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startProcesses(cfg: Config, log: Logger): Promise<ProcessStack> {
  if (!redisConfigured(cfg)) throw new ConfigError('START_PROCESSES', 'split needs REDIS_URL or REDIS_SENTINELS (the processes share events through Redis pub/sub)');
  let embedded: EmbeddedDatabase | undefined;
  if (!cfg.databaseUrl) embedded = await startEmbeddedPostgres(cfg, log);
  const dbUrl = embedded?.url ?? databaseUrl(cfg);
  await checkDatabase(dbUrl, cfg);
  // the children inherit SHUTDOWN_DELAY_MS: signalled when this process begins to drain, they go
  // unready and keep serving for the same delay as it; npm start's default: migrations at start
  const env = { ...process.env, DATABASE_URL: dbUrl, MIGRATE_ON_START: cfg.migrateOnStart === false ? '0' : '1' };
  const parts = [
    ...SUBGRAPH_NAMES.map((n) => ({ name: n, file: `subgraphs/${n}/main`, health: `http://${cfg.host}:${cfg.subgraphPorts[n]}/health` })),
    { name: 'gateway', file: 'gateway/main', health: `http://${cfg.host}:${cfg.gatewayPort}/health` },
    { name: 'rest-bridge', file: 'rest-bridge/main', health: `http://${cfg.host}:${cfg.restPort}/health` },
  ];
  // process.execArgv carries the development loader (--import @swc-node/register/esm-register) when present
  const children = parts.map((p) => ({ ...p, child: spawn(process.execPath, [...process.execArgv, entry(p.file)], { env, stdio: ['ignore', 'ignore', 'inherit'] }) }));
  const alive = () => children.filter(({ child }) => child.exitCode === null && child.signalCode === null);
  // SIGTERM at the drain's start: each child answers not-ready at once and serves out the delay itself
  onDrain(() => alive().forEach(({ child }) => child.kill('SIGTERM')));
  const stop = async (deadline = Date.now() + cfg.shutdownGraceMs) => {
    await Promise.all(
      alive().map(({ child }) => {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), Math.max(0, deadline - Date.now()));
        return exited.finally(() => clearTimeout(late));
      }),
    );
    await embedded?.stop();
  };
  try {
    await Promise.all(children.map((c) => healthy(c.health, c.child, c.name)));
  } catch (e) {
    await stop();
    throw e;
  }
  return { dbUrl, pids: children.map((c) => c.child.pid!), stop };
}
