// Which placement a pipeline's stages run in: split over the two CPUs (apertium.cpus.ts) or shared,
// left to the scheduler. Neither is faster everywhere (docs/ai.md, Translation pipelines): on a quiet
// machine the scheduler keeps a pipeline's stages on the idle CPU and the split costs 2-4 ms of a
// 1,000-character call; with other work on the machine the split saves 2-10 ms. So the pipeline tries
// both in turn on its own calls, keeps the faster, and tries both again after a while, as load changes.

export type Placement = 'split' | 'shared';

/** Calls timed in each placement per trial. */
export const TRIAL_CALLS = 20;
/** Calls kept in the faster placement before both are tried again. */
export const KEPT_CALLS = 200;
/**
 * Calls shorter than this are not timed: a text of one segment (apertium.pipeline.ts) has nothing to
 * spread over the CPUs, and on one VM the placement faster for 200 characters was the slower for
 * 1,000 (docs/ai.md), so the placement is chosen by the calls it matters for.
 */
export const TIMED_CHARS = 320;

/** A call's pipeline time per 1,000 characters, the figure trials compare. */
export function msPer1000(ms: number, chars: number): number {
  return (ms * 1000) / chars;
}

export class PlacementTrials {
  /** the placement wanted now */
  placement: Placement = 'split';
  /** the medians of the last finished trial (ms per 1,000 characters), for health and the bench */
  last: Record<Placement, number> | null = null;
  private samples: Record<Placement, number[]> = { split: [], shared: [] };
  private phase: 'first' | 'second' | 'kept' = 'first';
  private keptFor = 0;

  /** One timed call in the current placement; answers the placement wanted next. */
  record(msPer1000Chars: number): Placement {
    if (this.phase === 'kept') {
      if (++this.keptFor >= KEPT_CALLS) {
        // try again, the placement in place first (no move until its calls are timed)
        this.phase = 'first';
        this.samples = { split: [], shared: [] };
      }
      return this.placement;
    }
    const own = this.samples[this.placement];
    own.push(msPer1000Chars);
    if (own.length < TRIAL_CALLS) return this.placement;
    if (this.phase === 'first') {
      this.phase = 'second';
      this.placement = this.placement === 'split' ? 'shared' : 'split';
      return this.placement;
    }
    this.last = { split: round2(median(this.samples.split)), shared: round2(median(this.samples.shared)) };
    this.placement = this.last.split < this.last.shared ? 'split' : 'shared';
    this.phase = 'kept';
    this.keptFor = 0;
    return this.placement;
  }
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
