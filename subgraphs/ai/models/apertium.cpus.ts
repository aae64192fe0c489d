// A pipeline's stages split over two CPUs (apertium.pipeline.ts): where this process may run on
// exactly two CPUs, the stages are cut into two contiguous groups of about equal CPU time, the first
// pinned to one CPU and the rest to the other. A segment then crosses CPUs once on its way through
// the pipeline, and each CPU hands segments from stage to stage itself, instead of the scheduler
// moving stages between the two CPUs at every hand-off and leaving one idle while the other queues
// (measured in docs/ai.md, Translation pipelines). That pays where other work keeps the CPUs busy; on
// a quiet machine the scheduler does better, so by default (auto) each pipeline times its calls in
// both placements in turns and keeps the faster (apertium.placement.ts).
// The cut is measured, not guessed, so it fits every pair: each stage's CPU time over a few calls
// after the first (which loads the dictionaries), from /proc/<pid>/schedstat. Linux only; where
// /proc or taskset (util-linux) is missing, the stages stay where the scheduler puts them.
import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { PlacementTrials, TIMED_CHARS, msPer1000, type Placement } from './apertium.placement.js';

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
export function splitCpus(mode: 'auto' | 'on' | 'off', allowed = allowedCpus()): readonly number[] {
  return mode !== 'off' && allowed.length === 2 ? allowed : [];
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
 * Places one pipeline's stages: once it has answered the first call and MEASURED_CALLS more, the
 * stages are cut and split over the two CPUs; then, when adaptive, its calls' times choose between
 * split and shared (left to the scheduler) in turns (apertium.placement.ts). Failures (a stage gone,
 * no taskset) stop the placing where it is.
 */
export class StageSplit {
  private stages: number[] = [];
  private before: number[] = [];
  private calls = 0;
  private off: boolean;
  private moving = false;
  /** when the last move ended: a call begun before it ran in both placements and is not timed */
  private movedAt = 0;
  /** where the stages were cut, once they are split (for tests) */
  cut: number | null = null;
  /** where the stages are now */
  placed: Placement = 'shared';
  /** the turns choosing the placement (adaptive only), from the cut on */
  trials: PlacementTrials | null = null;

  constructor(
    private readonly shellPid: number | undefined,
    private readonly cpus: readonly number[],
    private readonly adaptive = true,
  ) {
    this.off = cpus.length !== 2 || shellPid === undefined;
  }

  /** Called after each answered call: its pipeline time, its characters and when it began (performance.now()). */
  answered(ms: number, chars: number, startedAt: number): Promise<void> {
    if (this.off || this.moving) return Promise.resolve();
    this.calls++;
    if (this.cut === null) return this.measure();
    if (!this.trials || chars < TIMED_CHARS || startedAt < this.movedAt) return Promise.resolve();
    const wanted = this.trials.record(msPer1000(ms, chars));
    return wanted === this.placed ? Promise.resolve() : this.place(wanted, this.cut);
  }

  private measure(): Promise<void> {
    if (this.calls === 1) {
      this.stages = stageProcesses(this.shellPid!);
      this.before = this.stages.map(cpuTimeNs);
      if (this.stages.length < 2 || this.before.some(Number.isNaN)) this.off = true;
      return Promise.resolve();
    }
    if (this.calls < 1 + MEASURED_CALLS) return Promise.resolve();
    const costs = this.stages.map((pid, i) => cpuTimeNs(pid) - this.before[i]);
    if (costs.some(Number.isNaN)) {
      this.off = true;
      return Promise.resolve();
    }
    const cut = balancedCut(costs);
    return this.place('split', cut).then(() => {
      if (this.off) return;
      this.cut = cut;
      if (this.adaptive) this.trials = new PlacementTrials();
    });
  }

  private place(placement: Placement, cut: number): Promise<void> {
    this.moving = true;
    const moves =
      placement === 'split'
        ? [pin(this.stages.slice(0, cut), String(this.cpus[0])), pin(this.stages.slice(cut), String(this.cpus[1]))]
        : [pin(this.stages, this.cpus.join(','))];
    return Promise.all(moves)
      .then(
        () => void (this.placed = placement),
        () => void (this.off = true),
      )
      .finally(() => {
        this.moving = false;
        this.movedAt = performance.now();
      });
  }
}

/** Pins processes (every thread of each) to a CPU list ("1", "0,1") with util-linux's taskset. */
function pin(pids: readonly number[], cpus: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', 'cpu=$1; shift; for pid; do taskset -a -p -c "$cpu" "$pid" >/dev/null || exit 1; done', 'pin', cpus, ...pids.map(String)], { timeout: 5000 }, (e) =>
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
