// A pipeline's stages split over two CPUs (apertium.pipeline.ts): where this process may run on
// exactly two CPUs, the stages are cut into two contiguous groups of about equal CPU time, the first
// pinned to one CPU and the rest to the other. A segment then crosses CPUs once on its way through
// the pipeline, and each CPU hands segments from stage to stage itself, instead of the scheduler
// moving stages between the two CPUs at every hand-off and leaving one idle while the other queues
// (measured in docs/ai.md, Translation pipelines).
// The cut is measured, not guessed, so it fits every pair: each stage's CPU time over a few calls
// after the first (which loads the dictionaries), from /proc/<pid>/schedstat. Linux only; where
// /proc or taskset (util-linux) is missing, the stages stay where the scheduler puts them.
import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

/** Calls measured, after the first, before the cut is made. */
const MEASURED_CALLS = 3;

/** The CPUs this process may run on (`Cpus_allowed_list` of /proc/self/status); [] where unknown. */
export function allowedCpus(status = readProc('/proc/self/status')): number[] {
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status ?? '')?.[1];
  if (!list) return [];
  return list.split(',').flatMap((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/**
 * The two CPUs a pipeline's stages are split over: this process's when it may run on exactly two
 * (on more, the scheduler has room and other pipelines would crowd the same two; not measured), else none.
 */
export function splitCpus(mode: 'auto' | 'off', allowed = allowedCpus()): readonly number[] {
  return mode === 'auto' && allowed.length === 2 ? allowed : [];
}

/**
 * Where to cut stage costs into two contiguous groups so the larger group costs least: stages
 * [0, cut) go to the first CPU, [cut, n) to the second.
 */
export function balancedCut(costs: readonly number[]): number {
  const total = costs.reduce((s, c) => s + c, 0);
  let best = 1;
  let bestMax = Infinity;
  let prefix = 0;
  for (let cut = 1; cut < costs.length; cut++) {
    prefix += costs[cut - 1];
    const larger = Math.max(prefix, total - prefix);
    if (larger < bestMax) {
      best = cut;
      bestMax = larger;
    }
  }
  return best;
}

/**
 * The stage processes of a shell pipeline in pipeline order: the shell's children, chained by
 * their pipes (a stage's stdout is the next stage's stdin; the first reads the shell's stdin).
 * [] when /proc does not tell.
 */
export function stageProcesses(shellPid: number): number[] {
  const children = (readProc(`/proc/${shellPid}/task/${shellPid}/children`) ?? '').split(' ').filter(Boolean).map(Number);
  const byStdin = new Map(children.map((pid) => [fdTarget(pid, 0), pid]));
  const out: number[] = [];
  for (let pid = byStdin.get(fdTarget(shellPid, 0)); pid !== undefined && out.length < children.length; pid = byStdin.get(fdTarget(pid, 1))) out.push(pid);
  return out.length === children.length ? out : [];
}

/** Nanoseconds a process has run on a CPU (the first field of /proc/<pid>/schedstat); NaN when unknown. */
export function cpuTimeNs(pid: number): number {
  return Number((readProc(`/proc/${pid}/schedstat`) ?? '').split(' ')[0] || NaN);
}

/**
 * Splits one pipeline's stages over two CPUs once it has answered the first call and
 * MEASURED_CALLS more. Failures (a stage gone, no taskset) leave the stages unpinned.
 */
export class StageSplit {
  private stages: number[] = [];
  private before: number[] = [];
  private calls = 0;
  private done: boolean;
  /** where the stages were cut, once they are pinned (for tests) */
  cut: number | null = null;

  constructor(
    private readonly shellPid: number | undefined,
    private readonly cpus: readonly number[],
  ) {
    this.done = cpus.length !== 2 || shellPid === undefined;
  }

  /** Called after each answered call. */
  answered(): Promise<void> {
    if (this.done) return Promise.resolve();
    this.calls++;
    if (this.calls === 1) {
      this.stages = stageProcesses(this.shellPid!);
      this.before = this.stages.map(cpuTimeNs);
      if (this.stages.length < 2 || this.before.some(Number.isNaN)) this.done = true;
      return Promise.resolve();
    }
    if (this.calls < 1 + MEASURED_CALLS) return Promise.resolve();
    this.done = true;
    const costs = this.stages.map((pid, i) => cpuTimeNs(pid) - this.before[i]);
    if (costs.some(Number.isNaN)) return Promise.resolve();
    const cut = balancedCut(costs);
    return Promise.all([pin(this.stages.slice(0, cut), this.cpus[0]), pin(this.stages.slice(cut), this.cpus[1])]).then(
      () => void (this.cut = cut),
      () => undefined,
    );
  }
}

/** Pins processes (every thread of each) to one CPU with util-linux's taskset. */
function pin(pids: readonly number[], cpu: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', 'cpu=$1; shift; for pid; do taskset -a -p -c "$cpu" "$pid" >/dev/null || exit 1; done', 'pin', String(cpu), ...pids.map(String)], { timeout: 5000 }, (e) =>
      e ? reject(e) : resolve(),
    );
  });
}

function fdTarget(pid: number, fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
