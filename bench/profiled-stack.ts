// The stack as scripts/start-all runs it, with a CPU profiler of the steady state for
// bench/throughput.bench.ts (BENCH_PROFILE=<dir>): SIGUSR2 starts profiling (after start-up and
// seeding), SIGTERM writes <dir>/stack-<pid>.cpuprofile and stops the stack. BENCH_PROFILE_KIND=heap:
// a sampling allocation profile instead (<dir>/stack-<pid>.heapprofile: bytes allocated by stack,
// kept or not, for Chrome DevTools' Memory tab), to see what feeds the garbage collector.
import { Session } from 'node:inspector/promises';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { startStack } from '../scripts/stack.js';

const dir = process.env.BENCH_PROFILE ?? '.';
const cfg = loadConfig();
const stack = await startStack(cfg, createLogger({}, 'error'));
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
const heap = process.env.BENCH_PROFILE_KIND === 'heap';
let profiling = false;
process.on('SIGUSR2', () => {
  if (profiling) return;
  profiling = true;
  if (heap) void session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  else void session.post('Profiler.start');
});
process.once('SIGTERM', () => {
  void (async () => {
    if (profiling) {
      const { profile } = heap ? await session.post('HeapProfiler.stopSampling') : await session.post('Profiler.stop');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `stack-${process.pid}.${heap ? 'heapprofile' : 'cpuprofile'}`), JSON.stringify(profile));
    }
    await stack.stop();
    process.exit(0);
  })();
});
