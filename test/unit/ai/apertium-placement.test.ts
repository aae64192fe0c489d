// The choice between an Apertium pipeline's stages split over two CPUs and left to the scheduler
// (subgraphs/ai/models/apertium.placement.ts): both tried in turn on the pipeline's own calls, the
// faster kept, both tried again after KEPT_CALLS calls (the one in place first); and, on a live
// stand-in pipeline, the stages' CPUs follow the choice. The live case is skipped on fewer than two CPUs.
import { readFileSync } from 'node:fs';
import { allowedCpus, stageProcesses } from '../../../subgraphs/ai/models/apertium.cpus.js';
import { ApertiumPipeline } from '../../../subgraphs/ai/models/apertium.pipeline.js';
import { KEPT_CALLS, PlacementTrials, TIMED_CHARS, TRIAL_CALLS, msPer1000 } from '../../../subgraphs/ai/models/apertium.placement.js';

const cpusOf = (pid: number): number[] => allowedCpus(readFileSync(`/proc/${pid}/status`, 'utf8'));
const until = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
};

test('each placement is timed for TRIAL_CALLS calls, the faster kept for KEPT_CALLS, then both tried again', () => {
  const t = new PlacementTrials();
  const times = { split: 12, shared: 11 };
  const seen: string[] = [];
  for (let i = 0; i < 2 * TRIAL_CALLS; i++) seen.push(t.record(times[t.placement]));
  expect(seen.slice(0, TRIAL_CALLS - 1).every((p) => p === 'split')).toBe(true);
  expect(seen[TRIAL_CALLS - 1]).toBe('shared');
  expect(t.placement).toBe('shared');
  expect(t.last).toEqual({ split: 12, shared: 11 });
  for (let i = 0; i < KEPT_CALLS - 1; i++) expect(t.record(times[t.placement])).toBe('shared');
  // the machine got busy: the split is faster now; the placement in place is timed first
  times.split = 10;
  times.shared = 18;
  expect(t.record(0)).toBe('shared');
  for (let i = 0; i < TRIAL_CALLS; i++) t.record(times[t.placement]);
  expect(t.placement).toBe('split');
  for (let i = 0; i < TRIAL_CALLS; i++) t.record(times[t.placement]);
  expect(t.last).toEqual({ split: 10, shared: 18 });
  expect(t.placement).toBe('split');
});

test('a call is compared by its time per 1,000 characters', () => {
  expect(msPer1000(12, 1000)).toBe(12);
  expect(msPer1000(6, 500)).toBe(12);
  expect(TIMED_CHARS).toBeGreaterThan(160);
});

test("a live pipeline's stages follow the trials: split over the two CPUs, or shared by both", async () => {
  const cpus = allowedCpus();
  if (cpus.length !== 2) return console.warn('not exactly two CPUs: placement not tested');
  const p = new ApertiumPipeline('cat | cat -u | cat - | cat -u -', process.env, cpus);
  const text = 'x'.repeat(TIMED_CHARS);
  try {
    for (let i = 0; i < 4; i++) expect(await p.run(text, 5000, [text])).toBe(text);
    await until(() => p.split.trials !== null);
    const stages = stageProcesses(p.pid!);
    const cut = p.split.cut!;
    const split = stages.map((_, i) => [i < cut ? cpus[0] : cpus[1]]);
    expect(stages.map(cpusOf)).toEqual(split);
    // the trials' calls, each answered before the next so each is timed in one placement
    const run = async (): Promise<void> => {
      expect(await p.run(text, 5000, [text])).toBe(text);
      await new Promise((r) => setTimeout(r, 5));
    };
    for (let i = 0; i < TRIAL_CALLS; i++) await run();
    await until(() => p.split.placed === 'shared');
    expect(stages.map(cpusOf)).toEqual(stages.map(() => cpus));
    for (let i = 0; i < TRIAL_CALLS + 2 && !p.split.trials!.last; i++) await run();
    const last = p.split.trials!.last!;
    expect(last.split).toBeGreaterThan(0);
    expect(last.shared).toBeGreaterThan(0);
    const chosen = last.split < last.shared ? 'split' : 'shared';
    await until(() => p.split.placed === chosen);
    expect(stages.map(cpusOf)).toEqual(chosen === 'split' ? split : stages.map(() => cpus));
    expect(await p.run('still answers', 5000)).toBe('still answers');
  } finally {
    p.stop();
  }
});
