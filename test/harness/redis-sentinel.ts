// Redis primary + replica + 3 Sentinels on loopback ports the caller owns (redis-server processes
// this harness starts; never the machine's Redis on 6379), for tests of REDIS_SENTINELS
// (lib/redis.ts) and the topology test. Data in a temporary directory, nothing persisted.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RedisClientType } from 'redis';

export const SENTINEL_NAME = 'topology';

/** Whether a binary is on PATH. */
export function hasBinary(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

export interface SentinelSet {
  /** the REDIS_SENTINELS / REDIS_SENTINEL_NAME environment of a process that should use this set */
  env: Record<string, string>;
  settings: { nodes: { host: string; port: number }[]; name: string };
  /** the port of the primary as the sentinels see it now */
  primaryPort(): Promise<number>;
  /** SENTINEL FAILOVER, then wait until the sentinels name the other server (and it accepts writes) */
  failover(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

async function redisCall<T>(port: number, fn: (c: RedisClientType) => Promise<T>): Promise<T> {
  const c = createClient({ socket: { host: '127.0.0.1', port, connectTimeout: 2000, reconnectStrategy: false } }) as RedisClientType;
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    c.destroy();
  }
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not reached in ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
}

/** Data servers at `port` and `port + 1`, sentinels at `port + 2 … port + 4`. */
export async function startSentinelSet(port: number): Promise<SentinelSet> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-sentinel-'));
  const procs: ChildProcess[] = [];
  const serve = (args: string[]) => {
    const p = spawn('redis-server', args, { stdio: 'ignore' });
    procs.push(p);
    return p;
  };
  const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  serve(['--port', String(port), ...common]);
  serve(['--port', String(port + 1), '--replicaof', '127.0.0.1', String(port), ...common]);
  const sentinelPorts = [port + 2, port + 3, port + 4];
  for (const sp of sentinelPorts) {
    const conf = join(dir, `sentinel-${sp}.conf`);
    writeFileSync(
      conf,
      [
        `port ${sp}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${port} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_NAME} 5000`,
        `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
        '',
      ].join('\n'),
    );
    serve([conf, '--sentinel']);
  }
  const primaryPort = async () =>
    Number(((await redisCall(sentinelPorts[0], (c) => c.sendCommand(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME]))) as string[])[1]);
  const stopAll = async () => {
    await Promise.all(
      procs.map((p) => (p.exitCode !== null || p.signalCode !== null ? undefined : new Promise((r) => (p.once('exit', r), p.kill('SIGTERM'))))),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  // every sentinel knows the replica and the other sentinels (a failover needs them)
  await until('sentinels ready', 20_000, async () => {
    for (const sp of sentinelPorts) {
      const reply = (await redisCall(sp, (c) => c.sendCommand(['SENTINEL', 'MASTER', SENTINEL_NAME]))) as string[] | Record<string, string>;
      // a flat list under RESP2, a map under RESP3
      const field = (k: string) => Number(Array.isArray(reply) ? reply[reply.indexOf(k) + 1] : reply[k]);
      if (field('num-slaves') < 1 || field('num-other-sentinels') < 2) return undefined;
    }
    return true;
  }).catch(async (e) => {
    await stopAll();
    throw e;
  });
  const settings = { nodes: sentinelPorts.map((p) => ({ host: '127.0.0.1', port: p })), name: SENTINEL_NAME };
  return {
    env: { REDIS_SENTINELS: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','), REDIS_SENTINEL_NAME: SENTINEL_NAME, REDIS_URL: '' },
    settings,
    primaryPort,
    async failover(timeoutMs = 20_000) {
      const before = await primaryPort();
      // the replica must be in sync before a sentinel will promote it
      await until('replica in sync', timeoutMs, async () =>
        (await redisCall(before === port ? port + 1 : port, (c) => c.info('replication'))).includes('master_link_status:up') ? true : undefined,
      );
      await until('failover accepted', timeoutMs, async () => {
        await redisCall(sentinelPorts[0], (c) => c.sendCommand(['SENTINEL', 'FAILOVER', SENTINEL_NAME]));
        return true;
      });
      return until('new primary', timeoutMs, async () => {
        const now = await primaryPort();
        if (now === before) return undefined;
        return (await redisCall(now, (c) => c.info('replication'))).includes('role:master') ? now : undefined;
      });
    },
    stop: stopAll,
  };
}
