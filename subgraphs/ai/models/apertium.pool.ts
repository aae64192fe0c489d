// The persistent pipelines of one language pair (apertium.pipeline.ts), bounded: a call takes an
// idle live pipeline, or starts one while fewer than `max` exist, or waits its turn; a pipeline that
// exited (crash, timeout) is dropped and the next call starts a new one; pipelines idle for
// `idleMs` are closed (the first call after that pays the start, ~150 ms, again). On a two-CPU
// machine each pipeline's stages may be split over the two CPUs (apertium.cpus.ts), every second
// pipeline the other way round, so pipelines answering at once do not crowd the same CPU.
import { splitCpus } from './apertium.cpus.js';
import { ApertiumPipeline } from './apertium.pipeline.js';
import type { Placement } from './apertium.placement.js';

export interface PoolOptions {
  /** pipelines per pair at most (AI_TRANSLATION_PIPELINES) */
  max: number;
  /** close a pipeline unused this long (AI_TRANSLATION_IDLE_MS) */
  idleMs: number;
  /** one call's deadline (AI_TRANSLATION_TIMEOUT_MS) */
  timeoutMs: number;
  /**
   * each pipeline's stages over the process's two CPUs when it has two (AI_TRANSLATION_CPU_SPLIT):
   * auto, split or shared as the pipeline's own calls show faster (apertium.placement.ts); on, split; off, shared
   */
  cpuSplit: 'auto' | 'on' | 'off';
}

export class PairPool {
  private readonly pipelines: ApertiumPipeline[] = [];
  private readonly idle: ApertiumPipeline[] = [];
  private readonly queue: Array<(p: ApertiumPipeline) => void> = [];
  private sweeper: NodeJS.Timeout | null = null;
  /** the two CPUs stages are split over, or none */
  private readonly cpus: readonly number[];
  private started = 0;

  constructor(
    private readonly command: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly opts: PoolOptions,
  ) {
    this.cpus = splitCpus(opts.cpuSplit);
  }

  /** Pipelines running now. */
  get size(): number {
    return this.pipelines.length;
  }

  /** Each pipeline's placement now and its last trial's medians (ms per 1,000 characters), for health. */
  placements(): Array<{ placed: Placement; trial: Record<Placement, number> | null }> {
    return this.pipelines.map((p) => ({ placed: p.split.placed, trial: p.split.trials?.last ?? null }));
  }

  async run(input: string): Promise<string> {
    const p = await this.acquire();
    try {
      return await p.run(input, this.opts.timeoutMs);
    } finally {
      this.release(p);
    }
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const p of this.pipelines) p.stop();
    this.pipelines.length = 0;
    this.idle.length = 0;
  }

  private acquire(): Promise<ApertiumPipeline> {
    while (this.idle.length) {
      const p = this.idle.pop()!;
      if (p.alive) return Promise.resolve(p);
      this.drop(p);
    }
    if (this.pipelines.length < this.opts.max) return Promise.resolve(this.startOne());
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(p: ApertiumPipeline): void {
    if (!p.alive) {
      this.drop(p);
      // a waiting caller gets a new pipeline in the dead one's place
      const next = this.queue.shift();
      if (next) next(this.startOne());
      return;
    }
    const next = this.queue.shift();
    if (next) next(p);
    else this.idle.push(p);
  }

  private startOne(): ApertiumPipeline {
    const p = new ApertiumPipeline(this.command, this.env, this.started++ % 2 ? [...this.cpus].reverse() : this.cpus, this.opts.cpuSplit === 'auto');
    this.pipelines.push(p);
    this.sweeper ??= setInterval(() => this.closeIdle(), Math.min(this.opts.idleMs, 60_000)).unref();
    return p;
  }

  private drop(p: ApertiumPipeline): void {
    p.stop();
    const i = this.pipelines.indexOf(p);
    if (i >= 0) this.pipelines.splice(i, 1);
    const j = this.idle.indexOf(p);
    if (j >= 0) this.idle.splice(j, 1);
  }

  private closeIdle(): void {
    const now = performance.now();
    for (const p of [...this.idle]) if (!p.alive || now - p.lastUsed >= this.opts.idleMs) this.drop(p);
    if (!this.pipelines.length && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }
}
