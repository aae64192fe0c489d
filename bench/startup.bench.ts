// npm run bench:startup: start-up time and memory of the system both ways `npm start` can run it:
// compiled (`NODE_ENV=production`: dist/, plain Node) and through the TypeScript loader
// (development), in one process and, with REDIS_URL, one process per service (START_PROCESSES=split).
// Per start it prints the time from spawn to the gateway's and REST bridge's /health/ready, then each
// process's RSS once ready (named by its entry point); first, the RSS of an empty program both ways.
// Each start gets a fresh scratch database, so each runs the migrations.
//
// Env: BENCH_PORT_BASE (23500), BENCH_BUILDS (dist,ts), BENCH_MODES (one,split; split needs REDIS_URL),
// DATABASE_URL (scratch databases on that server; unset: the embedded PostgreSQL, in the stack's process).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { nodeFlags } from '../scripts/node-flags.js';
import { benchStackEnv, processTree, rssMiB, scratchDatabase, waitUntilUp } from './harness.js';

const ROOT = resolve(import.meta.dirname, '..');
const base = Number(process.env.BENCH_PORT_BASE ?? 23500);
const builds = (process.env.BENCH_BUILDS ?? 'dist,ts').split(',');
const modes = (process.env.BENCH_MODES ?? (process.env.REDIS_URL ? 'one,split' : 'one')).split(',');
const LOADER = ['--import', '@swc-node/register/esm-register'];
const FLAGS = nodeFlags(ROOT);

execFileSync(process.execPath, [resolve(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });

/** A process's name: its entry point (…/gateway/main.js → gateway/main), or its command. */
function nameOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const file = [...args].reverse().find((a) => /\.(ts|js|mjs)$/.test(a));
    if (!file) return basename(args[0] ?? '?');
    const rel = file.startsWith(ROOT) ? file.slice(ROOT.length + 1) : file;
    return rel.replace(/^dist\//, '').replace(/\.(ts|js|mjs)$/, '');
  } catch {
    return '(exited)';
  }
}

/** RSS of a program that does nothing, once its loader (if any) is in. */
function emptyRss(args: string[]): number {
  const out = execFileSync(process.execPath, [...args, '--input-type=module', '-e', 'setTimeout(() => console.log(process.memoryUsage().rss), 300)'], { cwd: ROOT, encoding: 'utf8' });
  return Number(out.trim()) / 2 ** 20;
}

console.log(`# bench/startup.bench.ts  ${new Date().toISOString()}  node ${process.version}`);
console.log(`# ${cpus().length} cores, load average before the run ${loadavg().map((l) => l.toFixed(2)).join(' ')}; database: ${process.env.DATABASE_URL ? 'DATABASE_URL (a fresh scratch database a start)' : 'embedded'}`);
console.log(`empty program, RSS: plain node ${emptyRss([]).toFixed(0)} MiB; through the loader ${emptyRss(LOADER).toFixed(0)} MiB`);

let n = 0;
for (const build of builds) {
  for (const mode of modes) {
    const scratch = await scratchDatabase(`startup${n++}`);
    const env = benchStackEnv('startup', base, scratch.url, { NODE_ENV: build === 'dist' ? 'production' : 'development', START_PROCESSES: mode });
    const args = build === 'dist' ? [...FLAGS, resolve(ROOT, 'dist', 'scripts', 'start-all.js')] : [...FLAGS, ...LOADER, resolve(ROOT, 'scripts', 'start-all.ts')];
    const t0 = performance.now();
    const stack = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    // its messages (shutdown notices) are shown only when the start fails
    let stderr = '';
    stack.stderr!.on('data', (b: Buffer) => void (stderr = (stderr + b.toString()).slice(-4000)));
    try {
      await waitUntilUp(`http://127.0.0.1:${base + 80}/health/ready`, stack, 'the stack');
      await waitUntilUp(`http://127.0.0.1:${base}/health/ready`, stack, 'the gateway');
      const ready = (performance.now() - t0) / 1000;
      await new Promise((r) => setTimeout(r, 1000));
      const procs = processTree(stack.pid!).map((pid) => ({ name: nameOf(pid), rss: rssMiB(pid) })).filter((p) => p.rss > 0);
      const total = procs.reduce((s, p) => s + p.rss, 0);
      console.log(`${build === 'dist' ? 'compiled (dist/)' : 'loader (.ts)    '}  ${mode.padEnd(5)}  start → ready ${ready.toFixed(1).padStart(5)} s   RSS ${total.toFixed(0).padStart(5)} MiB in ${procs.length} process${procs.length > 1 ? 'es' : ''}`);
      for (const p of procs) console.log(`    ${p.name.padEnd(28)} ${p.rss.toFixed(0).padStart(5)} MiB`);
    } catch (e) {
      console.error(stderr);
      throw e;
    } finally {
      if (stack.exitCode === null) {
        const exited = new Promise((r) => stack.once('exit', r));
        stack.kill('SIGTERM');
        await exited;
      }
      await scratch.drop();
    }
  }
}
